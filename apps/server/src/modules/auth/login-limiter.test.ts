import { describe, expect, it } from 'vitest';
import { createLoginLimiter } from './login-limiter.ts';

const WINDOW = 15 * 60_000;

describe('login limiter', () => {
  it('allows four failures and refuses after the fifth for the rest of the window', () => {
    const limiter = createLoginLimiter(5, WINDOW);
    for (let i = 0; i < 4; i++) {
      limiter.recordFailure('k', 1000 + i);
      expect(limiter.retryAfterMs('k', 1000 + i)).toBe(0);
    }
    limiter.recordFailure('k', 1004);
    expect(limiter.retryAfterMs('k', 1004)).toBe(WINDOW - 4);
    expect(limiter.retryAfterMs('k', 1000 + WINDOW / 2)).toBe(WINDOW / 2);
  });

  it('forgets failures older than the window', () => {
    const limiter = createLoginLimiter(5, WINDOW);
    for (let i = 0; i < 5; i++) limiter.recordFailure('k', i);
    expect(limiter.retryAfterMs('k', WINDOW - 1)).toBeGreaterThan(0);
    // The first failure (t=0) has left the window: four remain, one more try is allowed.
    expect(limiter.retryAfterMs('k', WINDOW)).toBe(0);
    expect(limiter.retryAfterMs('k', WINDOW + 10)).toBe(0);
  });

  it('clears the failures of a key on success', () => {
    const limiter = createLoginLimiter(5, WINDOW);
    for (let i = 0; i < 4; i++) limiter.recordFailure('k', i);
    limiter.recordSuccess('k');
    limiter.recordFailure('k', 10);
    expect(limiter.retryAfterMs('k', 10)).toBe(0);
  });

  it('keeps keys apart (a guesser does not slow another client or account)', () => {
    const limiter = createLoginLimiter(5, WINDOW);
    for (let i = 0; i < 5; i++) limiter.recordFailure('1.1.1.1|demo|clerk', i);
    expect(limiter.retryAfterMs('1.1.1.1|demo|clerk', 10)).toBeGreaterThan(0);
    expect(limiter.retryAfterMs('2.2.2.2|demo|clerk', 10)).toBe(0);
    expect(limiter.retryAfterMs('1.1.1.1|demo|admin', 10)).toBe(0);
  });

  it('honours other limits and windows', () => {
    const limiter = createLoginLimiter(2, 1000);
    limiter.recordFailure('k', 0);
    expect(limiter.retryAfterMs('k', 0)).toBe(0);
    limiter.recordFailure('k', 100);
    expect(limiter.retryAfterMs('k', 100)).toBe(900);
    expect(limiter.retryAfterMs('k', 1000)).toBe(0);
  });

  it('bounds its memory at 10 000 keys, dropping the oldest', () => {
    const limiter = createLoginLimiter(1, WINDOW);
    limiter.recordFailure('oldest', 0);
    expect(limiter.retryAfterMs('oldest', 1)).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) limiter.recordFailure(`key${i}`, 1);
    expect(limiter.retryAfterMs('oldest', 2)).toBe(0);
    expect(limiter.retryAfterMs('key9999', 2)).toBeGreaterThan(0);
  });
});
