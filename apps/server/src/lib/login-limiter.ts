// Failed logins (and wrong current passwords) are limited three ways at once, in windows of 15
// minutes: per client address and account name (a guesser at one terminal), per account name from
// any address (a guesser with many addresses), and per address for any account name (one address
// trying many names). A shared tablet that logs in all day is never slowed: success clears its own
// address-and-account count; the account's count from everywhere runs out with its window, so a
// guesser's tries are not given back by the owner's next login. The counts live in Redis when REDIS_URL is set, so every node sees them (lib/limit-store.ts).
import type { Config } from '../config.ts';
import type { LimitStore } from './limit-store.ts';

export interface LoginLimits {
  /** Per address and account (the spec's client shows the wait). */
  perPair: number;
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: LoginLimits = { perPair: 5, perAccount: 10, perAddress: 30, windowMs: 15 * 60_000 };

export const limitsOf = (config: Pick<Config, 'LOGIN_MAX_FAILURES_PER_ACCOUNT' | 'LOGIN_MAX_FAILURES_PER_ADDRESS'>): LoginLimits => ({
  ...DEFAULT_LIMITS,
  perAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
  perAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
});

/** Who is trying: the client's address and the account (name, or id), each already made a key part. */
export interface Attempt {
  address: string;
  account: string;
}

export interface LoginLimiter {
  /** Milliseconds until the next attempt is allowed, or 0. */
  retryAfterMs(a: Attempt): Promise<number>;
  recordFailure(a: Attempt): Promise<void>;
  recordSuccess(a: Attempt): Promise<void>;
}

/** `scope` names what is limited ('login', 'password'): its counts are its own. */
export function createLoginLimiter(store: LimitStore, scope: string, limits: LoginLimits = DEFAULT_LIMITS): LoginLimiter {
  const keys = (a: Attempt) =>
    [
      [`${scope}:pair:${a.address}|${a.account}`, limits.perPair],
      [`${scope}:account:${a.account}`, limits.perAccount],
      [`${scope}:address:${a.address}`, limits.perAddress],
    ] as const;
  return {
    async retryAfterMs(a) {
      const states = await Promise.all(keys(a).map(async ([key, max]) => ({ ...(await store.get(key)), max })));
      return Math.max(0, ...states.filter((s) => s.count >= s.max).map((s) => Math.max(1, s.resetInMs)));
    },
    async recordFailure(a) {
      await Promise.all(keys(a).map(([key, max]) => store.hit(key, limits.windowMs, max)));
    },
    async recordSuccess(a) {
      await store.reset(keys(a)[0][0]);
    },
  };
}
