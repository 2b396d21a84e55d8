import { describe, expect, it } from 'vitest';
import { createOneAtATime, formChanges, formDirty, formProblems, shownForm, weightNeededBy, type PackageForm } from './one-at-a-time.ts';

const later =
  <T>(ms: number, value: T, log: string[], name: string) =>
  () =>
    new Promise<T>((ok) => {
      log.push(`start ${name}`);
      setTimeout(() => {
        log.push(`end ${name}`);
        ok(value);
      }, ms);
    });

describe('createOneAtATime', () => {
  it('runs a task only after the one before it has settled, in the order asked', async () => {
    const run = createOneAtATime();
    const log: string[] = [];
    const save = run(later(30, 'saved', log, 'save'));
    const ship = run(later(1, 'shipped', log, 'ship'));
    expect(await Promise.all([save, ship])).toEqual(['saved', 'shipped']);
    expect(log).toEqual(['start save', 'end save', 'start ship', 'end ship']);
  });

  it('goes on after a refused task, and hands the refusal to its caller', async () => {
    const run = createOneAtATime();
    const refused = run(() => Promise.reject(new Error('no weight')));
    const next = run(() => Promise.resolve(2));
    await expect(refused).rejects.toThrow('no weight');
    expect(await next).toBe(2);
  });
});

/** A form with only these fields filled (the decimal point the test's separator). */
const form = (fields: Partial<PackageForm> = {}): PackageForm => ({
  type: '',
  weight: '',
  length: '',
  width: '',
  height: '',
  carrier: '',
  service: '',
  tracking: '',
  ...fields,
});

describe('formDirty', () => {
  const saved = form({ type: 'box', carrier: 'DHL', tracking: 'T1', length: '40' });
  it('is dirty when a typed field differs from what the server has', () => {
    expect(formDirty({ ...saved, weight: '1.5' }, saved, '.')).toBe(true);
    expect(formDirty({ ...saved, carrier: 'UPS' }, saved, '.')).toBe(true);
    expect(formDirty({ ...saved, type: 'pallet' }, saved, '.')).toBe(true);
    expect(formDirty({ ...saved, service: 'Express' }, saved, '.')).toBe(true);
    expect(formDirty({ ...saved, width: '30' }, saved, '.')).toBe(true);
    expect(formDirty({ ...saved, length: '41' }, saved, '.')).toBe(true);
  });
  it('is clean when the form holds what was saved, or blanks (a save never clears)', () => {
    expect(formDirty(saved, saved, '.')).toBe(false);
    expect(formDirty({ ...saved, weight: '1.50', carrier: ' DHL ', tracking: '', length: '40.0' }, { ...saved, weight: '1.5' }, '.')).toBe(
      false,
    );
    expect(formDirty({ ...saved, weight: '1,5' }, { ...saved, weight: '1.5' }, ',')).toBe(false);
  });
  it('sends the non-blank fields, trimmed, measures as numbers (a decimal comma where the screen writes one)', () => {
    expect(formChanges(form({ weight: ' 2 ', tracking: 'X' }), '.')).toEqual({ weight: '2', tracking: 'X' });
    expect(formChanges(form({ type: 'crate', length: '40,5', width: '30', height: '020', service: ' Express ' }), ',')).toEqual({
      type: 'crate',
      length: '40.5',
      width: '30',
      height: '20',
      service: 'Express',
    });
  });
});

describe('shownForm', () => {
  it("shows the saved measures in the screen's separator, and a save reads them back unchanged", () => {
    const saved = form({ type: 'box', weight: '2.5', length: '40', carrier: 'DHL' });
    expect(shownForm(saved, ',')).toEqual({ ...saved, weight: '2,5' });
    expect(shownForm(saved, '.')).toEqual(saved);
    expect(formDirty(shownForm(saved, ','), saved, ',')).toBe(false);
  });
});

describe('formProblems', () => {
  it("says what is wrong by field, in the contract's rules: a number, at most 4 decimals, not below 0, texts not too long", () => {
    const problems = formProblems(
      form({
        weight: 'heavy',
        length: '-1',
        width: '1.23456',
        height: '12',
        carrier: 'C'.repeat(61),
        service: 'S'.repeat(60),
        tracking: 'T'.repeat(101),
      }),
      '.',
    );
    expect([...problems]).toEqual([
      ['weight', 'must be a number'],
      ['length', 'must not be negative'],
      ['width', 'must have at most 4 decimal places'],
      ['carrier', 'must be at most 60 characters'],
      ['tracking', 'must be at most 100 characters'],
    ]);
  });
  it('finds nothing wrong with blanks or good values', () => {
    expect(formProblems(form(), '.').size).toBe(0);
    expect(formProblems(form({ type: 'box', weight: '0', length: '40,5' }), ',').size).toBe(0);
  });
});

describe('weightNeededBy', () => {
  const saved = form();
  it('names the carrier when the package would ship without a weight above 0', () => {
    expect(weightNeededBy({ ...saved, carrier: 'DHL' }, saved, '.')).toBe('DHL');
    expect(weightNeededBy(saved, { ...saved, carrier: 'UPS', weight: '0' }, '.')).toBe('UPS');
  });
  it('is satisfied by a weight typed or saved, and asks nothing without a carrier', () => {
    expect(weightNeededBy({ ...saved, weight: '1.5' }, { ...saved, carrier: 'DHL' }, '.')).toBeUndefined();
    expect(weightNeededBy({ ...saved, weight: '1,5' }, { ...saved, carrier: 'DHL' }, ',')).toBeUndefined();
    expect(weightNeededBy({ ...saved, carrier: 'DHL' }, { ...saved, weight: '2' }, '.')).toBeUndefined();
    expect(weightNeededBy(saved, saved, '.')).toBeUndefined();
  });
});
