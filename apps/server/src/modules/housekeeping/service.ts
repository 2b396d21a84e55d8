/*
 * Housekeeping: rows that only matter for a while are deleted once they cannot matter any more.
 * - Idempotency keys: a client retries a write within seconds or minutes (a dropped connection, a
 *   scanner that woke up); after `IDEMPOTENCY_KEEP_HOURS` a key is forgotten, and the same key would
 *   be a new request. The movement keeps its key in the ledger for the record.
 * - Revoked tokens: a revocation only has to outlive the token it revokes.
 * - Time-clock photos that belong to no punch, older than `CLOCK_PHOTO_ORPHAN_MINUTES`: the photo of
 *   a missed-punch question nobody answered (refused scans delete theirs at once, modules/timeclock).
 * Every server node runs it; the deletes are idempotent, so nodes running it at once do no harm.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { deleteKeysBefore, deleteOrphanClockPhotosBefore, deleteRevocationsExpiredBy } from './repository.ts';

/** A clock photo with no punch this long after it was taken is an abandoned question's: deleted. */
export const CLOCK_PHOTO_ORPHAN_MINUTES = 30;

export interface Purged {
  idempotencyKeys: number;
  revokedTokens: number;
  clockPhotos: number;
}

/** Deletes idempotency keys older than `keepHours` and revocations of tokens expired by `now`. */
export async function purgeExpired(db: Db, keepHours: number, now = new Date()): Promise<Purged> {
  const cutoff = new Date(now.getTime() - keepHours * 3_600_000);
  const keys = await deleteKeysBefore(db, cutoff);
  const revoked = await deleteRevocationsExpiredBy(db, now);
  const photos = await purgeOrphanClockPhotos(db, now);
  return { idempotencyKeys: keys, revokedTokens: revoked, clockPhotos: photos };
}

/** Deletes time-clock photos (purpose clockPhoto) no punch refers to, taken more than CLOCK_PHOTO_ORPHAN_MINUTES before `now`. */
export async function purgeOrphanClockPhotos(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - CLOCK_PHOTO_ORPHAN_MINUTES * 60_000).toISOString();
  return deleteOrphanClockPhotosBefore(db, cutoff);
}

/** How often a node purges: hourly, the first time a minute after start. */
export const PURGE_EVERY_MS = 3_600_000;
const FIRST_PURGE_MS = 60_000;

/** Starts the periodic purge; returns the function that stops it (on close). */
export function schedulePurge(db: Db, keepHours: number, log: FastifyBaseLogger): () => void {
  const run = () =>
    purgeExpired(db, keepHours).then(
      (n) => {
        if (n.idempotencyKeys || n.revokedTokens || n.clockPhotos)
          log.info(n, 'purged expired idempotency keys, token revocations and unused clock photos');
      },
      (error: unknown) => log.warn({ err: error }, 'purging expired rows failed; trying again later'),
    );
  let timer = setTimeout(function tick() {
    void run();
    timer = setTimeout(tick, PURGE_EVERY_MS).unref();
  }, FIRST_PURGE_MS).unref();
  return () => clearTimeout(timer);
}
