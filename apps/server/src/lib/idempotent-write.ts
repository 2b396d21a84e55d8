/*
 * Idempotent writes. The answer of a write is stored under its idempotency key (per organisation) in
 * the write's own transaction, so either both the change and the stored answer commit or neither
 * does. A retry with the key gets the stored answer and changes nothing; the same key with another
 * request is refused with 409. Two requests racing with one key: the second waits on a transaction
 * lock of the key until the first commits, then answers what the first stored (and should it get
 * past the lock anyway, its insert of the key fails on the primary key and it answers the same).
 * A failed write stores nothing, so its retry runs again.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { CallPath } from '@floorhand/contract/api';
import type { StockChanged } from '@floorhand/contract/realtime';
import type { AuthContext } from './auth-context.ts';
import type { Deps } from './calls.ts';
import type { Db } from '../db/client.ts';
import { idempotencyKeys, sites } from '../db/schema.ts';
import { DuplicateKeyError, constraintOf, guarded } from '../db/errors.ts';
import { conflict } from './errors.ts';
import { AppError } from '@floorhand/contract/errors';
import { query } from '../db/sql.ts';
import { pacer } from './pace.ts';

/** What a write changed, told to every screen of the organisation after commit (the stockChanged event). */
export type Changed = StockChanged;

export interface WriteResult<T> {
  response: T;
  changed?: Changed;
  /** More to tell the organisation's sites after commit (read once with what `changed` needs). */
  alsoEmit?: (siteIds: readonly string[]) => void;
}

/** Keys sort their object keys, so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

export function requestHash(call: string, body: Record<string, unknown>): string {
  const { locId: _locId, idempotencyKey: _key, ...rest } = body;
  return createHash('sha256')
    .update(JSON.stringify(canonical({ call, body: rest })))
    .digest('hex');
}

/** Characters of a large text field hashed between two pauses. */
const HASH_SLICE = 256 * 1024;

/**
 * requestHash of a body with one large text field (an import's file), the same hash, worked out in
 * slices with pauses (lib/pace.ts): the field's JSON is hashed a slice at a time, never cut inside a
 * surrogate pair, so its escapes are the ones JSON.stringify of the whole gives.
 */
export async function requestHashPaced(call: string, body: Record<string, unknown>, field: string): Promise<string> {
  const text = body[field];
  if (typeof text !== 'string') return requestHash(call, body);
  const { locId: _locId, idempotencyKey: _key, ...rest } = body;
  const mark = `mark-${randomUUID()}`;
  const whole = JSON.stringify(canonical({ call, body: { ...rest, [field]: mark } }));
  const at = whole.indexOf(`"${mark}"`);
  const hash = createHash('sha256').update(whole.slice(0, at + 1));
  const pace = pacer();
  for (let i = 0; i < text.length;) {
    let end = Math.min(text.length, i + HASH_SLICE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    hash.update(JSON.stringify(text.slice(i, end)).slice(1, -1));
    i = end;
    await pace();
  }
  return hash.update(whole.slice(at + mark.length + 1)).digest('hex');
}

async function storedAnswer(db: Db, orgId: string, key: string) {
  return guarded(
    async () =>
      (
        await db
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)))
      )[0],
  );
}

/** The key's transaction lock, one per organisation and key. */
const keyLock = (orgId: string, key: string) => sql`hashtextextended(${`${orgId}|${key}`}, 0)`;

/**
 * One statement: the key's transaction lock when nobody holds it (`free`), and its stored answer as
 * this statement sees it. Not free: another request with the key is under way; the caller waits for
 * the lock and reads the answer again.
 */
async function freeKey(tx: Db, orgId: string, key: string): Promise<{ free: boolean; stored?: StoredKey }> {
  // A LEFT JOIN from one row: always one row, its key's columns null when nothing is stored.
  const [row] = await query<{ free: boolean; call: string | null; request_hash: string; response: unknown }>(
    tx,
    sql`SELECT pg_try_advisory_xact_lock(${keyLock(orgId, key)}) AS free, k.call, k.request_hash, k.response
        FROM (SELECT 1) AS one LEFT JOIN idempotency_keys k ON k.org_id = ${orgId} AND k.key = ${key}`,
  );
  const { free, call, request_hash: requestHash, response } = row!;
  return call === null ? { free } : { free, stored: { call, requestHash, response } };
}

type StoredKey = { call: string; requestHash: string; response: unknown };

function replay<T>(deps: Deps, stored: StoredKey, call: CallPath, hash: string): T {
  if (stored.call !== call || stored.requestHash !== hash) {
    throw conflict('This idempotency key was used for another request; send a new key for a new change', `first used for ${stored.call}`);
  }
  deps.metrics.replayed(call);
  return stored.response as T;
}

/** How long an organisation's site ids are remembered (the API never adds or removes a site; SQL by hand is seen within this). */
export const SITES_CACHE_MS = 2000;
const MAX_ORGS = 10_000;
const siteCaches = new WeakMap<Db, Map<string, { ids: string[]; until: number }>>();

/**
 * The organisation's site ids, from memory for SITES_CACHE_MS. Every write told the sites what it
 * changed after its commit, and read them first: a statement of its own, with a pass through the
 * pool's queue, on the way to every write's answer (docs/performance.md: under CPU shortage that
 * queue is where a pick confirm's tail came from).
 */
