import type { Socket } from 'socket.io-client';
import { SOCKET_LIBRARY_DEFAULTS, SOCKET_SEND_TIMEOUT_MS } from '@floorhand/contract/constants';
import { ERR } from '@floorhand/contract/errors';
import {
  SERVER_EVENT_NAMES,
  type ClientToServerEvents,
  type EventEnvelope,
  type RealtimeTopic,
  type SendOpAnswer,
  type SendOpName,
  type SendOpRequest,
  type SendReply,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '@floorhand/contract/realtime';
import { apiBase } from './api.ts';
import { i18n } from './i18n.ts';
import { createEventOrder, retryDelayMs } from './socket-backoff.ts';
import { tk } from '@floorhand/contract/i18n';

/** A listener of one declared server event, handed that event's payload (contract `serverEvents`). */
export type RealtimeListener<E extends ServerEventName> = (data: ServerEventPayload<E>) => void;
type AnyListener = (data: unknown) => void;

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
  const listeners = new Map<ServerEventName, Set<AnyListener>>();
  const topics = new Set<RealtimeTopic>();
  const subscribedListeners = new Map<RealtimeTopic, Set<() => void>>();

  /**
   * Subscribes on the server; once it has answered, the topic's onSubscribed listeners run: whatever
   * happened before (events sent while the socket was down or not yet subscribed) is read again.
   */
  async function subscribeNow(topic: RealtimeTopic): Promise<void> {
    const reply = await send('subscribe', { topic });
    if (reply.err) return;
    for (const l of [...(subscribedListeners.get(topic) ?? [])]) l();
  }

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
      // The screen's language at each (re)connection: the server's refusals follow it.
      auth: (cb) => cb({ token: getToken(), lang: i18n.language }),
      query: { client: clientName },
      reconnectionDelay: SOCKET_LIBRARY_DEFAULTS.reconnectionDelay,
      reconnectionDelayMax: SOCKET_LIBRARY_DEFAULTS.reconnectionDelayMax,
      timeout: SOCKET_LIBRARY_DEFAULTS.timeout,
    });
    socket = s;
    s.on('connect', () => {
      attempt = 0;
      for (const topic of topics) void subscribeNow(topic);
    });
    s.on('connect_error', (e: Error & { data?: unknown }) => {
      if (!e.data) return;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => s.connect(), retryDelayMs(attempt++));
    });
    // Every declared event (contract serverEvents) is heard; its listeners get its typed payload.
    for (const type of SERVER_EVENT_NAMES) {
      (s.on as (ev: ServerEventName, fn: (env: EventEnvelope<unknown>) => void) => void)(type, (env) => dispatch(type, env));
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
  async function send<O extends SendOpName>(op: O, data?: SendOpRequest<O>): Promise<SendReply<SendOpAnswer<O>>> {
    if (!socket) return { err: { code: ERR.generic, message: tk('Not connected') } };
    const now = new Date();
    try {
      // The answer's shape is the op's declared answer (the server's handlers are typed by it).
      return (await socket.timeout(SOCKET_SEND_TIMEOUT_MS).emitWithAck('send', {
        op,
        data,
        token: getToken() ?? undefined,
        clientTime: now.toISOString(),
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        tzOffset: now.getTimezoneOffset(),
      })) as SendReply<SendOpAnswer<O>>;
    } catch {
      return { err: { code: ERR.generic, message: tk(`No answer from the server for '${op}'`) } };
    }
  }

  /** Listens to one declared server event; answers the function that stops listening. */
  function on<E extends ServerEventName>(type: E, l: RealtimeListener<E>): () => void {
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    const any = l as AnyListener;
    set.add(any);
    return () => set.delete(any);
  }

  function subscribe(topic: RealtimeTopic): void {
    topics.add(topic);
    if (socket?.connected) void subscribeNow(topic);
  }

  /** Called after every (re)subscription to `topic` is acknowledged (each connect and reconnect); answers the function that stops it. */
  function onSubscribed(topic: RealtimeTopic, l: () => void): () => void {
    let set = subscribedListeners.get(topic);
    if (!set) subscribedListeners.set(topic, (set = new Set()));
    set.add(l);
    return () => set.delete(l);
  }

  return {
    connect,
    disconnect,
    send,
    on,
    subscribe,
    onSubscribed,
    get connected() {
      return !!socket?.connected;
    },
  };
}
