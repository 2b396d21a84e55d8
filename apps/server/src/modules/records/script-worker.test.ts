import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerSandbox, type WorkerSandbox } from './script-worker.ts';

// The hard limit is what the worker adds: a QuickJS time limit far away (10 s) and a hard limit of
// 3 s tell which of the two stopped a script. (300 ms, then 1.5 s, were too tight on a shared two-core
// machine: a fresh worker's first run alone took that long under load.)
const HARD_MS = 3000;
let scripts: WorkerSandbox;
beforeAll(async () => {
  scripts = createWorkerSandbox({ timeLimitMs: 10_000, hardLimitMs: HARD_MS });
  await scripts.ready();
});
afterAll(() => scripts?.close());

describe('script sandbox in a worker thread', () => {
  it('runs calculation and check scripts off the request thread', async () => {
    expect(await scripts.runCalc('record.total = record.qty * record.price', { qty: 2, price: 3 })).toEqual({
      ok: true,
      record: { qty: 2, price: 3, total: 6 },
    });
    expect(await scripts.runCheck('return value > 0 && record.other === 1', 5, { other: 1 })).toEqual({ ok: true, pass: true });
    expect(await scripts.runCheck('return 1', 5, {})).toMatchObject({
      ok: false,
      error: expect.stringContaining('must return true or false'),
    });
  });

  it('ends a run past the hard limit with its worker, answers the time-limit message, and serves the next run', async () => {
    const before = scripts.restarts();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = Date.now();
    const outcome = await scripts.runCalc('for (;;) {}', {});
    const took = Date.now() - started;
    clearInterval(ticker);
    expect(outcome).toEqual({ ok: false, error: 'script exceeded its time limit of 10000 ms' });
    expect(took).toBeGreaterThanOrEqual(HARD_MS - 10);
    expect(took).toBeLessThan(HARD_MS + 5000);
    expect(scripts.restarts()).toBe(before + 1);
    // The request thread kept running while the script spun.
    expect(ticks).toBeGreaterThan(5);
    expect(await scripts.runCalc('record.after = true', {})).toEqual({ ok: true, record: { after: true } });
  });

  it('runs queued scripts one at a time, each with its own hard limit', async () => {
    const answers = await Promise.all([
      scripts.runCalc('for (;;) {}', {}),
      scripts.runCheck('return true', 1, {}),
      scripts.runCalc('record.n = 1', {}),
    ]);
    expect(answers[0]).toMatchObject({ ok: false });
    expect(answers.slice(1)).toEqual([
      { ok: true, pass: true },
      { ok: true, record: { n: 1 } },
    ]);
  });

  it('refuses runs once closed', async () => {
    const closing = createWorkerSandbox();
    await closing.ready();
    await closing.close();
    expect(await closing.runCheck('return true', 1, {})).toEqual({ ok: false, error: 'the script sandbox is closed' });
  });
});
