import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { attachRealtime } from './socket.ts';

// With Redis, socket.io's adapter publishes every event without awaiting it. A publish that fails (the
// client closed while the server shuts down, or Redis gone) must not become an unhandled rejection,
// which stops a Node process (seen in CI: labels published a job state while its app was closing).
describe.runIf(process.env.REDIS_URL)('realtime through Redis', () => {
  it('logs an event it cannot publish instead of rejecting unhandled', async () => {
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args), error: () => undefined, info: () => undefined, debug: () => undefined } as unknown as FastifyBaseLogger;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const server = createServer();
    try {
      const deps = { db: {} as never, tokens: {} as never, authCache: { onClear: () => undefined, clearLocal: () => undefined } as never, redisUrl: process.env.REDIS_URL, log };
      const realtime = await attachRealtime(server, deps);
      await realtime.close();
      realtime.emit('demo-main', 'attachedPrinters', { printers: [] }, 'labelPrinter');
      await new Promise((r) => setTimeout(r, 300));
      expect(unhandled).toEqual([]);
      expect(warnings.length).toBeGreaterThan(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      server.close();
    }
  });
});
