// Counters of failures in a fixed window, shared by every server node when Redis is configured (the
// login and password limiters: modules/auth/login-limiter.ts). Without Redis, one node's memory.
import { createClient } from 'redis';

export interface LimitState {
  count: number;
  /** Milliseconds until the window of the key ends (0 when the key is unknown). */
  resetInMs: number;
}

export interface LimitStore {
  /**
   * Counts one more failure of `key` in a window of `windowMs` that starts at its first failure. A key
   * counted `keepAt` times or more is never dropped to make room before its window ends.
   */
  hit(key: string, windowMs: number, keepAt: number): Promise<LimitState>;
  get(key: string): Promise<LimitState>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

const NONE: LimitState = { count: 0, resetInMs: 0 };

/** One node's counters; at most `maxKeys`, dropping ended windows first, then the oldest that is not locked. */
export function createMemoryLimitStore(maxKeys = 50_000, now: () => number = () => Date.now()): LimitStore {
  const entries = new Map<string, { count: number; until: number; keepAt: number }>();
  const live = (key: string) => {
    const e = entries.get(key);
    if (e && e.until <= now()) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };
  const makeRoom = () => {
    if (entries.size < maxKeys) return;
    const t = now();
    for (const [k, e] of entries) if (e.until <= t) entries.delete(k);
    for (const [k, e] of entries) {
      if (entries.size < maxKeys) break;
      if (e.count < e.keepAt) entries.delete(k);
    }
  };
  return {
    async hit(key, windowMs, keepAt) {
      const e = live(key);
      if (e) {
        e.count++;
        return { count: e.count, resetInMs: e.until - now() };
      }
      makeRoom();
      entries.set(key, { count: 1, until: now() + windowMs, keepAt });
      return { count: 1, resetInMs: windowMs };
    },
    async get(key) {
      const e = live(key);
      return e ? { count: e.count, resetInMs: e.until - now() } : NONE;
    },
    async reset(key) {
      entries.delete(key);
    },
    async close() {
      entries.clear();
    },
  };
}

/** Counters in Redis under `prefix`: every node sees the same counts; Redis expires ended windows. */
export async function createRedisLimitStore(url: string, prefix: string): Promise<LimitStore> {
  const client = createClient({ url });
  client.on('error', () => undefined); // reconnects by itself; a failed command fails its call
  await client.connect();
  const k = (key: string) => `${prefix}:limit:${key}`;
  return {
    async hit(key, windowMs) {
      const [count, , ttl] = (await client.multi().incr(k(key)).pExpire(k(key), windowMs, 'NX').pTTL(k(key)).exec()) as unknown as [
        number,
        number,
        number,
      ];
      return { count: Number(count), resetInMs: Math.max(0, Number(ttl)) };
    },
    async get(key) {
      const [count, ttl] = (await client.multi().get(k(key)).pTTL(k(key)).exec()) as unknown as [string | null, number];
      return count === null ? NONE : { count: Number(count), resetInMs: Math.max(0, Number(ttl)) };
    },
    async reset(key) {
      await client.del(k(key));
    },
    async close() {
      await client.quit().catch(() => undefined);
    },
  };
}
