import { z } from 'zod';
import type { ServerErr } from './errors.ts';
import { agentClosedSchema, agentHelloSchema, agentResultSchema, labelAgentSchema, labelJobSchema, printJobSchema } from './labels.ts';

// Socket events, declared once: the server's events and the client's send operations are maps of
// name → zod schema. socket.io's Server<...> and Socket<...> types, the server's typed emit, its list
// of subscribable topics and the web's listeners are all derived from these two maps. Adding an event
// is one entry here, the emit that sends it and the listener that reads it.

export const printerSchema = z.object({ id: z.string(), name: z.string(), agent: z.string() });
export type Printer = z.infer<typeof printerSchema>;

/** After a committed change of stock: the stock ids (labels) and location ids it touched; reload what shows them. */
export const stockChangedSchema = z.object({ stockIds: z.array(z.string()), locationIds: z.array(z.string()) });
export type StockChanged = z.infer<typeof stockChangedSchema>;
/** After a committed change of orders (a claim, a pick, a status): their ids; reload what shows them (claimants included). */
export const ordersChangedSchema = z.object({ orderIds: z.array(z.string()) });

/**
 * Server → client events: each one's payload, and the topic a client subscribes to for it (an event
 * without a topic goes to every socket of the site or a room the server picks).
 */
export const serverEvents = {
  attachedPrinters: { topic: 'labelPrinter', payload: z.object({ printers: z.array(printerSchema) }) },
  featureAccessChanged: { topic: 'featureAccess', payload: z.object({ siteId: z.string() }) },
  sessionClosed: { payload: z.object({ reason: z.string() }) },
  stockChanged: { topic: 'stock', payload: stockChangedSchema },
  /** The print agents of the site and their printers' states, whenever one changes. */
  labelAgents: { topic: 'labelPrinter', payload: z.object({ agents: z.array(labelAgentSchema) }) },
  /** A print job changed state: to the Label Printers page and to the person who printed. */
  labelJob: { topic: 'labelPrinter', payload: z.object({ job: labelJobSchema }) },
  /** To one print agent (its room): a job to print. */
  printJob: { payload: printJobSchema },
  /** To one print agent's connection just before the server closes it: taken over by a newer connection, or revoked. */
  agentClosed: { payload: agentClosedSchema },
  ordersChanged: { topic: 'orders', payload: ordersChangedSchema },
} as const satisfies Record<string, { topic?: string; payload: z.ZodType }>;

export type ServerEventName = keyof typeof serverEvents;
export type ServerEventPayload<E extends ServerEventName> = z.infer<(typeof serverEvents)[E]['payload']>;
export const SERVER_EVENT_NAMES = Object.keys(serverEvents) as ServerEventName[];

type TopicOf<E> = E extends { topic: infer T extends string } ? T : never;
/** What a client may subscribe to: the topics of the server events, derived from the map. */
export type RealtimeTopic = TopicOf<(typeof serverEvents)[ServerEventName]>;
export const REALTIME_TOPICS: readonly RealtimeTopic[] = [
  ...new Set(Object.values(serverEvents).flatMap((e): RealtimeTopic[] => ('topic' in e ? [e.topic] : []))),
];
/** Whether a value names a topic (a Set: `constructor` or `__proto__` is no topic). */
const topicSet: ReadonlySet<string> = new Set(REALTIME_TOPICS);
export const isRealtimeTopic = (value: unknown): value is RealtimeTopic => typeof value === 'string' && topicSet.has(value);

/** Every server event carries an id that increases per event type; older ones are dropped. */
export interface EventEnvelope<T> {
  eventId: number;
  data: T;
}

/**
 * Client → server operations of the generic send: each one's request data and answer. A request's
 * data is checked by the op itself (so an op can answer a bad one in its own words).
 */
export const sendOps = {
  ping: { request: z.unknown(), answer: z.object({ pong: z.string() }) },
  subscribe: { request: z.object({ topic: z.string() }), answer: z.object({ topic: z.string() }) },
  /** A print agent (with its agent credential) says who it is and its printers; answered with its pending jobs. */
  'agent/hello': {
    request: agentHelloSchema,
    answer: z.object({ agentId: z.string(), pending: z.array(printJobSchema), heartbeatSecs: z.number().int().optional() }),
  },
  /** A print agent's printers' states: when they change, and as its heartbeat (at least every heartbeatSecs). */
  'agent/status': { request: agentHelloSchema.pick({ printers: true }), answer: z.object({ ok: z.boolean() }) },
  /** A print agent reports a job's state (queued, sent, printed, held, failed with the reason). */
  'agent/result': { request: agentResultSchema, answer: z.object({ ok: z.boolean() }) },
} as const satisfies Record<string, { request: z.ZodType; answer: z.ZodType }>;

export type SendOpName = keyof typeof sendOps;
export type SendOpRequest<O extends SendOpName> = z.infer<(typeof sendOps)[O]['request']>;
export type SendOpAnswer<O extends SendOpName> = z.infer<(typeof sendOps)[O]['answer']>;

/** The generic send: the client adds its token, local time, time zone and offset. */
export const sendRequestSchema = z.object({
  op: z.string().min(1).max(100),
  data: z.unknown().optional(),
  token: z.string().optional(),
  clientTime: z.string().optional(),
  timeZone: z.string().optional(),
  tzOffset: z.number().optional(),
});
export type SendRequest = z.infer<typeof sendRequestSchema>;
export interface SendReply<T = unknown> {
  err?: ServerErr;
  data?: T;
}

/** socket.io's event map of the server's events, derived from `serverEvents`. */
export type ServerToClientEvents = {
  [E in ServerEventName]: (e: EventEnvelope<ServerEventPayload<E>>) => void;
};

export interface ClientToServerEvents {
  send: (req: SendRequest, ack: (reply: SendReply) => void) => void;
}
