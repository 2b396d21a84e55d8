import { describe, expect, it } from 'vitest';
import { codeParts, walkAisles, walkKey, walkOrder } from './walk-order.ts';

describe('walkKey', () => {
  it('reads aisle, bay and level as numbers', () => {
    expect(walkKey('A-01-2')).toEqual({ aisle: 1, bay: 1, level: 2, rest: [] });
    expect(walkKey('B12-3')).toEqual({ aisle: 2, bay: 12, level: 3, rest: [] });
    expect(walkKey('03.14.02.1')).toEqual({ aisle: 3, bay: 14, level: 2, rest: [1] });
    expect(walkKey('AA-1')).toEqual({ aisle: 27, bay: 1, level: 0, rest: [] });
  });
  it('compares numbers, not text: bay 9 before bay 10', () => {
    expect(codeParts('A-9')[1]).toBeLessThan(codeParts('A-10')[1]!);
  });
  it('leaves codes without letters or digits unread', () => {
    expect(walkKey('---')).toBeUndefined();
    expect(walkKey('9'.repeat(40))).toBeUndefined();
  });
});

describe('walkOrder', () => {
  const codes = (list: string[]) => walkOrder(list, (c) => c);
  it('walks aisles in order, serpentine: up the first aisle, down the second, up the third', () => {
    expect(codes(['B-01-1', 'A-10-1', 'C-02-1', 'A-02-1', 'B-05-1', 'C-01-1', 'A-9-1'])).toEqual([
      'A-02-1',
      'A-9-1',
      'A-10-1',
      'B-05-1',
      'B-01-1',
      'C-01-1',
      'C-02-1',
    ]);
  });
  it('serpentines by the aisles visited, not by the aisle number', () => {
    // Aisles 1 and 3 only: the second visited (3) is walked down.
    expect(codes(['C-01-1', 'A-01-1', 'C-05-1'])).toEqual(['A-01-1', 'C-05-1', 'C-01-1']);
  });
  it("keeps each aisle's direction once the first aisle is done: the walk's aisles decide it, not the stops left", () => {
    const all = ['A-01-1', 'A-05-1', 'B-01-1', 'B-05-1', 'C-01-1', 'C-05-1'];
    expect(codes(all)).toEqual(['A-01-1', 'A-05-1', 'B-05-1', 'B-01-1', 'C-01-1', 'C-05-1']);
    const start = walkAisles(all);
    expect(start).toEqual([1, 2, 3]);
    // Aisle A picked: B is still walked down and C up.
    expect(walkOrder(['C-05-1', 'B-01-1', 'C-01-1', 'B-05-1'], (c) => c, start)).toEqual(['B-05-1', 'B-01-1', 'C-01-1', 'C-05-1']);
    // Unreadable codes of the walk change nothing.
    expect(walkAisles(['A-01-1', '--'])).toEqual([1]);
    expect(walkOrder(['B-01-1', 'B-05-1'], (c) => c, walkAisles(['A-01-1', '--']))).toEqual(['B-05-1', 'B-01-1']);
  });
  it("keeps the start's ways when an aisle drops out (a line shorted with nothing picked) or a new one comes in (stock moved)", () => {
    const start = walkAisles(['A-01-1', 'B-01-1', 'C-01-1', 'E-01-1']);
    // B's line was shorted before anything was picked: C still up, E still down.
    expect(walkOrder(['E-01-1', 'C-05-1', 'E-05-1', 'C-01-1'], (c) => c, start)).toEqual(['C-01-1', 'C-05-1', 'E-05-1', 'E-01-1']);
    // The stock of C's line moved to D: D goes the other way from C (up, so down), E keeps down.
    expect(walkOrder(['E-01-1', 'D-01-1', 'D-05-1', 'E-05-1'], (c) => c, start)).toEqual(['D-05-1', 'D-01-1', 'E-05-1', 'E-01-1']);
    // An aisle before the start's first goes up.
    expect(walkOrder(['A-05-1', 'B-05-1', 'B-01-1'], (c) => c, walkAisles(['B-01-1', 'C-01-1']))).toEqual(['A-05-1', 'B-01-1', 'B-05-1']);
  });
  it('takes levels from the bottom up within a bay, whichever way the aisle is walked', () => {
    expect(codes(['B-02-3', 'A-01-1', 'B-02-1', 'B-01-2'])).toEqual(['A-01-1', 'B-02-1', 'B-02-3', 'B-01-2']);
  });
  it('puts unreadable codes last in text order, and keeps stops of one location in their order', () => {
    const stops = [
      { id: 1, code: '--' },
      { id: 2, code: 'A-01-1' },
      { id: 3, code: '#' },
      { id: 4, code: 'A-01-1' },
    ];
    expect(walkOrder(stops, (s) => s.code).map((s) => s.id)).toEqual([2, 4, 3, 1]);
  });
  it('does not change its input', () => {
    const input = ['B-1', 'A-1'];
    walkOrder(input, (c) => c);
    expect(input).toEqual(['B-1', 'A-1']);
  });
});
