import { describe, expect, it } from 'vitest';
import { APP_SETTINGS_DEFAULTS } from './site-admin.ts';
import {
  STOCK_RULE_MESSAGES,
  adjustRule,
  moveRule,
  readStockAdjustSettings,
  reasonProblem,
  ruleText,
  splitRule,
  wholeUnitsProblem,
} from './stock-rules.ts';

const plain = (have: bigint, uom = 'KG') => ({ have, serial: false, uom });
const serial = (have: bigint) => ({ have, serial: true, uom: 'EA' });

describe('stock rules (one copy, used by the server ledger and the web forms)', () => {
  it('adjusts by a delta or to an absolute quantity', () => {
    expect(adjustRule(plain(100_000n), 'delta', -30_000n)).toEqual({ ok: true, after: 70_000n });
    expect(adjustRule(plain(100_000n), 'absolute', 40_000n)).toEqual({ ok: true, after: 40_000n });
    expect(adjustRule(plain(100_000n), 'absolute', -1n)).toMatchObject({ ok: false, message: STOCK_RULE_MESSAGES.negative });
    expect(adjustRule(plain(100_000n), 'delta', 0n)).toMatchObject({ ok: false, message: STOCK_RULE_MESSAGES.unchanged });
    const over = adjustRule(plain(100_000n), 'delta', -110_000n);
    expect(over.ok || ruleText(over)).toBe('would leave -1: only 10 is on hand');
    expect(adjustRule(serial(10_000n), 'delta', 10_000n)).toMatchObject({ ok: false, message: STOCK_RULE_MESSAGES.serialZeroOrOne });
    expect(adjustRule(serial(10_000n), 'delta', -10_000n)).toEqual({ ok: true, after: 0n });
  });

  it('moves all or part, never more than on hand nor part of a serial-tracked unit', () => {
    expect(moveRule(plain(80_000n), undefined)).toEqual({ ok: true, qty: 80_000n, whole: true });
    expect(moveRule(plain(80_000n), 22_500n)).toEqual({ ok: true, qty: 22_500n, whole: false });
    expect(moveRule(plain(0n), undefined)).toMatchObject({ ok: false, message: STOCK_RULE_MESSAGES.nothingToMove });
    const over = moveRule(plain(100_000n), 110_000n);
    expect(over.ok || ruleText(over)).toBe('is more than the 10 on hand');
    expect(moveRule(plain(80_000n), 0n)).toMatchObject({ ok: false, message: STOCK_RULE_MESSAGES.notPositive });
    expect(moveRule(serial(10_000n), 5_000n)).toMatchObject({ ok: false, message: STOCK_RULE_MESSAGES.serialDivided });
    expect(moveRule(serial(10_000n), undefined)).toMatchObject({ ok: true, whole: true });
  });

  it('splits part off and leaves some behind', () => {
    expect(splitRule(plain(100_000n), 40_000n)).toEqual({ ok: true, remaining: 60_000n });
    const all = splitRule(plain(100_000n), 100_000n);
    expect(all.ok || ruleText(all)).toBe('must be less than the 10 on hand');
    expect(splitRule(serial(10_000n), 10_000n)).toMatchObject({ ok: false, message: STOCK_RULE_MESSAGES.serialDivided });
  });

  it('refuses a fraction of an item counted in whole units, on every change', () => {
    const each = plain(100_000n, 'ea');
    const problem = { ok: false, message: STOCK_RULE_MESSAGES.wholeUnits, values: { uom: 'EA' } };
    expect(wholeUnitsProblem('ea', 15_000n)).toEqual(problem);
    expect(adjustRule(each, 'delta', -5_000n)).toEqual(problem);
    expect(moveRule(each, 5_000n)).toEqual(problem);
    expect(splitRule(each, 2_500n)).toEqual(problem);
    expect(ruleText(problem)).toBe('must be a whole number: EA is counted in whole units');
  });

  it('reads the adjustment reasons from app settings, or the defaults', () => {
    expect(readStockAdjustSettings({ stockAdjust: { clearDstLoc: true, reasons: ['Scrap'] } }).reasons).toEqual(['Scrap']);
    expect(readStockAdjustSettings({ stockAdjust: { reasons: 'Scrap' } })).toEqual(APP_SETTINGS_DEFAULTS.stockAdjust);
    expect(readStockAdjustSettings({ stockAdjust: { clearDstLoc: false, reasons: ['Scrap'] } })).toEqual({
      clearDstLoc: false,
      reasons: ['Scrap'],
    });
    expect(readStockAdjustSettings(undefined)).toEqual(APP_SETTINGS_DEFAULTS.stockAdjust);
    expect(readStockAdjustSettings({ stockAdjust: { clearDstLoc: 'no' } })).toEqual(APP_SETTINGS_DEFAULTS.stockAdjust);
    expect(reasonProblem(['Found'], 'Found')).toBeUndefined();
    expect(reasonProblem(['Found', 'Lost'], 'Stolen')).toBe("The reason 'Stolen' is not one of the adjustment reasons: Found, Lost");
  });
});
