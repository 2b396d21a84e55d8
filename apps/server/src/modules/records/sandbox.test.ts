import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityDef } from '@floorhand/contract/records/schema-model';
import { validateRecord, validateRecordAsync } from '@floorhand/contract/records/validate';
import { SANDBOX_RESTARTING, createScriptSandbox, type ScriptSandbox } from './sandbox.ts';

const CALC_FAILED = "Calulation script for 'Part' failed during execution";

function partWithCalc(calcScript: string): EntityDef {
  return {
    type: 'part',
    title: 'Part',
    idFieldName: '_id',
    calcScript,
    fields: [
      { name: 'qty', label: 'Qty', dataType: 'numeric' },
      { name: 'price', label: 'Price', dataType: 'numeric' },
      { name: 'total', label: 'Total', dataType: 'numeric' },
    ],
  };
}

function partWithCheck(custom: string): EntityDef {
  return {
    type: 'part',
    title: 'Part',
    idFieldName: '_id',
    fields: [{ name: 'qty', label: 'Qty', dataType: 'numeric', conditions: { custom } }],
  };
}

// `timed` has the default 50 ms budget; `sandbox` a roomy one, so a busy test machine cannot turn
// the other limits (or a normal script) into a time-out.
let timed: ScriptSandbox;
let sandbox: ScriptSandbox;

beforeAll(async () => {
  [timed, sandbox] = await Promise.all([createScriptSandbox(), createScriptSandbox({ timeLimitMs: 2000 })]);
});

/** Each hostile script must fail with the spec's message, and the sandbox must keep serving. */
async function expectCalcFailure(script: string, detail: RegExp, scripts = sandbox) {
  const started = performance.now();
  const result = await validateRecordAsync(partWithCalc(script), { qty: 2, price: 3 }, { scripts });
  const elapsedMs = performance.now() - started;
  expect(result.ok).toBe(false);
  expect(result.errors._record).toEqual([CALC_FAILED]);
  expect(result.detail).toMatch(detail);
  expect(scripts.runCheck('return value === 1', 1, {})).toEqual({ ok: true, pass: true });
  return elapsedMs;
}

async function expectCheckError(script: string, detail: RegExp, scripts = sandbox) {
  const result = await validateRecordAsync(partWithCheck(script), { qty: 1 }, { scripts });
  expect(result.errors.qty).toHaveLength(1);
  expect(result.errors.qty?.[0]).toMatch(/^Validation script for data field 'Qty' failed during execution: /);
  expect(result.errors.qty?.[0]).toMatch(detail);
  expect(scripts.runCalc('record.ok = true', {})).toEqual({ ok: true, record: { ok: true } });
}

