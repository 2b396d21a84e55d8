/*
 * The script sandbox in a worker thread (script-worker.ts starts it): one run at a time, answered by
 * id. Runs here cannot hold up the server's requests, and a run that outlives its hard limit ends
 * with the whole thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createScriptSandbox, type SandboxOptions } from './sandbox.ts';

/** One run: a calculation or a check script with its inputs. */
export type ScriptJob =
  | { kind: 'calc'; script: string; record: Record<string, unknown> }
  | { kind: 'check'; script: string; value: unknown; record: Record<string, unknown> };
export type SandboxJob = ScriptJob & { id: number };

const port = parentPort;
if (port) {
  const sandbox = await createScriptSandbox(workerData as SandboxOptions);
  port.on('message', async (job: SandboxJob) => {
    await sandbox.ready();
    const outcome = job.kind === 'calc' ? sandbox.runCalc(job.script, job.record) : sandbox.runCheck(job.script, job.value, job.record);
    port.postMessage({ id: job.id, outcome });
  });
  // Ready means ready to run: QuickJS loaded and one script run through it, so a fresh worker's first
  // run is not charged for loading the module against its hard limit.
  await sandbox.ready();
  sandbox.runCalc('record.warm = true', {});
  port.postMessage({ ready: true });
}
