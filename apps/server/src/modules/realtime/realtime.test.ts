import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import type { ClientToServerEvents, EventEnvelope, Printer, ServerToClientEvents } from '@floorhand/contract/realtime';
import { ACME, call, createAcme, createSecondNode, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { MAX_SOCKET_MESSAGE_BYTES, envelope } from './socket.ts';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let t: TestApp;
let base: string;
let clerk: string;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  clerk = await tokenFor(t.app, 'clerk');
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t?.close());

function socketTo(namespace: string, token: unknown, server = base): ClientSocket {
  const socket: ClientSocket = io(`${server}/${namespace}`, {
    transports: ['websocket'],
    auth: { token },
    query: { client: 'test' },
    reconnection: false,
    forceNew: true,
  });
  open.push(socket);
  return socket;
}

/** Connects, resolving with the socket or with the refusal's error data. */
function connect(
  namespace: string,
  token: unknown,
  server = base,
): Promise<{ socket: ClientSocket; error?: Error & { data?: ServerErr } }> {
  const socket = socketTo(namespace, token, server);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (error: Error & { data?: ServerErr }) => resolve({ socket, error }));
  });
}

async function connected(namespace = 'demo-main', token = clerk, server = base): Promise<ClientSocket> {
  const { socket, error } = await connect(namespace, token, server);
  if (error) throw new Error(`not connected: ${error.message} ${JSON.stringify(error.data)}`);
  return socket;
}

describe('realtime connection', () => {
  it('connects to the namespace of the token site', async () => {
    const socket = await connected();
    expect(socket.connected).toBe(true);
  });

  it.each([
    { why: 'a bad token', token: 'not-a-token' },
    { why: 'no token', token: undefined },
    { why: 'a token that is not a string', token: { forged: true } },
  ])('refuses $why with connect_error code ERR_BAD_TOKEN', async ({ token }) => {
    const { socket, error } = await connect('demo-main', token);
    expect(socket.connected).toBe(false);
    expect(error?.data).toMatchObject({ code: ERR.badToken, message: expect.any(String) });
  });

  it('refuses a tampered token with ERR_BAD_TOKEN', async () => {
    const [h, p, s = ''] = clerk.split('!');
    const { error } = await connect('demo-main', [h, p, s.slice(0, -3) + (s.endsWith('AAA') ? 'BBB' : 'AAA')].join('!'));
    expect(error?.data?.code).toBe(ERR.badToken);
  });

  it('refuses a demo token on the acme namespace', async () => {
    const { socket, error } = await connect(ACME.siteId, clerk);
    expect(socket.connected).toBe(false);
    expect(error?.data).toMatchObject({ code: ERR.forbidden });
  });

  it('accepts the acme admin on the acme namespace only', async () => {
    const token = await acmeAdminToken(t.app);
    await connected(ACME.siteId, token);
    const { error } = await connect('demo-main', token);
    expect(error?.data?.code).toBe(ERR.forbidden);
  });

  it('refuses a namespace that is not a site id', async () => {
    const { socket, error } = await connect('not.a.site', clerk);
    expect(socket.connected).toBe(false);
    expect(error).toBeDefined();
  });

  it('refuses a logged-out token with ERR_UNAUTHORIZED', async () => {
    const token = await tokenFor(t.app, 'clerk');
    expect((await call(t.app, 'auth/logout', {}, token)).status).toBe(200);
    const { error } = await connect('demo-main', token);
    expect(error?.data?.code).toBe(ERR.unauthorized);
  });

  it('refuses a session token in place of the auth token', async () => {
    const { sessionToken } = (await call(t.app, 'capture/session/genSessionToken', {}, clerk)).body;
    const { error } = await connect('demo-main', sessionToken);
    expect(error?.data?.code).toBe(ERR.badToken);
  });
});

