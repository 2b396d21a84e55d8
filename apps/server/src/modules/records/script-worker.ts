/*
 * The server's script runner: the QuickJS sandbox (sandbox.ts) in a worker thread, so that scripts
 * never run on the thread that serves requests, with a hard time limit. QuickJS checks its own time
 * limit only every ~10,000 interpreter steps, so a loop around a slow built-in could run a second or
 * two past it (sandbox.ts); here a run that has not answered `hardLimitMs` after it started ends with
 * the thread: the worker is terminated, the run fails with the time-limit message, and a new worker
 * starts for the runs that follow. Runs are queued and go one at a time, like the sandbox itself.
 */
import { Worker } from 'node:worker_threads';
import type { AsyncScriptRunner, CalcOutcome, CheckOutcome } from '@floorhand/contract/records/validate';
import { SANDBOX_DEFAULTS, type SandboxOptions } from './sandbox.ts';
import type { ScriptJob as Job } from './sandbox-worker.ts';

export interface WorkerSandboxOptions extends SandboxOptions {
  /** How long a run may take before its worker is terminated; default the time limit + 500 ms. */
  hardLimitMs?: number;
}

export interface WorkerSandbox extends AsyncScriptRunner {
  /** Resolves once a worker is ready to run scripts. */
  ready(): Promise<void>;
  /** How many workers were terminated for running past the hard limit, or failed. */
  restarts(): number;
  close(): Promise<void>;
}

// From the source tree (a .ts module) the worker needs tsx; the built server has it bundled beside it.
const workerUrl = import.meta.url.endsWith('.ts')
  ? new URL('./sandbox-worker-dev.mjs', import.meta.url)
  : new URL('./sandbox-worker.js', import.meta.url);

type Outcome = CalcOutcome | CheckOutcome;

export function createWorkerSandbox(options: WorkerSandboxOptions = {}): WorkerSandbox {
  const { hardLimitMs, ...limits } = options;
  const timeLimitMs = limits.timeLimitMs ?? SANDBOX_DEFAULTS.timeLimitMs;
  const hardMs = hardLimitMs ?? timeLimitMs + 500;
  let worker: Worker | undefined;
  let starting: Promise<Worker> | undefined;
  let restarted = 0;
  let closed = false;
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();

  function start(): Promise<Worker> {
    starting ??= new Promise<Worker>((resolve, reject) => {
      const w = new Worker(workerUrl, { workerData: limits });
      w.unref();
      const failed = (error: unknown) => {
        starting = undefined;
        reject(error instanceof Error ? error : new Error(`the script worker stopped (${String(error)})`));
      };
      w.once('error', failed);
      w.once('exit', failed);
      w.once('message', () => {
        w.off('error', failed);
        w.off('exit', failed);
        // A worker that fails or stops between runs is simply replaced by the next run.
        const forget = () => {
          if (worker === w) worker = undefined;
        };
        w.on('error', forget);
        w.on('exit', forget);
        worker = w;
        starting = undefined;
        resolve(w);
      });
    });
    return starting;
  }

  function discard(w: Worker): void {
    if (worker === w) worker = undefined;
    restarted++;
    void w.terminate();
  }

  async function runOne(job: Job): Promise<Outcome> {
    if (closed) return { ok: false, error: 'the script sandbox is closed' };
    let w: Worker;
    try {
      w = worker ?? (await start());
    } catch (error) {
      return { ok: false, error: `the script sandbox failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    const id = nextId++;
    return new Promise<Outcome>((resolve) => {
      const done = (outcome: Outcome) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onFailure);
        w.off('exit', onFailure);
        resolve(outcome);
      };
      const onMessage = (m: { id?: number; outcome?: Outcome }) => {
        if (m.id === id && m.outcome) done(m.outcome);
      };
      const onFailure = (error: unknown) => {
        discard(w);
        done({ ok: false, error: `the script sandbox failed: ${error instanceof Error ? error.message : `exit ${String(error)}`}` });
      };
      const timer = setTimeout(() => {
        discard(w);
        done({ ok: false, error: `script exceeded its time limit of ${timeLimitMs} ms` });
      }, hardMs);
      w.on('message', onMessage);
      w.once('error', onFailure);
      w.once('exit', onFailure);
      w.postMessage({ ...job, id });
    });
  }

  // One run at a time: a run's hard limit counts from its own start, not from when it was queued.
  const enqueue = (job: Job): Promise<Outcome> => {
    const run = queue.then(() => runOne(job));
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    ready: async () => {
      await (worker ?? start());
    },
    runCalc: (script, record) => enqueue({ kind: 'calc', script, record }) as Promise<CalcOutcome>,
    runCheck: (script, value, record) => enqueue({ kind: 'check', script, value, record }) as Promise<CheckOutcome>,
    restarts: () => restarted,
    async close() {
      closed = true;
      const w = worker ?? (await starting?.catch(() => undefined));
      worker = undefined;
      await w?.terminate();
    },
  };
}
