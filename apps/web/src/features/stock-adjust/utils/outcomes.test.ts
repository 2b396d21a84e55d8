import { describe, expect, it } from 'vitest';
import { readPrefs } from '../../../lib/prefs.ts';
import { STOCK_ADJUST_PREFS } from '../hooks/use-stock-adjust-prefs.ts';
import { adjustOutcome, moveOutcome, splitOutcome } from './outcomes.ts';

describe('stock adjust preferences', () => {
  it('default to delta adjustments, no reason and no labels', () => {
    expect(readPrefs(STOCK_ADJUST_PREFS, {})).toEqual({
      deltaType: 'delta',
      adjustType: 'adjust',
      reason: null,
      printOnAdjust: false,
      printOnMove: false,
      printOnSplit: false,
    });
    expect(readPrefs(STOCK_ADJUST_PREFS, { reason: 'Found' }).reason).toBe('Found');
    expect(readPrefs(STOCK_ADJUST_PREFS, { deltaType: 'absolute', adjustType: 'move', printOnMove: true })).toMatchObject({
      deltaType: 'absolute',
      adjustType: 'move',
      printOnMove: true,
    });
    expect(readPrefs(STOCK_ADJUST_PREFS, { deltaType: 'relative' }).deltaType).toBe('delta');
  });
});

describe('adjustOutcome', () => {
  it('adds and removes as a signed delta, sets as the new quantity', () => {
    expect(adjustOutcome(10, 'add', '2.5', false)).toEqual({ ok: true, qty: '2.5', after: 12.5 });
    expect(adjustOutcome(10, 'remove', '3', false)).toEqual({ ok: true, qty: '-3', after: 7 });
    expect(adjustOutcome(10, 'set', '4', false)).toEqual({ ok: true, qty: '4', after: 4 });
    expect(adjustOutcome(0.3, 'remove', '0.1', false)).toEqual({ ok: true, qty: '-0.1', after: 0.2 });
  });

  it('refuses what the server would refuse', () => {
    expect(adjustOutcome(10, 'add', '', false)).toMatchObject({ ok: false, message: 'must be provided' });
    expect(adjustOutcome(10, 'add', '-2', false)).toMatchObject({ ok: false, message: 'must not be negative' });
    expect(adjustOutcome(10, 'set', '10', false)).toMatchObject({ ok: false, message: 'leaves the quantity unchanged' });
    expect(adjustOutcome(10, 'remove', '11', false)).toMatchObject({ ok: false, values: { have: '10' } });
    expect(adjustOutcome(1, 'add', '1', true)).toMatchObject({ ok: false, message: 'must leave a serial-tracked unit at 0 or 1' });
    expect(adjustOutcome(1, 'remove', '1', true)).toEqual({ ok: true, qty: '-1', after: 0 });
  });
});

describe('moveOutcome', () => {
  it('moves the whole record when no quantity is given, or all of it is', () => {
    expect(moveOutcome(8, ' ', false)).toEqual({ ok: true, moved: 8, left: 0, whole: true });
    expect(moveOutcome(8, '8', false)).toEqual({ ok: true, qty: '8', moved: 8, left: 0, whole: true });
  });

  it('moves part of it', () => {
    expect(moveOutcome(8, '2.25', false)).toEqual({ ok: true, qty: '2.25', moved: 2.25, left: 5.75, whole: false });
  });

  it('refuses nothing to move, too much, and a divided serial', () => {
    expect(moveOutcome(0, '', false)).toMatchObject({ ok: false, message: 'has no quantity to move' });
    expect(moveOutcome(8, '9', false)).toMatchObject({ ok: false });
    expect(moveOutcome(8, '0', false)).toMatchObject({ ok: false, message: 'must be greater than 0' });
    expect(moveOutcome(1, '0.5', true)).toMatchObject({ ok: false, message: 'cannot divide a serial-tracked unit' });
  });
});

describe('splitOutcome', () => {
  it('leaves part behind', () => {
    expect(splitOutcome(10, '4', false)).toEqual({ ok: true, qty: '4', remaining: 6 });
  });

  it('refuses all of it, nothing, and serial-tracked units', () => {
    expect(splitOutcome(10, '10', false)).toMatchObject({ ok: false, values: { have: '10' } });
    expect(splitOutcome(10, '0', false)).toMatchObject({ ok: false });
    expect(splitOutcome(1, '1', true)).toMatchObject({ ok: false, message: 'cannot divide a serial-tracked unit' });
  });
});

describe('whole units only', () => {
  const whole = { ok: false, message: 'must be a whole number: {{uom}} is counted in whole units', values: { uom: 'EA' } };
  it('refuses a fraction of an each before it is sent, and allows it for a kilogram', () => {
    expect(adjustOutcome(10, 'add', '1.5', false, 'EA')).toEqual(whole);
    expect(adjustOutcome(10, 'set', '2,5', false, 'ea')).toMatchObject({ ok: false });
    expect(adjustOutcome(10, 'add', '2', false, 'EA')).toEqual({ ok: true, qty: '2', after: 12 });
    expect(adjustOutcome(10, 'add', '1.5', false, 'KG')).toEqual({ ok: true, qty: '1.5', after: 11.5 });
    expect(moveOutcome(10, '0.5', false, 'EA')).toEqual(whole);
    expect(moveOutcome(10, '', false, 'EA')).toMatchObject({ ok: true, whole: true });
    expect(splitOutcome(10, '2.5', false, 'EA')).toEqual(whole);
    expect(splitOutcome(10, '2.5', false, 'M')).toMatchObject({ ok: true, remaining: 7.5 });
  });
});