describe('script sandbox', () => {
  it('runs a calculation that mutates the record', async () => {
    const result = await validateRecordAsync(
      partWithCalc('record.total = record.qty * record.price'),
      { qty: '2', price: 3 },
      { scripts: sandbox },
    );
    expect(result).toEqual({ ok: true, value: { qty: 2, price: 3, total: 6 }, errors: {} });
  });

  it('runs a calculation that returns a new record, synchronously too', () => {
    const result = validateRecord(partWithCalc('return { ...record, total: 10 }'), { qty: 1 }, { scripts: sandbox });
    expect(result).toEqual({ ok: true, value: { qty: 1, total: 10 }, errors: {} });
  });

  it('runs checks that pass and fail', async () => {
    const entity = partWithCheck('return Number.isInteger(value) && value > 0 && record.qty === value');
    expect((await validateRecordAsync(entity, { qty: 3 }, { scripts: sandbox })).errors).toEqual({});
    expect((await validateRecordAsync(entity, { qty: -3 }, { scripts: sandbox })).errors).toEqual({
      qty: ["Validation for data field 'Qty' failed to pass"],
    });
  });

  it('passes a missing value as undefined', () => {
    expect(sandbox.runCheck('return value === undefined && record.other === 1', undefined, { other: 1 })).toEqual({ ok: true, pass: true });
  });

  it('stops an endless loop within 100 ms', async () => {
    await expectCalcFailure('while (true) {}', /time limit of 50 ms/, timed);
    // Best of three, so a busy test machine does not decide the result.
    const times = [1, 2, 3].map(() => {
      const started = performance.now();
      expect(timed.runCalc('while (true) {}', {}).ok).toBe(false);
      return performance.now() - started;
    });
    expect(Math.min(...times)).toBeLessThan(100);
    await expectCheckError('for (;;) {}', /time limit of 50 ms/, timed);
    await expectCheckError('for (;;) { try { while (true) {} } catch {} finally { continue } }', /time limit of 50 ms/, timed);
  });

  it('ends, late, a script that works hard between interrupt checks (known limit)', async () => {
    // QuickJS polls the interrupt handler every ~10,000 steps; slow built-ins or costly stack
    // overflow errors in between stretch the 50 ms budget to seconds, but the script still ends.
    // 'x'.repeat(1e5) instead stalls ~2 s, and recursion caught at every level ~1.5 s (measured).
    expect(await expectCalcFailure("for (;;) 'x'.repeat(2e4)", /time limit of 50 ms/, timed)).toBeLessThan(15_000);
  });

  it('stops a huge allocation with a memory error, without growing the process', async () => {
    const elapsedMs = await expectCalcFailure("let a = []; while (true) a.push('x'.repeat(1e6))", /memory limit of 16 MB/);
    // Quick on a quiet machine (~0.3 s); the bound only says it was not left to spin (2 s was seen exceeded at load 24).
    expect(elapsedMs).toBeLessThan(10_000);
    await expectCheckError('const a = []; for (;;) a.push(new Array(1e5).fill(1))', /memory limit of 16 MB/);
  });

  it('stops runaway recursion', async () => {
    await expectCalcFailure('const f = () => f(); f()', /stack limit/);
    await expectCalcFailure('let o = {}; for (let i = 0; i < 20000; i++) o = { o }; return o', /stack limit/);
  });

  it.each([
    ['process', 'return process.exit(1)'],
    ['require', "return require('fs')"],
    ['fetch', "return fetch('http://example.com')"],
    ['setTimeout', 'return setTimeout(() => 1, 1)'],
    ['console', "console.log('x')"],
  ])('has no %s', async (name, script) => {
    await expectCalcFailure(script, new RegExp(`ReferenceError: '?${name}'? is not defined`));
    await expectCheckError(script, /ReferenceError/);
  });

  it('cannot import modules or run promise jobs', async () => {
    await expectCalcFailure("return import('fs')", /must return an object/);
    const escaped = sandbox.runCalc('Promise.resolve().then(() => { record.late = true })', { a: 1 });
    expect(escaped).toEqual({ ok: true, record: { a: 1 } });
  });

  it('reports syntax errors, thrown values and wrong results', async () => {
    await expectCalcFailure('return record.qty *', /SyntaxError/);
    await expectCalcFailure("throw new Error('no price')", /^Error: no price$/);
    await expectCalcFailure("throw 'plain'", /^script threw "plain"$/);
    await expectCalcFailure('return [1, 2]', /must return an object/);
    await expectCheckError('return 1', /must return true or false, not number/);
    await expectCheckError('return (', /SyntaxError/);
  });

  it('cannot break the wrapper by replacing built-ins', async () => {
    const sabotage =
      'String.prototype.slice = null; JSON.stringify = JSON.parse = Reflect.apply = String = Error = Function = () => { throw 1 };';
    await expectCalcFailure(`${sabotage} throw new TypeError('after sabotage')`, /^TypeError: after sabotage$/);
    expect(sandbox.runCalc(`${sabotage} record.total = 1`, {})).toEqual({ ok: true, record: { total: 1 } });
  });

  it('gives scripts copies, not the host objects', () => {
    const record = { nested: { n: 1 } };
    expect(sandbox.runCalc('record.nested.n = 2; record.added = true', record)).toEqual({
      ok: true,
      record: { nested: { n: 2 }, added: true },
    });
    expect(record).toEqual({ nested: { n: 1 } });
    expect(
      sandbox.runCheck('return typeof globalThis.__input === "undefined" && typeof globalThis.__script === "undefined"', 1, {}),
    ).toEqual({ ok: true, pass: true });
  });

  it('keeps serving after many failures in a row', () => {
    for (let i = 0; i < 20; i++) expect(timed.runCalc(i % 2 ? 'while (true) {}' : "throw new Error('x')", {}).ok).toBe(false);
    expect(timed.runCalc('record.n = 1', {})).toEqual({ ok: true, record: { n: 1 } });
  });

  it('restarts its module after a host-side failure', async () => {
    // A stack this large lets deep recursion overflow the host's own stack: the failure the
    // restart exists for.
    const fragile = await createScriptSandbox({ maxStackBytes: 1024 * 1024, timeLimitMs: 5000 });
    const crashed = fragile.runCalc('let o = {}; for (let i = 0; i < 200000; i++) o = { o }; return o', {});
    expect(crashed).toMatchObject({ ok: false, error: expect.stringMatching(/^the script sandbox failed: /) });
    expect(fragile.runCalc('record.n = 1', {})).toEqual({ ok: false, error: SANDBOX_RESTARTING });
    await fragile.ready();
    expect(fragile.runCalc('record.n = 1', {})).toEqual({ ok: true, record: { n: 1 } });
  });
});
