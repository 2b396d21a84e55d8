import { describe, expect, it } from 'vitest';
import { createOneAtATime, formChanges, formDirty, weightNeededBy } from './one-at-a-time.ts';

const later = <T>(ms: number, value: T, log: string[], name: string) => () =>
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

describe('formDirty', () => {
  const saved = { weight: '', carrier: 'DHL', tracking: 'T1' };
  it('is dirty when a typed field differs from what the server has', () => {
    expect(formDirty({ ...saved, weight: '1.5' }, saved)).toBe(true);
    expect(formDirty({ ...saved, carrier: 'UPS' }, saved)).toBe(true);
  });
  it('is clean when the form holds what was saved, or blanks (a save never clears)', () => {
    expect(formDirty(saved, saved)).toBe(false);
    expect(formDirty({ weight: '1.50', carrier: ' DHL ', tracking: '' }, { ...saved, weight: '1.5' })).toBe(false);
  });
  it('sends the non-blank fields, trimmed', () => {
    expect(formChanges({ weight: ' 2 ', carrier: '', tracking: 'X' })).toEqual({ weight: '2', tracking: 'X' });
  });
});

describe('weightNeededBy', () => {
  const saved = { weight: '', carrier: '', tracking: '' };
  it('names the carrier when the package would ship without a weight above 0', () => {
    expect(weightNeededBy({ ...saved, carrier: 'DHL' }, saved)).toBe('DHL');
    expect(weightNeededBy(saved, { ...saved, carrier: 'UPS', weight: '0' })).toBe('UPS');
  });
  it('is satisfied by a weight typed or saved, and asks nothing without a carrier', () => {
    expect(weightNeededBy({ ...saved, weight: '1.5' }, { ...saved, carrier: 'DHL' })).toBeUndefined();
    expect(weightNeededBy({ ...saved, carrier: 'DHL' }, { ...saved, weight: '2' })).toBeUndefined();
    expect(weightNeededBy(saved, saved)).toBeUndefined();
  });
});
