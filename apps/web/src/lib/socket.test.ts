import { describe, expect, it, vi } from 'vitest';

// A socket.io client stand-in: handlers by event, and every emitWithAck answered ok.
const handlers = new Map<string, Array<(...a: unknown[]) => void>>();
const sent: unknown[] = [];
const fake = {
  on: (ev: string, fn: (...a: unknown[]) => void) => handlers.set(ev, [...(handlers.get(ev) ?? []), fn]),
  timeout: () => fake,
  emitWithAck: (_ev: string, payload: unknown) => {
    sent.push(payload);
    return Promise.resolve({ data: { ok: true } });
  },
  connect: () => undefined,
  disconnect: () => undefined,
  removeAllListeners: () => handlers.clear(),
};
vi.mock('socket.io-client', () => ({ io: () => fake }));
vi.mock('./api.ts', () => ({ apiBase: () => '' }));

const fire = (ev: string) => (handlers.get(ev) ?? []).forEach((fn) => fn());
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('realtime onSubscribed (issue 26 item 9)', () => {
  it('runs after every (re)subscription is acknowledged, so a page reads again what it may have missed', async () => {
    const { createRealtime } = await import('./socket.ts');
    const rt = createRealtime(() => 'token');
    const seen = vi.fn();
    const off = rt.onSubscribed('labelPrinter', seen);
    rt.subscribe('labelPrinter');
    rt.connect('demo-main');
    await vi.waitFor(() => expect(handlers.get('connect')).toBeDefined());
    expect(seen).not.toHaveBeenCalled();
    fire('connect');
    await flush();
    expect(sent).toEqual([expect.objectContaining({ op: 'subscribe', data: { topic: 'labelPrinter' } })]);
    expect(seen).toHaveBeenCalledTimes(1);
    // A dropped connection comes back: subscribed again, and read again.
    fire('disconnect');
    fire('connect');
    await flush();
    expect(seen).toHaveBeenCalledTimes(2);
    off();
    fire('connect');
    await flush();
    expect(seen).toHaveBeenCalledTimes(2);
    rt.disconnect();
  });
});
