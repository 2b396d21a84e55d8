/*
 * The first row of each key of a large file, in a fraction of a Map's memory: a million location keys
 * in a Map<string, number> hold about 90 MB of strings and entries for the whole of an import; here
 * they are 64-bit hashes and row numbers in typed arrays (12 bytes a slot, at most half the slots
 * used: about 24 MB for a million keys, and no objects for the garbage collector to walk).
 *
 * Two keys with the same 64-bit hash are taken for one: with n keys the chance of any such pair is
 * about n² / 2^65 (3 in 100 million for a million keys), and its cost is a row refused as a repeat,
 * which changes nothing. The callers are import checks, where that is acceptable; nothing that
 * writes by key uses it.
 */

/** Two independent 32-bit FNV-1a style hashes of a string (different offsets and primes). */
function hash64(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Final mixing (murmur3's fmix32), so nearby keys spread over the table.
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  a = Math.imul(a, 0xc2b2ae35);
  a ^= a >>> 16;
  b ^= b >>> 16;
  b = Math.imul(b, 0x7feb352d);
  b ^= b >>> 15;
  return [a >>> 0, b >>> 0];
}

export class FirstRows {
  private hi: Uint32Array;
  private lo: Uint32Array;
  /** A slot's row, 0 when the slot is free (rows are 1-based: the header is row 1). */
  private rows: Int32Array;
  private used = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.rows = new Int32Array(size);
  }

  get size(): number {
    return this.used;
  }

  /** The row `key` was first seen in; when it is new, `row` is remembered for it and undefined returned. */
  firstOrAdd(key: string, row: number): number | undefined {
    if (row < 1) throw new RangeError('rows are counted from 1');
    const [h, l] = hash64(key);
    const mask = this.rows.length - 1;
    for (let i = (h ^ l) & mask; ; i = (i + 1) & mask) {
      const at = this.rows[i]!;
      if (at === 0) {
        this.hi[i] = h;
        this.lo[i] = l;
        this.rows[i] = row;
        if (++this.used * 2 > this.rows.length) this.grow();
        return undefined;
      }
      if (this.hi[i] === h && this.lo[i] === l) return at;
    }
  }

  private grow(): void {
    const { hi, lo, rows } = this;
    const size = rows.length * 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.rows = new Int32Array(size);
    const mask = size - 1;
    for (let j = 0; j < rows.length; j++) {
      if (rows[j] === 0) continue;
      let i = (hi[j]! ^ lo[j]!) & mask;
      while (this.rows[i] !== 0) i = (i + 1) & mask;
      this.hi[i] = hi[j]!;
      this.lo[i] = lo[j]!;
      this.rows[i] = rows[j]!;
    }
  }
}