describe('realtime send', () => {
  it('answers ping with data', async () => {
    const socket = await connected();
    const reply = await socket
      .timeout(5000)
      .emitWithAck('send', { op: 'ping', token: clerk, clientTime: new Date().toISOString(), timeZone: 'UTC', tzOffset: 0 });
    expect(reply.err).toBeUndefined();
    expect(reply.data).toMatchObject({ pong: expect.any(String) });
  });

  it.each([
    { why: 'an unknown op', req: { op: 'selfDestruct' }, message: /selfDestruct/ },
    { why: 'no op', req: { data: 1 }, message: /send request/ },
    { why: 'an op that is not a string', req: { op: 42 }, message: /send request/ },
    { why: 'an unknown topic', req: { op: 'subscribe', data: { topic: 'secrets' } }, message: /secrets/ },
  ])('answers $why with err ERR_BAD_INPUT', async ({ req, message }) => {
    const socket = await connected();
    const reply = await socket.timeout(5000).emitWithAck('send', req as never);
    expect(reply.data).toBeUndefined();
    expect(reply.err).toMatchObject({ code: ERR.badInput, message: expect.stringMatching(message) });
  });

  it('sends attachedPrinters with an eventId on subscribing to labelPrinter', async () => {
    const socket = await connected();
    const event = new Promise<EventEnvelope<{ printers: Printer[] }>>((resolve) => socket.once('attachedPrinters', resolve));
    const reply = await socket.timeout(5000).emitWithAck('send', { op: 'subscribe', data: { topic: 'labelPrinter' } });
    expect(reply).toEqual({ data: { topic: 'labelPrinter' } });
    const e = await event;
    expect(e.eventId).toEqual(expect.any(Number));
    expect(e.data.printers).toEqual([]);
  });

  it('gives increasing event ids', async () => {
    const socket = await connected();
    const ids: number[] = [];
    socket.on('attachedPrinters', (e) => ids.push(e.eventId));
    for (let i = 0; i < 3; i++) await socket.timeout(5000).emitWithAck('send', { op: 'subscribe', data: { topic: 'labelPrinter' } });
    await expect.poll(() => ids.length).toBe(3);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('realtime emit: only declared events with their payload', () => {
  it('wraps a payload its schema accepts with a new event id', () => {
    const first = envelope('stockChanged', { stockIds: ['S000000001'], locationIds: [] });
    const second = envelope('featureAccessChanged', { siteId: 'demo-main' });
    expect(first.data).toEqual({ stockIds: ['S000000001'], locationIds: [] });
    expect(second.eventId).toBeGreaterThan(first.eventId);
  });

  it('refuses a payload its schema refuses (and the type refuses it too)', () => {
    // @ts-expect-error stockIds is a list of stock ids
    expect(() => envelope('stockChanged', { stockIds: 'S000000001', locationIds: [] })).toThrow(/stockChanged/);
    // @ts-expect-error no such event is declared
    expect(() => envelope('selfDestruct', {})).toThrow();
  });
});

/** The server still answers: a ping over a new socket, and an HTTP call. */
async function stillUp(): Promise<void> {
  const socket = await connected();
  const reply = await socket.timeout(5000).emitWithAck('send', { op: 'ping' });
  expect(reply.data).toMatchObject({ pong: expect.any(String) });
  expect((await fetch(`${base}/api/health`)).status).toBe(200);
}

describe('realtime send: what a client sends cannot stop the server (fuzz)', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'])(
    'answers op %s with ERR_BAD_INPUT Unknown operation',
    async (op) => {
      const socket = await connected();
      const reply = await socket.timeout(5000).emitWithAck('send', { op, data: { topic: 'stock' } });
      expect(reply.data).toBeUndefined();
      expect(reply.err).toMatchObject({ code: ERR.badInput, message: expect.stringMatching(/Unknown operation/) });
      await stillUp();
    },
  );

  it('survives a thousand random requests, with and without acknowledgement, and answers each one that asks', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const values: unknown[] = [
      null,
      undefined,
      0,
      -1,
      1e308,
      NaN,
      '',
      'x'.repeat(200),
      [],
      [1, [2, [3]]],
      {},
      { topic: 'stock' },
      { topic: '__proto__' },
      { __proto__: { polluted: true } },
      true,
      'ping',
      'subscribe',
      'constructor',
    ];
    const socket = await connected();
    const replies: Array<Promise<unknown>> = [];
    for (let i = 0; i < 1000; i++) {
      const req = random() < 0.2 ? pick(values) : { op: pick(values), data: pick(values), token: pick(values), tzOffset: pick(values) };
      const emit = (socket.emit as (ev: string, ...args: unknown[]) => void).bind(socket);
      if (random() < 0.3) emit('send', req);
      else if (random() < 0.1) emit('send', req, 'not a callback');
      else replies.push(socket.timeout(10_000).emitWithAck('send', req as never));
    }
    const answered = (await Promise.all(replies)) as Array<{ data?: unknown; err?: ServerErr }>;
    for (const reply of answered) expect(reply.err === undefined ? 'data' in reply : typeof reply.err.code === 'string').toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await stillUp();
  });

  it('closes the connection of a message over the size limit, and stays up', async () => {
    const socket = await connected();
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    (socket.emit as (ev: string, ...args: unknown[]) => void)('send', { op: 'ping', data: 'x'.repeat(MAX_SOCKET_MESSAGE_BYTES + 1) });
    expect(await closed).toMatch(/transport/);
    await stillUp();
  });

  it('refuses the root namespace', async () => {
    const { socket, error } = await connect('', clerk);
    expect(socket.connected).toBe(false);
    expect(error).toBeDefined();
  });
});

describe("logout closes the token's sockets", () => {
  it("disconnects a connected socket of the token, and only that token's", async () => {
    const token = await tokenFor(t.app, 'clerk');
    const mine = await connected('demo-main', token);
    const other = await connected();
    const gone = new Promise<string>((resolve) => mine.once('disconnect', resolve));
    expect((await call(t.app, 'auth/logout', {}, token)).status).toBe(200);
    expect(await gone).toBe('io server disconnect');
    // The other token's socket still gets answers.
    expect((await other.timeout(5000).emitWithAck('send', { op: 'ping' })).data).toBeDefined();
    // And the logged-out token cannot come back.
    expect((await connect('demo-main', token)).error?.data?.code).toBe(ERR.unauthorized);
  });

  it.runIf(process.env.REDIS_URL)("disconnects the token's socket on another node (through Redis)", async () => {
    const second = await createSecondNode(t);
    try {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const secondBase = `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}`;
      const token = await tokenFor(t.app, 'clerk');
      const onSecond = await connected('demo-main', token, secondBase);
      const gone = new Promise<string>((resolve) => onSecond.once('disconnect', resolve));
      expect((await call(t.app, 'auth/logout', {}, token)).status).toBe(200);
      expect(await gone).toBe('io server disconnect');
    } finally {
      await second.close();
    }
  });
});
