// The walk order of a pick: computed from the location codes, never a hand-kept sequence
// (docs/orders.md, Walk order). A code such as `A-01-2`, `B12-3` or `03.14.02` is read as aisle,
// bay and level: its runs of letters and of digits, each as a number (letters as base 26, A = 1,
// Z = 26, AA = 27), so `A-9` comes before `A-10`. The picker walks the aisles in order, up the first,
// down the second, up the third (serpentine), and within a bay from the lowest level up. Which
// way an aisle is walked is decided once for the whole walk: from the aisles of every stop of it,
// done or not (`walkedCodes`), so picking the first aisle does not turn the others round.

/** A location code's parts as numbers; `undefined` when the code has no aisle, bay and level to read. */
export interface WalkKey {
  aisle: number;
  bay: number;
  level: number;
  /** Parts beyond the level (a position in the bin), compared last. */
  rest: number[];
}

const letterValue = (run: string): number => [...run.toUpperCase()].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 64), 0);

/** The runs of letters and digits of a code, as numbers, in order. */
export function codeParts(code: string): number[] {
  const runs = code.match(/[A-Za-z]+|\d+/g) ?? [];
  return runs.map((run) => (/^\d+$/.test(run) ? Number.parseInt(run, 10) : letterValue(run)));
}

/** Aisle, bay and level of a location code; a code of one part is an aisle of its own with bay and level 0. */
export function walkKey(code: string): WalkKey | undefined {
  const parts = codeParts(code);
  if (parts.length === 0 || parts.some((p) => !Number.isSafeInteger(p))) return undefined;
  const [aisle = 0, bay = 0, level = 0, ...rest] = parts;
  return { aisle, bay, level, rest };
}

const compareLists = (a: readonly number[], b: readonly number[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
};

/**
 * `stops` in walk order by their location code: aisle ascending; bays ascending in the first aisle
 * visited, descending in the second, and so on (serpentine: the picker never walks back down an
 * aisle empty-handed); levels ascending; codes that cannot be read go last, in text order. Stable:
 * stops of one location keep their order. Returns a new array.
 *
 * `walkedCodes`: the codes of the whole walk, the stops done already too (an order's picked lines).
 * Their aisles with the stops' own number the aisles, so an aisle's direction is the one it had at
 * the start of the walk: the stops left after aisle A is done still walk B down and C up.
 */
export function walkOrder<T>(stops: readonly T[], codeOf: (stop: T) => string, walkedCodes: readonly string[] = []): T[] {
  const keyed = stops.map((stop, index) => ({ stop, index, code: codeOf(stop), key: walkKey(codeOf(stop)) }));
  const walked = walkedCodes.flatMap((code) => {
    const key = walkKey(code);
    return key ? [key.aisle] : [];
  });
  const aisles = [...new Set([...walked, ...keyed.flatMap((k) => (k.key ? [k.key.aisle] : []))])].sort((a, b) => a - b);
  const rank = new Map(aisles.map((aisle, i) => [aisle, i]));
  return keyed
    .sort((a, b) => {
      if (!a.key || !b.key) {
        if (a.key) return -1;
        if (b.key) return 1;
        return a.code < b.code ? -1 : a.code > b.code ? 1 : a.index - b.index;
      }
      if (a.key.aisle !== b.key.aisle) return a.key.aisle - b.key.aisle;
      const down = (rank.get(a.key.aisle) ?? 0) % 2 === 1;
      if (a.key.bay !== b.key.bay) return down ? b.key.bay - a.key.bay : a.key.bay - b.key.bay;
      if (a.key.level !== b.key.level) return a.key.level - b.key.level;
      return compareLists(a.key.rest, b.key.rest) || a.index - b.index;
    })
    .map((k) => k.stop);
}
