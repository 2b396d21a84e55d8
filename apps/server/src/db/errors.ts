/*
 * Database failures leave the data layer as the spec's codes: a unique violation as DuplicateKeyError
 * (its constraint kept, so the caller can say which key), anything else as DB_ERR with the cause
 * logged. The same for node-postgres and PGlite, wrapped by drizzle or not.
 */
import { AppError } from '@floorhand/contract/errors';
import { dbError, dupMessage } from '../lib/errors.ts';

export class DuplicateKeyError extends Error {}

const UNIQUE_VIOLATION = '23505';

/** Walks an error's `cause` chain (drizzle wraps driver errors) for the first value `pick` finds. */
function fromCauses<T>(error: unknown, pick: (e: object) => T | undefined): T | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const found = pick(e);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The PostgreSQL error code, from node-postgres and PGlite errors alike. */
export const pgCode = (error: unknown): string | undefined =>
  fromCauses(error, (e) => (typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined));

/** Whether a database error is a unique violation (raw driver error or DuplicateKeyError). */
export const isUniqueViolation = (error: unknown): boolean => error instanceof DuplicateKeyError || pgCode(error) === UNIQUE_VIOLATION;

/** The unique constraint a unique violation broke. */
export const constraintOf = (error: unknown): string | undefined =>
  fromCauses(error, (e) =>
    typeof (e as { constraint?: unknown }).constraint === 'string' ? (e as { constraint: string }).constraint : undefined,
  );

/** Runs a query; a unique violation leaves as DuplicateKeyError, any other database failure as a 500 DB_ERR. */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError || error instanceof DuplicateKeyError) throw error;
    if (pgCode(error) === UNIQUE_VIOLATION) throw new DuplicateKeyError('unique violation', { cause: error });
    const failure = dbError('The database could not complete the request');
    failure.cause = error;
    throw failure;
  }
}

/**
 * Runs a write through `guarded`; a unique violation of a constraint named in `byConstraint` becomes
 * that answer, any other unique violation the spec's generic DUP. Constraint names come from the
 * database and are looked up as own keys only (never `constructor` or `__proto__`).
 */
export async function mapDuplicates<T>(write: () => Promise<T>, byConstraint: Record<string, () => AppError>): Promise<T> {
  try {
    return await guarded(write);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const name = constraintOf(error) ?? '';
    if (Object.hasOwn(byConstraint, name)) throw byConstraint[name]!();
    throw dupMessage('A record with this id already exists.');
  }
}
