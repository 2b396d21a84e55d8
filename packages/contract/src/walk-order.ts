// The walk order of a pick: computed from the location codes, never a hand-kept sequence
// (docs/orders.md, Walk order). A code such as `A-01-2`, `B12-3` or `03.14.02` is read as aisle,
// bay and level: its runs of letters and of digits, each as a number (letters as base 26, A = 1,
// Z = 26, AA = 27), so `A-9` comes before `A-10`. The picker walks the aisles in order, up the first,
// down the second, up the third (serpentine), and within a bay from the lowest level up. Which
// way an aisle is walked is decided once for the whole walk: from the aisles the walk had when it
// began (`startAisles`, kept with the order), so neither picking an aisle, nor shorting a line, nor
// stock moving to another aisle turns the others round.

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

/** The aisles of a walk through these codes, ascending, once each (unreadable codes have none). */
export function walkAisles(codes: readonly string[]): number[] {
  const aisles = new Set<number>();
  for (const code of codes) {
    const key = walkKey(code);
    if (key) aisles.add(key.aisle);
  }
  return [...aisles].sort((a, b) => a - b);
}

/**
 * Which way each aisle is walked (true: down, bays descending). The start's aisles alternate up, down,
 * up; an aisle the walk did not have at its start (stock moved there since) goes the other way from the
 * start's aisle before it, so no aisle of the start changes its way.
 */
function aisleWays(startAisles: readonly number[], aisles: readonly number[]): Map<number, boolean> {
  const start = [...new Set(startAisles)].sort((a, b) => a - b);
  const down = new Map(start.map((aisle, i) => [aisle, i % 2 === 1]));
  for (const aisle of [...new Set(aisles)].sort((a, b) => a - b)) {
    if (down.has(aisle)) continue;
    const before = start.filter((a) => a < aisle).pop();
    down.set(aisle, before === undefined ? false : !down.get(before));
  }
  return down;
}

/**
 * `stops` in walk order by their location code: aisle ascending; bays ascending in the first aisle
 * visited, descending in the second, and so on (serpentine: the picker never walks back down an
 * aisle empty-handed); levels ascending; codes that cannot be read go last, in text order. Stable:
 * stops of one location keep their order. Returns a new array.
 *
 * `startAisles`: the aisles of the whole walk as it began (`walkAisles` of its stops then; an order
 * keeps them from its first pick list on). An aisle's way is the one it had at the start: the stops
 * left after aisle A is done still walk B down and C up. Without it, the stops' own aisles are the walk.
 */
export function walkOrder<T>(stops: readonly T[], codeOf: (stop: T) => string, startAisles?: readonly number[]): T[] {
  const keyed = stops.map((stop, index) => ({ stop, index, code: codeOf(stop), key: walkKey(codeOf(stop)) }));
  const own = keyed.flatMap((k) => (k.key ? [k.key.aisle] : []));
  const down = aisleWays(startAisles ?? own, own);
  return keyed
    .sort((a, b) => {
      if (!a.key || !b.key) {
        if (a.key) return -1;
        if (b.key) return 1;
        return a.code < b.code ? -1 : a.code > b.code ? 1 : a.index - b.index;
      }
      if (a.key.aisle !== b.key.aisle) return a.key.aisle - b.key.aisle;
      if (a.key.bay !== b.key.bay) return down.get(a.key.aisle) ? b.key.bay - a.key.bay : a.key.bay - b.key.bay;
      if (a.key.level !== b.key.level) return a.key.level - b.key.level;
      return compareLists(a.key.rest, b.key.rest) || a.index - b.index;
    })
    .map((k) => k.stop);
}
