import { createServer, type Socket } from 'node:net';
import { hostStatusAnswer } from './zebra-status.ts';

// A ZPL printer on loopback for tests and the e2e: answers ~HS with the flags it is given and records
// the bytes of every other connection (one print per connection).

export interface TestPrinter {
  port: number;
  /** The bytes of each print, as text. */
  prints: string[];
  flags: { paperOut?: boolean; paused?: boolean; headOpen?: boolean; ribbonOut?: boolean; stallAfterBytes?: number };
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
        socket.write(hostStatusAnswer(printer.flags));
        data = '';
      } else if (printer.flags.stallAfterBytes !== undefined && data.length >= printer.flags.stallAfterBytes && !paused.has(socket)) {
        socket.pause();
        paused.add(socket);
      }
    });
    socket.on('end', () => {
      if (data.trim()) {
        printer.prints.push(data);
        for (const w of waiters.splice(0)) w();
      }
      socket.end();
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  printer.port = typeof address === 'object' && address ? address.port : port;
  return printer;
}
