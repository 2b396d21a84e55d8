import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalesce.ts';

/** A call that ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

/** A coalescer over calls that answer `x:<input>`, holding every run until `release()`, and what it ran. */
function harness(limit: number, maxBatch = 8, fails: (input: string) => boolean = () => false) {
  const runs: string[][] = [];
  let current = gate();
  const answer = (input: string) => {
    if (fails(input)) throw new Error(`bad ${input}`);
    return `x:${input}`;
  };
  const c = new Coalescer<string, string>({
    limit,
    maxBatch,
    one: async (input) => {
      runs.push([input]);
      await current.opened;
      return answer(input);
    },
    many: async (inputs) => {
      runs.push(inputs);
      await current.opened;
      return inputs.map(answer);
    },
  });
  return {
    c,
    runs,
    release: async () => {
      current.open();
      current = gate();
      // Let the answers settle and the next runs start.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    },
  };
}

describe('Coalescer', () => {
  it('runs each call on its own while fewer than the limit run', async () => {
    const h = harness(3);
    const answers = Promise.all(['a', 'b', 'c'].map((v) => h.c.run('k', v)));
    expect(h.runs).toEqual([['a'], ['b'], ['c']]);
    expect(h.c.queued).toBe(0);
    await h.release();
    expect(await answers).toEqual(['x:a', 'x:b', 'x:c']);
  });

  it('sends the calls that waited for the same key together, each with its own answer, the oldest key first', async () => {
    const h = harness(1);
    const answers = Promise.all([h.c.run('k', 'a'), h.c.run('k', 'b'), h.c.run('other', 'c'), h.c.run('k', 'd'), h.c.run('other', 'e')]);
    expect(h.runs).toEqual([['a']]);
    expect(h.c.queued).toBe(4);
    await h.release();
    expect(h.runs).toEqual([['a'], ['b', 'd']]);
    await h.release();
    expect(h.runs).toEqual([['a'], ['b', 'd'], ['c', 'e']]);
    await h.release();
    expect(await answers).toEqual(['x:a', 'x:b', 'x:c', 'x:d', 'x:e']);
  });

  it('puts at most maxBatch calls in one batch', async () => {
    const h = harness(1, 2);
    const answers = Promise.all(['a', 'b', 'c', 'd', 'e'].map((v) => h.c.run('k', v)));
    for (let i = 0; i < 4; i++) await h.release();
    expect(h.runs).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    expect(await answers).toEqual(['x:a', 'x:b', 'x:c', 'x:d', 'x:e']);
  });

  it("runs a failed batch's calls again one by one: only the bad one fails", async () => {
    const h = harness(1, 8, (input) => input === 'bad');
    const first = h.c.run('k', 'a');
    const rest = ['b', 'bad', 'c'].map((v) => h.c.run('k', v).then(String, (e: Error) => e.message));
    await h.release();
    await h.release();
    await h.release();
    expect(await first).toBe('x:a');
    expect(await Promise.all(rest)).toEqual(['x:b', 'bad bad', 'x:c']);
    expect(h.runs).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('frees its place when a call fails, and runs what waits', async () => {
    const h = harness(1, 8, (input) => input === 'bad');
    const bad = h.c.run('k', 'bad').catch((e: Error) => e.message);
    const next = h.c.run('k', 'n');
    await h.release();
    await h.release();
    expect(await bad).toBe('bad bad');
    expect(await next).toBe('x:n');
  });
});
