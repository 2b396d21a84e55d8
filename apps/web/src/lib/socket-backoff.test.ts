import { describe, expect, it } from 'vitest';
import { createEventOrder, retryDelayMs } from './socket-backoff.ts';

describe('socket retry backoff', () => {
  it('starts at 1 s, doubles, and is capped at 32 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000, 32000]);
  });
});

describe('event ordering', () => {
  it('drops an event whose id is not newer than the last of its type', () => {
    const order = createEventOrder();
    expect(order.accept('attachedPrinters', 5)).toBe(true);
    expect(order.accept('attachedPrinters', 5)).toBe(false);
    expect(order.accept('attachedPrinters', 4)).toBe(false);
    expect(order.accept('attachedPrinters', 6)).toBe(true);
  });
  it('keeps a separate last id per event type', () => {
    const order = createEventOrder();
    expect(order.accept('a', 10)).toBe(true);
    expect(order.accept('b', 1)).toBe(true);
    expect(order.accept('a', 2)).toBe(false);
  });
  it('forgets on reset (a new connection)', () => {
    const order = createEventOrder();
    order.accept('a', 10);
    order.reset();
    expect(order.accept('a', 1)).toBe(true);
  });
});