export async function sitesOf(db: Db, orgId: string, now = Date.now()): Promise<string[]> {
  let cache = siteCaches.get(db);
  if (!cache) siteCaches.set(db, (cache = new Map()));
  const hit = cache.get(orgId);
  if (hit && hit.until > now) return hit.ids;
  const ids = (await guarded(() => db.select({ id: sites.id }).from(sites).where(eq(sites.orgId, orgId)))).map((s) => s.id);
  if (cache.size >= MAX_ORGS) cache.delete(cache.keys().next().value!);
  cache.set(orgId, { ids, until: now + SITES_CACHE_MS });
  return ids;
}

/** Tells every site of the organisation what changed (stock data is per organisation). */
export async function emitChanged(
  deps: Deps,
  orgId: string,
  changed: Changed | undefined,
  alsoEmit?: (siteIds: readonly string[]) => void,
): Promise<void> {
  const stock = changed && (changed.stockIds.length > 0 || changed.locationIds.length > 0) ? changed : undefined;
  if (!stock && !alsoEmit) return;
  const siteIds = await sitesOf(deps.db, orgId);
  if (stock) for (const id of siteIds) deps.realtime.emit(id, 'stockChanged', { stockIds: stock.stockIds, locationIds: stock.locationIds });
  alsoEmit?.(siteIds);
}

/** The keyed writes under way on this node, per database handle: organisation and key → the write's end. */
const underWay = new WeakMap<Db, Map<string, Promise<void>>>();

/**
 * Waits until no write with this key is under way on this node, then holds the key's turn until the
 * answered function gives it up. Nothing is held meanwhile: no connection, no transaction.
 */
async function keyTurn(db: Db, orgId: string, key: string): Promise<() => void> {
  let writes = underWay.get(db);
  if (!writes) underWay.set(db, (writes = new Map()));
  const id = `${orgId}\u0000${key}`;
  for (let first = writes.get(id); first; first = writes.get(id)) await first;
  let giveUp!: () => void;
  writes.set(id, new Promise<void>((r) => (giveUp = r)));
  return () => {
    writes.delete(id);
    giveUp();
  };
}

/**
 * Runs `work` in one transaction and stores its answer under the key (when there is one) in the
 * same transaction; after commit, emits what changed. A retry answers the stored response.
 *
 * A retry that comes while the first with its key is still under way on this node (a scanner that
 * sends again when its answer is slow) waits for it here, holding nothing (keyTurn), and then finds
 * its answer in its first statement. Without it the retry took a pooled connection and a transaction
 * to wait on the key's lock: when every picker's retry came in the same seconds, half the pool waited
 * on keys while the firsts' statements queued for a connection (docs/performance.md, "Pick confirm's
 * bursts"). A retry on another node still waits on the lock.
 */
export async function idempotentWrite<T>(
  deps: Deps,
  auth: AuthContext,
  call: CallPath,
  body: Record<string, unknown> & { idempotencyKey?: string },
  work: (tx: Db) => Promise<WriteResult<T>>,
  /** The body's requestHash worked out already (requestHashPaced, for a large body). */
  knownHash?: string,
): Promise<T> {
  const key = body.idempotencyKey;
  const hash = key ? (knownHash ?? requestHash(call, body)) : '';
  const leave = key ? await keyTurn(deps.db, auth.orgId, key) : undefined;
  let result: WriteResult<T>;
  try {
    const outcome = await deps.db.transaction(async (tx): Promise<{ stored: StoredKey } | { done: WriteResult<T> }> => {
      if (key) {
        // Requests with one key, one at a time: a retry sent while the first is still running waits
        // on the key's lock, then finds the first's answer (read in a statement of its own, after
        // the wait) and answers it. Without the wait the retry ran the work again after the first
        // committed and could be refused by what the first had done ("picked already", "only 0
        // left") although the change it asked for was made. The usual case, a key nobody holds, is
        // one statement: the lock taken if free, and the stored answer read beside it.
        const first = await freeKey(tx, auth.orgId, key);
        if (first.stored) return { stored: first.stored };
        if (!first.free) {
          await tx.execute(sql`SELECT pg_advisory_xact_lock(${keyLock(auth.orgId, key)})`);
          const stored = await storedAnswer(tx, auth.orgId, key);
          if (stored) return { stored };
        }
      }
      const done = await work(tx);
      if (key) {
        await guarded(() =>
          tx
            .insert(idempotencyKeys)
            .values({ orgId: auth.orgId, key, call, requestHash: hash, response: done.response, accountId: auth.accountId }),
        );
      }
      return { done };
    });
    if ('stored' in outcome) return replay<T>(deps, outcome.stored, call, hash);
    result = outcome.done;
  } catch (error) {
    // The first with this key committed after this one's statement saw the key free (the lock taken
    // a moment after the statement's snapshot): the work then ran again and was refused by what the
    // first did, or its key collided. Either way the first's answer is the answer.
    const raced = error instanceof AppError || (error instanceof DuplicateKeyError && constraintOf(error) === 'idempotency_keys_org_key');
    if (key && raced) {
      const stored = await storedAnswer(deps.db, auth.orgId, key);
      if (stored) return replay<T>(deps, stored, call, hash);
    }
    throw error;
  } finally {
    leave?.();
  }
  await emitChanged(deps, auth.orgId, result.changed, result.alsoEmit);
  return result.response;
}
