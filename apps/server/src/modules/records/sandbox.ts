/*
 * Sandbox for calculation and custom validation scripts (spec section 5): the contract's synchronous
 * ScriptRunner on QuickJS (quickjs-emscripten, release-sync variant). One WebAssembly module per
 * sandbox, loaded once; every script run gets a fresh runtime and context, disposed afterwards.
 *
 * Script contract:
 * - A calc script is a function body run as `function (record) { <script> }`. It either changes
 *   `record` and returns nothing, or returns the new record; the result must be a plain object.
 * - A check script is a function body run as `function (value, record) { <script> }` and must
 *   return true (pass) or false (fail); any other result is a script error.
 * - Scripts see JSON copies of their inputs only (properties holding undefined vanish, a missing
 *   value stays undefined) and their result crosses back as JSON. The global scope holds only the
 *   standard built-ins: no process, require, fetch, console, timers or host objects; import()
 *   has no module loader; promise jobs never run.
 *
 * Limits of each run:
 * - Time: an interrupt handler stops the script after timeLimitMs (default 50). QuickJS asks the
 *   handler only every ~10,000 interpreter steps, so plain loops stop on time, but a loop around a
 *   slow built-in (e.g. 'x'.repeat(1e5)), or recursion that catches every stack overflow, runs for
 *   one to two seconds before it is stopped (measured). The server runs the sandbox in a worker
 *   thread (script-worker.ts) that is terminated at a hard limit, which bounds that too.
 * - Memory: in the WebAssembly build runtime.setMemoryLimit bounds single allocations only
 *   (quickjs-emscripten issues #255 and #271), so it is set to memoryLimitBytes (default 16 MB) AND
 *   the module runs in a fixed-size WebAssembly.Memory of 16 MB base + memoryLimitBytes: a script
 *   can never grow the process beyond that, and running out is a clean "out of memory" error.
 * - Stack: maxStackBytes (default 64 KB). The WebAssembly frames also use the host's native stack,
 *   about six times what QuickJS counts, so a larger value lets deep recursion overflow the host
 *   stack before QuickJS notices (128 KB already does, via JSON.stringify of a deep object).
 * If the host side fails anyway (a WebAssembly trap), that module is dropped without disposal and a
 * new one loads in the background; until it is ready, runs fail with SANDBOX_RESTARTING.
 */
import {
  RELEASE_SYNC,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';
import type { CalcOutcome, CheckOutcome, ScriptRunner } from '@floorhand/contract/records/validate';

export interface SandboxOptions {
  timeLimitMs?: number;
  memoryLimitBytes?: number;
  /** Keep at 64 KB or below unless measured: larger values risk overflowing the host stack. */
  maxStackBytes?: number;
}

export interface ScriptSandbox extends ScriptRunner {
  /** Resolves once a module is loaded (after creation or a restart). */
  ready(): Promise<void>;
}

// The server compiles without DOM or WebAssembly typings; this is the one constructor used.
declare const WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => object };

const MB = 1024 * 1024;
const WASM_PAGE_BYTES = 65_536;
/** The release build's own initial memory: code data, C stack and the first heap. */
const BASE_MEMORY_BYTES = 16 * MB;
const MAX_ERROR_LENGTH = 500;

export const SANDBOX_DEFAULTS = { timeLimitMs: 50, memoryLimitBytes: 16 * MB, maxStackBytes: 64 * 1024 } as const;
export const SANDBOX_RESTARTING = 'the script sandbox is restarting after a failure';

// The wrapper reads its inputs from two globals and removes them before the script runs. It keeps
// the built-ins it needs before the script can replace them, and turns whatever the script throws
// into text: so only engine errors (time, memory, stack) escape it, and nothing the script defined
// runs on the host side.
const wrap = (body: string) => `(() => {
  const source = globalThis.__script, input = globalThis.__input;
  delete globalThis.__script;
  delete globalThis.__input;
  const { parse, stringify } = JSON, { apply } = Reflect, slice = String.prototype.slice;
  const BaseError = Error, toText = String, makeFunction = Function;
  try {
    ${body}
  } catch (error) {
    let text;
    try {
      text = error instanceof BaseError ? toText(error.name) + ': ' + toText(error.message) : 'script threw ' + stringify(error);
    } catch {
      text = 'script threw an unreadable value';
    }
    return stringify({ error: apply(slice, toText(text), [0, ${MAX_ERROR_LENGTH}]) });
  }
})()`;

const CALC_PROGRAM = wrap(`
    const record = parse(input);
    const result = makeFunction('record', source)(record);
    const out = result === undefined ? record : result;
    const proto = out !== null && typeof out === 'object' ? Object.getPrototypeOf(out) : undefined;
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError('calculation script must return an object, or change record and return nothing');
    }
    return stringify({ record: out });`);

const CHECK_PROGRAM = wrap(`
    const { value, record } = parse(input);
    const pass = makeFunction('value', 'record', source)(value, record);
    if (typeof pass !== 'boolean') {
      throw new TypeError('validation script must return true or false, not ' + (pass === null ? 'null' : typeof pass));
    }
    return stringify({ pass });`);

type Run = { ok: true; result: Record<string, unknown> } | { ok: false; error: string };

interface Limits {
  timeLimitMs: number;
  memoryLimitBytes: number;
  maxStackBytes: number;
}

