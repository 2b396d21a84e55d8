// Failed logins are limited per client address and account name: a shared tablet that logs in all
// day is never slowed, a guesser is. Kept per server node (see docs/decisions.md).

export interface LoginLimiter {
  /** Milliseconds until the next attempt is allowed, or 0. */
  retryAfterMs(key: string, now?: number): number;
  recordFailure(key: string, now?: number): void;
  recordSuccess(key: string): void;
}

export function createLoginLimiter(maxFailures = 5, windowMs = 15 * 60_000): LoginLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) => (failures.get(key) ?? []).filter((t) => now - t < windowMs);
  return {
    retryAfterMs(key, now = Date.now()) {
      const times = recent(key, now);
      failures.set(key, times);
      if (times.length < maxFailures) return 0;
      return windowMs - (now - (times[0] ?? now));
    },
    recordFailure(key, now = Date.now()) {
      const times = recent(key, now);
      times.push(now);
      failures.set(key, times);
      if (failures.size > 10_000) failures.delete(failures.keys().next().value as string);
    },
    recordSuccess(key) {
      failures.delete(key);
    },
  };
}
