import type { Socket } from 'socket.io-client';
import { SOCKET_LIBRARY_DEFAULTS, SOCKET_SEND_TIMEOUT_MS } from '@floorhand/contract/constants';
import { ERR } from '@floorhand/contract/errors';
import type { ClientToServerEvents, EventEnvelope, SendReply, ServerEventName, ServerToClientEvents } from '@floorhand/contract/realtime';
import { apiBase } from './api.ts';
import { createEventOrder, retryDelayMs } from './socket-backoff.ts';

type Listener = (data: unknown) => void;

/**
 * The realtime socket: websocket only, one namespace per site, token at connect. After a connect
 * error that carries data (the server refused us) it retries itself with 1 s doubling to 32 s; plain
 * network drops are left to socket.io's own reconnection. Events older than the last seen of their
 * type are dropped.
 */
export function createRealtime(getToken: () => string | null, clientName = 'floorhand-web') {
  let socket: Socket<ServerToClientEvents, ClientToServerEvents> | null = null;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const order = createEventOrder();
  const listeners = new Map<ServerEventName, Set<Listener>>();
  const topics = new Set<string>();

  const dispatch = (type: ServerEventName, env: EventEnvelope<unknown>) => {
    if (!order.accept(type, env.eventId)) return;
    for (const l of listeners.get(type) ?? []) l(env.data);
  };

  let generation = 0;

  /** socket.io-client loads with the first connection, after login: the login page does without it. */
  function connect(siteId: string): void {
    disconnect();
    const current = generation;
    void import('socket.io-client').then((lib) => {
      if (current === generation) open(lib.io, siteId);
    });
  }

  function open(io: typeof import('socket.io-client').io, siteId: string): void {
    const s: Socket<ServerToClientEvents, ClientToServerEvents> = io(`${apiBase()}/${siteId}`, {
      transports: ['websocket'],
      auth: (cb) => cb({ token: getToken() }),
      query: { client: clientName },
      reconnectionDelay: SOCKET_LIBRARY_DEFAULTS.reconnectionDelay,
      reconnectionDelayMax: SOCKET_LIBRARY_DEFAULTS.reconnectionDelayMax,
      timeout: SOCKET_LIBRARY_DEFAULTS.timeout,
    });
    socket = s;
    s.on('connect', () => {
      attempt = 0;
      for (const topic of topics) void send('subscribe', { topic });
    });
    s.on('connect_error', (e: Error & { data?: unknown }) => {
      if (!e.data) return;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => s.connect(), retryDelayMs(attempt++));
    });
    for (const type of ['attachedPrinters', 'featureAccessChanged', 'sessionClosed', 'stockChanged'] as const) {
      s.on(type, ((env: EventEnvelope<unknown>) => dispatch(type, env)) as never);
    }
  }

  function disconnect(): void {
    generation++;
    clearTimeout(retryTimer);
    socket?.removeAllListeners();
    socket?.disconnect();
    socket = null;
    attempt = 0;
    order.reset();
  }

  /** The generic send: adds the token and the client's time, waits 10 s for the acknowledgement. */
  async function send(op: string, data?: unknown): Promise<SendReply> {
    if (!socket) return { err: { code: ERR.generic, message: 'Not connected' } };
    const now = new Date();
    try {
      return await socket.timeout(SOCKET_SEND_TIMEOUT_MS).emitWithAck('send', {
        op,
        data,
        token: getToken() ?? undefined,
        clientTime: now.toISOString(),
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        tzOffset: now.getTimezoneOffset(),
      });
    } catch {
      return { err: { code: ERR.generic, message: `No answer from the server for '${op}'` } };
    }
  }

  function on(type: ServerEventName, l: Listener): () => void {
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    set.add(l);
    return () => set.delete(l);
  }

  function subscribe(topic: string): void {
    topics.add(topic);
    if (socket?.connected) void send('subscribe', { topic });
  }

  return { connect, disconnect, send, on, subscribe, get connected() { return !!socket?.connected; } };
}
