import { createServer, type Socket } from 'node:net';
import { hostStatusAnswer } from './zebra-status.ts';

// A ZPL printer on loopback for tests and the e2e: answers ~HS with the flags it is given and records
// the bytes of every other connection (one print per connection). With flags.labelMs it also prints
// like a real one: each label format received waits in its buffer with its ^PQ copies, one label
// comes out every labelMs while it has paper (not paused, head closed), ~HS answers the formats in
// the buffer and the labels remaining of the one printing, flags.paperOutAfter runs out of paper after
// that many labels, and ~JA (cancel all) empties the buffer.

export interface TestPrinter {
  port: number;
  /** The bytes of each print, as text. */
  prints: string[];
  flags: {
    paperOut?: boolean;
    paused?: boolean;
    headOpen?: boolean;
    ribbonOut?: boolean;
    stallAfterBytes?: number;
    labelMs?: number;
    paperOutAfter?: number;
  };
  /** Labels that came out (flags.labelMs). */
  labelsOut: number;
  /** ~JA (cancel all) received. */
  cancels: number;
  /** Copies still to print of each format in the buffer, the one printing first (flags.labelMs). */
  buffer: number[];
  /** Print connections that stopped reading (flags.stallAfterBytes): a printer whose buffer is full. */
  stalled(): number;
  /** Reads the stalled connections again. */
  resume(): void;
  /** Resolves when `count` prints have arrived. */
  waitForPrints(count: number, timeoutMs?: number): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestPrinter(port = 0): Promise<TestPrinter> {
  const sockets = new Set<Socket>();
  const paused = new Set<Socket>();
  const waiters: Array<() => void> = [];
  const printer: TestPrinter = {
    port: 0,
    prints: [],
    flags: {},
    labelsOut: 0,
    cancels: 0,
    buffer: [],
    waitForPrints(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (printer.prints.length >= count) {
            clearTimeout(timer);
            resolve(printer.prints);
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => reject(new Error(`expected ${count} prints, got ${printer.prints.length}`)), timeoutMs);
        const wait = () => {
          if (!check()) waiters.push(wait);
        };
        wait();
      });
    },
    stalled: () => paused.size,
    resume() {
      for (const s of paused) s.resume();
      paused.clear();
    },
    close: () =>
      new Promise((resolve) => {
        clearInterval(engine);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (data.trim() === '~HS') {
        const counters = { formatsInBuffer: Math.max(0, printer.buffer.length - 1), labelsRemaining: printer.buffer[0] ?? 0 };
        socket.write(hostStatusAnswer(printer.flags, counters));
        data = '';
      } else if (data.trim() === '~JA') {
        printer.buffer.length = 0;
        printer.cancels++;
        data = '';
      } else if (printer.flags.stallAfterBytes !== undefined && data.length >= printer.flags.stallAfterBytes && !paused.has(socket)) {
        socket.pause();
        paused.add(socket);
      }
    });
    socket.on('end', () => {
      if (data.trim()) {
        printer.prints.push(data);
        if (printer.flags.labelMs !== undefined) {
          for (const format of data.split(/(?<=\^XZ)/i).filter((f) => f.includes('^XA'))) {
            const pq = /\^PQ(\d+)/i.exec(format);
            printer.buffer.push(pq ? Number(pq[1]) : 1);
          }
        }
        for (const w of waiters.splice(0)) w();
      }
      socket.end();
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  // The print engine: a label every flags.labelMs while the printer is ready.
  let lastTick = Date.now();
  const engine = setInterval(() => {
    const f = printer.flags;
    if (f.labelMs === undefined || Date.now() - lastTick < f.labelMs) return;
    lastTick = Date.now();
    if (f.paperOut || f.paused || f.headOpen || f.ribbonOut || printer.buffer.length === 0) return;
    printer.buffer[0]!--;
    if (printer.buffer[0]! <= 0) printer.buffer.shift();
    printer.labelsOut++;
    if (f.paperOutAfter !== undefined && printer.labelsOut >= f.paperOutAfter) f.paperOut = true;
  }, 5);
  engine.unref();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  printer.port = typeof address === 'object' && address ? address.port : port;
  return printer;
}
