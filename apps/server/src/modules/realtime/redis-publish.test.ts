import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { attachRealtime } from './socket.ts';

// With Redis, socket.io's adapter publishes every event without awaiting it. A publish that fails (the
// client closed while the server shuts down, or Redis gone) must not become an unhandled rejection,
// which stops a Node process (seen in CI: labels published a job state while its app was closing).
describe.runIf(process.env.REDIS_URL)('realtime through Redis', () => {
  it('logs an event it cannot publish instead of rejecting unhandled', async () => {
    const warnings: unknown[] = [];
    const log = {
      warn: (...args: unknown[]) => warnings.push(args),
      error: () => undefined,
      info: () => undefined,
      debug: () => undefined,
    } as unknown as FastifyBaseLogger;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const server = createServer();
    try {
      const deps = {
        db: {} as never,
        tokens: {} as never,
        authCache: { onClear: () => undefined, clearLocal: () => undefined } as never,
        redisUrl: process.env.REDIS_URL,
        log,
      };
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

  it("publishes under REDIS_KEY_PREFIX, so installations and test apps sharing one Redis never hear each other (a CI test heard another worker's ordersChanged)", async () => {
    const log = {
      warn: () => undefined,
      error: () => undefined,
      info: () => undefined,
      debug: () => undefined,
    } as unknown as FastifyBaseLogger;
    const prefix = `fhtest-${randomBytes(6).toString('hex')}`;
    const listener = createClient({ url: process.env.REDIS_URL });
    await listener.connect();
    const channels: string[] = [];
    await listener.pSubscribe('*socket.io*', (_message, channel) => channels.push(channel));
    const server = createServer();
    try {
      const deps = {
        db: {} as never,
        tokens: {} as never,
        authCache: { onClear: () => undefined, clearLocal: () => undefined } as never,
        redisUrl: process.env.REDIS_URL,
        redisKeyPrefix: prefix,
        log,
      };
      const realtime = await attachRealtime(server, deps);
      realtime.emit('demo-main', 'attachedPrinters', { printers: [] }, 'labelPrinter');
      await expect.poll(() => channels.filter((c) => c.startsWith(`${prefix}:socket.io#`)).length, { timeout: 3000 }).toBeGreaterThan(0);
      await realtime.close();
    } finally {
      await listener.quit();
      server.close();
    }
  });
});