function loadModule(limits: Limits): Promise<QuickJSWASMModule> {
  const pages = (bytes: number) => Math.ceil(bytes / WASM_PAGE_BYTES);
  const wasmMemory = new WebAssembly.Memory({
    initial: pages(BASE_MEMORY_BYTES),
    maximum: pages(BASE_MEMORY_BYTES + limits.memoryLimitBytes),
  });
  return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory }));
}

export async function createScriptSandbox(options: SandboxOptions = {}): Promise<ScriptSandbox> {
  const limits: Limits = { ...SANDBOX_DEFAULTS, ...options };
  let module: QuickJSWASMModule | undefined;
  let loading: Promise<void> = Promise.resolve();

  const load = () => {
    loading = loadModule(limits).then((loaded) => {
      // The first run compiles much of the WebAssembly code; keep that out of a script's budget.
      execute(loaded, CHECK_PROGRAM, 'return true', '{}', { ...limits, timeLimitMs: 5000 });
      module = loaded;
    });
    return loading;
  };

  const runProgram = (program: string, script: string, input: () => string): Run => {
    const current = module;
    if (!current) return { ok: false, error: SANDBOX_RESTARTING };
    let text: string;
    try {
      text = input();
    } catch (error) {
      return { ok: false, error: `the script input cannot be passed as JSON: ${errorText(error)}` };
    }
    // Copied in as UTF-8 (up to 3 bytes a character) and parsed again: this much would not fit.
    if (text.length > limits.memoryLimitBytes / 4) return { ok: false, error: 'the script input is too large for the sandbox' };
    try {
      return execute(current, program, script, text, limits);
    } catch (error) {
      module = undefined;
      load().catch(() => undefined); // a failed load is retried by ready() or the next restart
      return { ok: false, error: `the script sandbox failed: ${errorText(error)}` };
    }
  };

  await load();
  return {
    ready: () => (module ? Promise.resolve() : loading.catch(load)),
    runCalc(script, record): CalcOutcome {
      const run = runProgram(CALC_PROGRAM, script, () => JSON.stringify(record));
      if (!run.ok) return run;
      const out = run.result.record;
      return isPlainObject(out) ? { ok: true, record: out } : { ok: false, error: 'calculation script must return an object' };
    },
    runCheck(script, value, record): CheckOutcome {
      const run = runProgram(CHECK_PROGRAM, script, () => JSON.stringify({ value, record }));
      if (!run.ok) return run;
      const pass = run.result.pass;
      return typeof pass === 'boolean' ? { ok: true, pass } : { ok: false, error: 'validation script must return true or false' };
    },
  };
}

/** Runs one program in a fresh runtime. Throws only when the host side fails (module unusable). */
function execute(module: QuickJSWASMModule, program: string, script: string, input: string, limits: Limits): Run {
  const runtime = module.newRuntime();
  let context: QuickJSContext | undefined;
  // After a host-side failure, disposing would hit the engine's leak assertions: leave it all.
  let healthy = false;
  try {
    runtime.setMemoryLimit(limits.memoryLimitBytes);
    runtime.setMaxStackSize(limits.maxStackBytes);
    context = runtime.newContext();
    setGlobalString(context, '__script', script);
    setGlobalString(context, '__input', input);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeLimitMs));
    const result = context.evalCode(program, 'script.js', { type: 'global' });
    // Reading an escaped engine error runs no script code, but keep a deadline armed regardless.
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeLimitMs));
    const ctx = context;
    if (result.error) {
      const escaped = engineError(result.error.consume((handle) => ctx.dump(handle)));
      // Anything but a limit escaping the wrapper means the engine itself is damaged.
      if (!LIMIT_ERRORS.has(escaped)) throw new Error(`unexpected engine state (${escaped || 'empty error'})`);
      healthy = true;
      return { ok: false, error: describe(escaped, limits) };
    }
    const outcome = parseResult(
      result.value.consume((handle) => (ctx.typeof(handle) === 'string' ? ctx.getString(handle) : undefined)),
      limits,
    );
    healthy = true;
    return outcome;
  } finally {
    if (healthy) {
      context?.dispose();
      runtime.dispose();
    }
  }
}

function setGlobalString(context: QuickJSContext, name: string, text: string): void {
  const handle: QuickJSHandle = context.newString(text);
  try {
    context.setProp(context.global, name, handle);
  } finally {
    handle.dispose();
  }
}

function parseResult(text: string | undefined, limits: Limits): Run {
  const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
  if (!isPlainObject(parsed)) return { ok: false, error: 'the script sandbox returned no result' };
  return typeof parsed.error === 'string' ? { ok: false, error: describe(parsed.error, limits) } : { ok: true, result: parsed };
}

const LIMIT_ERRORS: ReadonlySet<string> = new Set(['interrupted', 'out of memory', 'stack overflow']);

function engineError(dumped: unknown): string {
  return isPlainObject(dumped) && typeof dumped.message === 'string' ? dumped.message : String(dumped ?? '');
}

/** Limit errors get a plain message whether the wrapper caught them or they escaped it. */
function describe(error: string, limits: Limits): string {
  if (error.endsWith('interrupted')) return `script exceeded its time limit of ${limits.timeLimitMs} ms`;
  if (error.endsWith('out of memory')) return `script exceeded its memory limit of ${Math.round(limits.memoryLimitBytes / MB)} MB`;
  if (error.endsWith('stack overflow')) return 'script exceeded its stack limit (recursion too deep)';
  return error.slice(0, MAX_ERROR_LENGTH);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
