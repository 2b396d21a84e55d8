import { execFile } from 'node:child_process';
import type { HostStatus } from './zebra-status.ts';

// The state of a local raw queue (CUPS 2) from `lpstat -p <queue> -a <queue>`: idle or printing is
// online; disabled (stopped, paused by someone or by CUPS after a backend error) is paused with
// CUPS's reason; not accepting requests is paused too (lp would refuse the job); an unknown queue is
// unreachable. Without lpstat on the machine the state is not known: the queue is taken as online
// and the detail says so (as before), so jobs are still sent.

const LPSTAT_TIMEOUT_MS = 3000;

/** Reads lpstat's answer about one queue. */
export function parseLpstat(queue: string, stdout: string, stderr = '', exitCode = 0): HostStatus {
  const text = `${stdout}\n${stderr}`;
  if (exitCode !== 0 || /invalid destination|does not exist|unknown destination|not exist/i.test(stderr)) {
    const why = stderr.trim().split('\n')[0] || `lpstat ended with ${exitCode}`;
    return { state: 'unreachable', detail: `raw queue ${queue}: ${why}` };
  }
  const lines = text.split('\n');
  const printerLine = lines.findIndex((l) => new RegExp(`^printer ${escape(queue)}\\b`).test(l));
  if (printerLine < 0) return { state: 'unknown', detail: `raw queue ${queue}: lpstat said nothing about it` };
  const head = lines[printerLine]!;
  // CUPS puts the reason on the lines after, indented.
  const reasons: string[] = [];
  for (const l of lines.slice(printerLine + 1)) {
    if (!/^\s+\S/.test(l)) break;
    reasons.push(l.trim());
  }
  if (/\bdisabled\b/i.test(head))
    return { state: 'paused', detail: `raw queue ${queue} disabled${reasons.length ? `: ${reasons.join('; ')}` : ''}` };
  if (lines.some((l) => new RegExp(`^${escape(queue)} not accepting requests`).test(l)))
    return { state: 'paused', detail: `raw queue ${queue} is not accepting jobs` };
  if (/now printing/i.test(head)) return { state: 'online', detail: `raw queue ${queue} printing` };
  if (/is idle/i.test(head)) return { state: 'online', detail: `raw queue ${queue}` };
  return { state: 'unknown', detail: `raw queue ${queue}: ${head.trim()}` };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Asks lpstat about a queue (`lpstat` on PATH unless another command is given). */
export function queueStatus(queue: string, lpstat = 'lpstat'): Promise<HostStatus> {
  return new Promise((resolve) => {
    execFile(
      lpstat,
      ['-p', queue, '-a', queue],
      { timeout: LPSTAT_TIMEOUT_MS, env: { ...process.env, LANG: 'C', LC_ALL: 'C' } },
      (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
          resolve({ state: 'online', detail: `raw queue ${queue} (no lpstat here: state not known)` });
          return;
        }
        if (err && err.killed) {
          resolve({ state: 'unreachable', detail: `raw queue ${queue}: lpstat did not answer` });
          return;
        }
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve(parseLpstat(queue, String(stdout), String(stderr), code));
      },
    );
  });
}
