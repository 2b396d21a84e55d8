import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, ERR } from '@floorhand/contract/errors';
import {
  isRealtimeTopic,
  sendRequestSchema,
  serverEvents,
  type ClientToServerEvents,
  type EventEnvelope,
  type Printer,
  type SendOpAnswer,
  type SendReply,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '@floorhand/contract/realtime';
import { badInput, forbidden } from '../../lib/errors.ts';
import { errInLanguage } from '../../lib/language.ts';
import { tk } from '@floorhand/contract/i18n';
import type { Db } from '../../db/client.ts';
import { authenticate, type AuthContext } from '../../lib/auth-context.ts';
import { authenticateAgent } from '../../lib/agent-auth.ts';
import { looksLikeAgentKey } from '@floorhand/contract/labels';
import type { TokenService } from '../../lib/tokens.ts';
import type { AuthCache } from '../../lib/auth-cache.ts';
import type { Realtime, SocketClient } from '../../lib/realtime.ts';

/** The message by which one node tells the others to forget who tokens are (lib/auth-cache.ts). */
const AUTH_CHANGED = 'floorhand:authChanged';
/** Events between server nodes (through the Redis adapter). */
interface NodeEvents {
  [AUTH_CHANGED]: () => void;
}
type FhSocket = Socket<ClientToServerEvents, ServerToClientEvents, NodeEvents, { auth: AuthContext; client: string }>;

/** Event ids grow with time, so they stay ordered across server nodes and restarts. */
let lastEventId = 0;
export function nextEventId(now = Date.now()): number {
  lastEventId = Math.max(lastEventId + 1, now * 1000);
  return lastEventId;
}

type SendHandler = (socket: FhSocket, data: unknown) => Promise<unknown>;
/** One handler per declared send op (contract `sendOps`), answering that op's answer type. */
type CoreOp = 'ping' | 'subscribe';
type SendHandlers = { [O in CoreOp]: (socket: FhSocket, data: unknown) => Promise<SendOpAnswer<O>> };

/** An event as it goes out: its payload checked against the contract's schema, with a new event id. */
export function envelope<E extends ServerEventName>(event: E, data: ServerEventPayload<E>): EventEnvelope<ServerEventPayload<E>> {
  const checked = serverEvents[event].payload.safeParse(data);
  if (!checked.success) throw new Error(`The payload of '${event}' does not match its schema: ${checked.error.message}`);
  return { eventId: nextEventId(), data: checked.data as ServerEventPayload<E> };
}

/** The largest message a client may send; a bigger one closes its connection (socket.io's own check). */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;
/** The room of every socket opened with one token, so a logout reaches them on every node. */
const tokenRoom = (jti: string): string => `token:${jti}`;

export async function attachRealtime(
  server: HttpServer,
  /** `redisKeyPrefix`: REDIS_KEY_PREFIX, so installations (and test apps) sharing one Redis never hear each other's events. */
  deps: { db: Db; tokens: TokenService; authCache: AuthCache; redisUrl?: string; redisKeyPrefix?: string; log: FastifyBaseLogger },
): Promise<Realtime> {
  const io = new Server<ClientToServerEvents, ServerToClientEvents, NodeEvents>(server, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: MAX_SOCKET_MESSAGE_BYTES,
  });
  // Only site namespaces: the root namespace is nobody's, so it is refused.
  io.use((socket, next) => {
    const err = errInLanguage({ code: ERR.notFound, message: tk('Connect to your site') }, socket.handshake);
    next(Object.assign(new Error(err.message), { data: err }));
  });
  const redisClients: Array<{ quit(): Promise<unknown> }> = [];
  if (deps.redisUrl) {
    const pub = createClient({ url: deps.redisUrl });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    // The adapter publishes without awaiting: a publish that fails (Redis gone, or the client closed
    // while the server shuts down) would be an unhandled rejection, which stops a Node process. It is
    // logged instead; the other nodes miss that event, as they would anyway.
    const publish = pub.publish.bind(pub);
    Object.defineProperty(pub, 'publish', {
      value: (...args: Parameters<typeof publish>) =>
        publish(...args).catch((e: unknown) => {
          deps.log.warn({ err: e }, 'realtime: an event was not published to the other nodes');
          return 0;
        }),
    });
    io.adapter(createAdapter(pub, sub, { key: `${deps.redisKeyPrefix ?? 'floorhand'}:socket.io` }));
    redisClients.push(pub, sub);
    deps.authCache.onClear(() => io.serverSideEmit(AUTH_CHANGED));
    io.on(AUTH_CHANGED, () => deps.authCache.clearLocal());
  }
  const printers = new Map<string, Printer[]>();
  let printerSource: ((orgId: string, siteId: string) => Promise<Printer[]>) | undefined;

  // The generic send: operations a client may ask for over the socket, one per declared op. A Map: an
  // op named like an Object.prototype member (`constructor`, `__proto__`) is unknown, not a function to call.
  const handlers: SendHandlers = {
    ping: async () => ({ pong: new Date().toISOString() }),
    subscribe: async (socket, data) => {
      const topic = typeof data === 'object' && data && 'topic' in data ? String(data.topic) : '';
      if (!isRealtimeTopic(topic)) throw badInput(`Unknown topic '${topic}'`);
      await socket.join(topic);
      if (topic === 'labelPrinter') {
        const { orgId, siteId } = socket.data.auth;
        const list = printerSource ? await printerSource(orgId, siteId) : (printers.get(siteId) ?? []);
        socket.emit('attachedPrinters', envelope('attachedPrinters', { printers: list }));
      }
      return { topic };
    },
  };
  const ops = new Map<string, SendHandler>(Object.entries(handlers));
  const clientOf = (socket: FhSocket): SocketClient => ({ id: socket.id, auth: socket.data.auth, join: async (room) => socket.join(room) });
  const disconnectListeners: Array<(client: SocketClient) => void> = [];

  // One namespace per site id; the token's site must be the namespace's.
  const sites = io.of(/^\/[A-Za-z0-9_-]{1,40}$/);
  sites.use(async (socket, next) => {
    try {
      const token = typeof socket.handshake.auth.token === 'string' ? socket.handshake.auth.token : '';
      // A print agent's own key (agk_…) is for the namespace of its site only, and gives the agent principal.
      const auth = looksLikeAgentKey(token)
        ? await authenticateAgent(deps.db, token, socket.nsp.name.slice(1))
        : await authenticate(deps.db, deps.tokens, token);
      if (socket.nsp.name !== `/${auth.siteId}`) throw forbidden('This token belongs to another site');
      socket.data.auth = auth;
      socket.data.client = String(socket.handshake.query.client ?? 'unknown');
      next();
    } catch (e) {
      // In the language the client's handshake asks for (its auth's or query's `lang`).
      const err = errInLanguage(e instanceof AppError ? e.err : { code: ERR.generic, message: tk('Connection refused') }, socket.handshake);
      next(Object.assign(new Error(err.message), { data: err }));
    }
  });
  sites.on('connection', (socket: FhSocket) => {
    void socket.join([`org:${socket.data.auth.orgId}`, tokenRoom(socket.data.auth.claims.jti)]);
    socket.on('disconnect', () => {
      for (const listener of disconnectListeners) {
        try {
          listener(clientOf(socket));
        } catch (e) {
          deps.log.error(e, 'socket disconnect listener failed');
        }
      }
    });
    socket.on('send', async (req, ack) => {
      // Nothing a client sends may end the process: every failure, the acknowledgement's included, is
      // logged here and goes no further.
      try {
        if (typeof ack !== 'function') return;
        const reply = await answer(socket, req);
        ack(reply.err ? { ...reply, err: errInLanguage(reply.err, socket.handshake) } : reply);
      } catch (e) {
        deps.log.error(e, 'socket send failed');
      }
    });
    socket.on('error', (e) => deps.log.warn(e, 'socket error'));
  });

  async function answer(socket: FhSocket, req: unknown): Promise<SendReply> {
    const parsed = sendRequestSchema.safeParse(req);
    if (!parsed.success) return { err: { code: ERR.badInput, message: tk('The message is not a valid send request') } };
    const op = ops.get(parsed.data.op);
    if (!op) return { err: { code: ERR.badInput, message: tk(`Unknown operation '${parsed.data.op}'`) } };
    // A print agent's key speaks the agent protocol (and ping), nothing else: no topics, no events of the site.
    if (socket.data.auth.agent && !parsed.data.op.startsWith('agent/') && parsed.data.op !== 'ping') {
      return { err: { code: ERR.forbidden, message: tk('A print agent’s key only speaks the agent operations') } };
    }
    try {
      // Whatever an op returns goes out as JSON: anything else (a cycle, a function) is a failure here.
      return { data: JSON.parse(JSON.stringify(await op(socket, parsed.data.data)) ?? 'null') as unknown };
    } catch (e) {
      if (!(e instanceof AppError)) deps.log.error(e, 'socket send failed');
      return { err: e instanceof AppError ? e.err : { code: ERR.generic, message: tk('The operation failed') } };
    }
  }

  const realtime: Realtime = {
    emit(siteId, event, data, room) {
      let env: EventEnvelope<ServerEventPayload<typeof event>>;
      try {
        env = envelope(event, data);
      } catch (e) {
        deps.log.error(e, 'socket event not sent');
        return;
      }
      const nsp = io.of(`/${siteId}`);
      const target = room ? nsp.to(room) : nsp;
      (target.emit as (ev: ServerEventName, payload: typeof env) => void)(event, env);
    },
    printersOf: (siteId) => printers.get(siteId) ?? [],
    setPrinterSource(source) {
      printerSource = source;
    },
    setPrinters(siteId, list) {
      printers.set(siteId, list);
      realtime.emit(siteId, 'attachedPrinters', { printers: list }, 'labelPrinter');
    },
    handle(op, handler) {
      ops.set(op, (socket, data) => handler(clientOf(socket), data));
    },
    onDisconnect(listener) {
      disconnectListeners.push(listener);
    },
    clientCount: () => io.engine.clientsCount,
    closeRoom(siteId, room, notice, except) {
      // Through the adapter: with Redis, the sockets of the room on every node; the notice first.
      const inRoom = io.of(`/${siteId}`).in(room);
      const target = except ? inRoom.except(except) : inRoom;
      try {
        (target.emit as (ev: 'agentClosed', payload: unknown) => void)('agentClosed', envelope('agentClosed', notice));
      } catch (e) {
        deps.log.error(e, 'agentClosed not sent');
      }
      target.disconnectSockets(true);
    },
    disconnectToken(siteId, jti) {
      // Through the adapter: with Redis, the sockets of this token on every node.
      io.of(`/${siteId}`).in(tokenRoom(jti)).disconnectSockets(true);
    },
    async close() {
      await io.close();
      await Promise.all(redisClients.map((c) => c.quit().catch(() => undefined)));
    },
  };
  return realtime;
}
