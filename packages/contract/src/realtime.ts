import { z } from 'zod';
import type { ServerErr } from './errors.ts';

// Socket events, typed once and passed to socket.io's Server<...> and Socket<...> on both ends.

export const REALTIME_TOPICS = ['labelPrinter', 'featureAccess', 'stock'] as const;
export type RealtimeTopic = (typeof REALTIME_TOPICS)[number];

export const printerSchema = z.object({ id: z.string(), name: z.string(), agent: z.string() });
export type Printer = z.infer<typeof printerSchema>;

/** Every server event carries an id that increases per event type; older ones are dropped. */
export interface EventEnvelope<T> {
  eventId: number;
  data: T;
}

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
export interface SendReply {
  err?: ServerErr;
  data?: unknown;
}

export interface ServerToClientEvents {
  attachedPrinters: (e: EventEnvelope<{ printers: Printer[] }>) => void;
  featureAccessChanged: (e: EventEnvelope<{ siteId: string }>) => void;
  sessionClosed: (e: EventEnvelope<{ reason: string }>) => void;
  /** After a committed movement: the stock ids (labels) and location ids it touched; reload what shows them. */
  stockChanged: (e: EventEnvelope<{ stockIds: string[]; locationIds: string[] }>) => void;
}

export interface ClientToServerEvents {
  send: (req: SendRequest, ack: (reply: SendReply) => void) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
