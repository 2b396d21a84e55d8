import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import type { HostStatus } from './zebra-status.ts';
import { parseHostStatus } from './zebra-status.ts';
import type { PrinterConfig } from './config.ts';
import { queueStatus } from './queue-status.ts';

// Talking to one printer: a network ZPL printer on TCP (9100), or a local raw queue through `lp -o raw`
// (its state from `lpstat`, queue-status.ts).

const STATUS_TIMEOUT_MS = 3000;
const SEND_TIMEOUT_MS = 15_000;

/** Asks a network printer ~HS; unreachable when it does not connect or answer in time. */
export function queryStatus(printer: PrinterConfig): Promise<HostStatus> {
  if (!printer.host) return printer.queue ? queueStatus(printer.queue, printer.lpstat) : Promise.resolve({ state: 'unknown' });
  const host = printer.host;
  return new Promise((resolve) => {
    let answer = '';
    let done = false;
    const finish = (status: HostStatus) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(status);
    };
    const socket = connect({ host, port: printer.port ?? 9100 }, () => socket.write('~HS'));
    const timer = setTimeout(
      () =>
        finish({ state: 'unreachable', detail: answer ? 'no complete answer to ~HS' : `no answer from ${host}:${printer.port ?? 9100}` }),
      STATUS_TIMEOUT_MS,
    );
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (answer.split('\x03').length > 3) finish(parseHostStatus(answer));
    });
    socket.on('error', (e) => finish({ state: 'unreachable', detail: e.message }));
    socket.on('close', () =>
      finish(answer ? parseHostStatus(answer) : { state: 'unreachable', detail: 'the printer closed the connection' }),
    );
  });
}

export { labelFormats } from '@floorhand/contract/labels';

/**
 * ~JA (cancel all) to a network printer: it drops every format in its buffer, the one printing
 * included, so the rest of an interrupted job is printed only when asked (label/job/printRest).
 */
export function cancelAll(printer: PrinterConfig): Promise<void> {
  if (!printer.host) return Promise.resolve();
  return sendFormats(printer, ['~JA']);
}

/**
 * Sends label formats over one connection, in order, each as one write; `flushed(n)` is called as soon
 * as the first n formats have been handed to the operating system (the write callback), so a crash
 * after it still delivers them (the kernel sends what it took and closes the connection). Resolves once
 * the printer (or the queue) has taken them all and closed. A connection idle for SEND_TIMEOUT_MS fails.
 */
export function sendFormats(
  printer: PrinterConfig,
  formats: readonly string[],
  flushed: (n: number) => void = () => undefined,
): Promise<void> {
  if (!printer.host && printer.queue) return sendToQueue(printer.queue, formats.join(''), printer.lp).then(() => flushed(formats.length));
  if (!printer.host) return Promise.reject(new Error('the printer has neither host nor queue'));
  const host = printer.host;
  return new Promise((resolve, reject) => {
    let failed: Error | undefined;
    let wake: (() => void) | undefined;
    const socket = connect({ host, port: printer.port ?? 9100 }, () => {
      void (async () => {
        for (let i = 0; i < formats.length && !failed; i++) {
          const ok = socket.write(formats[i]!, 'utf8', (err) => {
            if (!err) flushed(i + 1);
          });
          if (!ok && !failed) await new Promise<void>((r) => (wake = r));
        }
        if (!failed) socket.end();
      })();
    });
    socket.on('drain', () => wake?.());
    socket.setTimeout(SEND_TIMEOUT_MS, () => socket.destroy(new Error('sending timed out')));
    socket.on('error', (e) => {
      failed = e;
      wake?.();
      reject(e);
    });
    socket.on('close', (hadError) => {
      if (!hadError && !failed) resolve();
    });
  });
}

/** Sends the bytes of a job whole (one document). */
export function sendBytes(printer: PrinterConfig, data: string): Promise<void> {
  return sendFormats(printer, [data]);
}

function sendToQueue(queue: string, data: string, command = 'lp'): Promise<void> {
  return new Promise((resolve, reject) => {
    const lp = spawn(command, ['-d', queue, '-o', 'raw'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    lp.stderr.on('data', (c: Buffer) => (err += c.toString()));
    lp.on('error', reject);
    lp.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`lp failed (${code}): ${err.trim()}`))));
    lp.stdin.end(data);
  });
}
