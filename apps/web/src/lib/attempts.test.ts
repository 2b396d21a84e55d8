import { describe, expect, it } from 'vitest';
import { createAttempts, isDefinite } from './attempts.ts';

const keys = () => {
  let n = 0;
  return () => `key-${++n}`;
};

describe('attempts (idempotency keys)', () => {
  it('re-sends the same key and frozen request when the same change is retried', () => {
    const a = createAttempts(keys());
    const first = a.begin({ stockId: 'S1', qty: '5' }, () => ({ stockId: 'S1', qty: '5', _rev: 3 }));
    // The record was refreshed meanwhile (its revision moved on): the retry still sends revision 3.
    const retry = a.begin({ stockId: 'S1', qty: '5' }, () => ({ stockId: 'S1', qty: '5', _rev: 4 }));
    expect(retry).toBe(first);
    expect(retry).toEqual({ key: 'key-1', body: { stockId: 'S1', qty: '5', _rev: 3 } });
  });

  it('starts a new attempt for another change or after an answer', () => {
    const a = createAttempts(keys());
    expect(a.begin({ qty: '5' }, () => 1).key).toBe('key-1');
    expect(a.begin({ qty: '6' }, () => 2).key).toBe('key-2');
    a.settle();
    expect(a.begin({ qty: '6' }, () => 3)).toEqual({ key: 'key-3', body: 3 });
  });

  it('makes UUID keys by default', () => {
    expect(createAttempts().begin({}, () => null).key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('settles on an answer, not on a dropped connection or a server fault', () => {
    expect([200, 400, 404, 409].map(isDefinite)).toEqual([true, true, true, true]);
    expect([0, 500, 502, 503].map(isDefinite)).toEqual([false, false, false, false]);
  });
});
