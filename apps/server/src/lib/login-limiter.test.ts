import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryLimitStore, createRedisLimitStore, type LimitStore } from './limit-store.ts';
import { createLoginLimiter, DEFAULT_LIMITS } from './login-limiter.ts';

const WINDOW = DEFAULT_LIMITS.windowMs;
const at = (address: string, account = 'demo|clerk') => ({ address, account });

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('login limiter (one node)', () => {
  it('allows four failures from one address for one account and refuses after the fifth for the rest of the window', async () => {
    const c = clock();
    const limiter = createLoginLimiter(createMemoryLimitStore(100, c.now), 'login');
    for (let i = 0; i < 4; i++) {
      await limiter.recordFailure(at('10.0.0.1'));
      expect(await limiter.retryAfterMs(at('10.0.0.1'))).toBe(0);
    }
    await limiter.recordFailure(at('10.0.0.1'));
    expect(await limiter.retryAfterMs(at('10.0.0.1'))).toBe(WINDOW);
    c.advance(WINDOW / 2);
    expect(await limiter.retryAfterMs(at('10.0.0.1'))).toBe(WINDOW / 2);
    c.advance(WINDOW / 2);
    expect(await limiter.retryAfterMs(at('10.0.0.1'))).toBe(0);
  });

  it('limits one account tried from many addresses (30 addresses do not get 30 guesses)', async () => {
    const limiter = createLoginLimiter(createMemoryLimitStore(), 'login');
    let allowed = 0;
    for (let i = 0; i < 30; i++) {
      const a = at(`10.0.1.${i}`);
      if ((await limiter.retryAfterMs(a)) === 0) {
        allowed++;
        await limiter.recordFailure(a);
      }
    }
    expect(allowed).toBe(DEFAULT_LIMITS.perAccount);
    // A new address, the right password or not: the account waits.
    expect(await limiter.retryAfterMs(at('10.0.9.9'))).toBeGreaterThan(0);
    // Another account is not affected.
    expect(await limiter.retryAfterMs(at('10.0.9.9', 'demo|admin'))).toBe(0);
  });

  it('limits one address trying many account names', async () => {
    const limiter = createLoginLimiter(createMemoryLimitStore(), 'login');
    let allowed = 0;
    for (let i = 0; i < 100; i++) {
      const a = at('10.0.2.1', `demo|name${i}`);
      if ((await limiter.retryAfterMs(a)) === 0) {
        allowed++;
        await limiter.recordFailure(a);
      }
    }
    expect(allowed).toBe(DEFAULT_LIMITS.perAddress);
    expect(await limiter.retryAfterMs(at('10.0.2.1', 'demo|clerk'))).toBeGreaterThan(0);
    expect(await limiter.retryAfterMs(at('10.0.2.2', 'demo|clerk'))).toBe(0);
  });

  it('never drops a locked account to make room, however many made-up names another address floods', async () => {
    const limiter = createLoginLimiter(createMemoryLimitStore(1000), 'login');
    for (let i = 0; i < 5; i++) await limiter.recordFailure(at('10.0.3.1', 'demo|admin'));
    expect(await limiter.retryAfterMs(at('10.0.3.1', 'demo|admin'))).toBeGreaterThan(0);
    for (let i = 0; i < 10_050; i++) await limiter.recordFailure(at(`10.${i % 200}.4.${i % 250}`, `demo|made-up-${i}`));
    expect(await limiter.retryAfterMs(at('10.0.3.1', 'demo|admin'))).toBeGreaterThan(0);
  });

  it('clears an address and account on success, but not what the account collected from elsewhere', async () => {
    const limiter = createLoginLimiter(createMemoryLimitStore(), 'login');
    for (let i = 0; i < 4; i++) await limiter.recordFailure(at('10.0.5.1'));
    for (let i = 0; i < 6; i++) await limiter.recordFailure(at(`10.0.6.${i}`));
    await limiter.recordSuccess(at('10.0.5.1'));
    // 10 failures of the account from anywhere: it waits until its window ends.
    expect(await limiter.retryAfterMs(at('10.0.5.1'))).toBeGreaterThan(0);
  });

  it('keeps the counts of different scopes apart', async () => {
    const store = createMemoryLimitStore();
    const logins = createLoginLimiter(store, 'login');
    const passwords = createLoginLimiter(store, 'password');
    for (let i = 0; i < 5; i++) await logins.recordFailure(at('10.0.7.1'));
    expect(await passwords.retryAfterMs(at('10.0.7.1'))).toBe(0);
  });
});

describe.runIf(process.env.REDIS_URL)('login limiter across nodes (Redis)', () => {
  it('counts the failures of every node together, and a locked account stays locked on each', async () => {
    const prefix = `fhtest-${randomBytes(6).toString('hex')}`;
    const stores: LimitStore[] = [
      await createRedisLimitStore(process.env.REDIS_URL!, prefix),
      await createRedisLimitStore(process.env.REDIS_URL!, prefix),
    ];
    try {
      const [a, b] = stores.map((s) => createLoginLimiter(s, 'login'));
      for (let i = 0; i < 5; i++) await a!.recordFailure(at(`10.1.0.${i}`));
      for (let i = 0; i < 5; i++) await b!.recordFailure(at(`10.1.1.${i}`));
      expect(await a!.retryAfterMs(at('10.1.2.1'))).toBeGreaterThan(0);
      expect(await b!.retryAfterMs(at('10.1.2.1'))).toBeGreaterThan(WINDOW - 60_000);
    } finally {
      for (const s of stores) await s.close();
    }
  });
});
