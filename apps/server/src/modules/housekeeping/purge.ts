/*
 * Housekeeping: rows that only matter for a while are deleted once they cannot matter any more.
 * - Idempotency keys: a client retries a write within seconds or minutes (a dropped connection, a
 *   scanner that woke up); after `IDEMPOTENCY_KEEP_HOURS` a key is forgotten, and the same key would
 *   be a new request. The movement keeps its key in the ledger for the record.
 * - Revoked tokens: a revocation only has to outlive the token it revokes.
 * Every server node runs it; the deletes are idempotent, so nodes running it at once do no harm.
 */
import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { idempotencyKeys, revokedTokens } from '../../db/schema.ts';

export interface Purged {
  idempotencyKeys: number;
  revokedTokens: number;
}

/** Deletes idempotency keys older than `keepHours` and revocations of tokens expired by `now`. */
export async function purgeExpired(db: Db, keepHours: number, now = new Date()): Promise<Purged> {
  const cutoff = new Date(now.getTime() - keepHours * 3_600_000);
  const keys = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).returning({ key: idempotencyKeys.key });
  const revoked = await db
    .delete(revokedTokens)
    .where(lt(revokedTokens.expiresAt, sql`${now.toISOString()}::timestamptz`))
    .returning({ jti: revokedTokens.jti });
  return { idempotencyKeys: keys.length, revokedTokens: revoked.length };
}

/** How often a node purges: hourly, the first time a minute after start. */
export const PURGE_EVERY_MS = 3_600_000;
const FIRST_PURGE_MS = 60_000;

/** Starts the periodic purge; returns the function that stops it (on close). */
export function schedulePurge(db: Db, keepHours: number, log: FastifyBaseLogger): () => void {
  const run = () =>
    purgeExpired(db, keepHours).then(
      (n) => {
        if (n.idempotencyKeys || n.revokedTokens) log.info(n, 'purged expired idempotency keys and token revocations');
      },
      (error: unknown) => log.warn({ err: error }, 'purging expired rows failed; trying again later'),
    );
  let timer = setTimeout(function tick() {
    void run();
    timer = setTimeout(tick, PURGE_EVERY_MS).unref();
  }, FIRST_PURGE_MS).unref();
  return () => clearTimeout(timer);
}
