import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pref, readPrefs, schedulePrefsSave } from './prefs.ts';

const savePrefs = vi.hoisted(() => vi.fn(() => Promise.resolve()));
vi.mock('./session.ts', () => ({ savePrefs }));

const SPEC = {
  filterWarehouse: pref.text(),
  showZeroQty: pref.bool(false),
  zeroQtyMonths: pref.int(1, 0, 1200),
  sort: pref.oneOf(['location', 'quantity'] as const, 'location'),
};

describe('readPrefs', () => {
  it('gives every default when nothing is stored', () => {
    expect(readPrefs(SPEC, undefined)).toEqual({ filterWarehouse: null, showZeroQty: false, zeroQtyMonths: 1, sort: 'location' });
    expect(readPrefs(SPEC, 'garbage')).toEqual(readPrefs(SPEC, {}));
  });

  it('keeps stored values of the right kind and drops unknown keys', () => {
    expect(readPrefs(SPEC, { filterWarehouse: 'MAIN', showZeroQty: true, zeroQtyMonths: 6, sort: 'quantity', other: 1 })).toEqual({
      filterWarehouse: 'MAIN',
      showZeroQty: true,
      zeroQtyMonths: 6,
      sort: 'quantity',
    });
  });

  it('falls back per value when one is broken', () => {
    expect(readPrefs(SPEC, { filterWarehouse: 3, showZeroQty: 'yes', zeroQtyMonths: 2.5, sort: 'colour' })).toEqual(readPrefs(SPEC, {}));
    expect(readPrefs(SPEC, { zeroQtyMonths: -1 }).zeroQtyMonths).toBe(1);
    expect(readPrefs(SPEC, { zeroQtyMonths: 1201 }).zeroQtyMonths).toBe(1);
    expect(readPrefs(SPEC, { zeroQtyMonths: 0 }).zeroQtyMonths).toBe(0);
  });

  it('keeps an explicit null of a text preference ("all")', () => {
    expect(readPrefs({ w: pref.text('MAIN') }, { w: null }).w).toBeNull();
    expect(readPrefs({ w: pref.text('MAIN') }, {}).w).toBe('MAIN');
  });
});

describe('schedulePrefsSave', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    savePrefs.mockClear();
  });

  it('sends a burst of changes once, after the last', () => {
    schedulePrefsSave(800);
    vi.advanceTimersByTime(500);
    schedulePrefsSave(800);
    vi.advanceTimersByTime(500);
    expect(savePrefs).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(savePrefs).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });

  it('sends a save still waiting at once, as a keepalive request, when the page goes away', () => {
    schedulePrefsSave(800);
    window.dispatchEvent(new Event('pagehide'));
    expect(savePrefs).toHaveBeenCalledTimes(1);
    expect(savePrefs).toHaveBeenCalledWith({ keepalive: true });
    // Nothing is sent twice: the timer is gone, and a page hidden with nothing waiting sends nothing.
    vi.advanceTimersByTime(1000);
    window.dispatchEvent(new Event('pagehide'));
    expect(savePrefs).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});
