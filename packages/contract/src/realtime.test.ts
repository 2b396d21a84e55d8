import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  REALTIME_TOPICS,
  SERVER_EVENT_NAMES,
  isRealtimeTopic,
  sendOps,
  serverEvents,
  type EventEnvelope,
  type RealtimeTopic,
  type SendOpAnswer,
  type ServerEventPayload,
  type ServerToClientEvents,
  type StockChanged,
} from './realtime.ts';

describe('socket events declared once', () => {
  it('derives the subscribable topics from the events that declare one', () => {
    expect(REALTIME_TOPICS).toEqual(['labelPrinter', 'featureAccess', 'stock', 'orders']);
    expectTypeOf<RealtimeTopic>().toEqualTypeOf<'labelPrinter' | 'featureAccess' | 'stock' | 'orders'>();
    for (const e of Object.values(serverEvents)) if ('topic' in e) expect(REALTIME_TOPICS).toContain(e.topic);
  });

  it('knows no topic named like an Object.prototype member', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'secrets', '', 42, null]) expect(isRealtimeTopic(name)).toBe(false);
    for (const topic of REALTIME_TOPICS) expect(isRealtimeTopic(topic)).toBe(true);
  });

  it("lists every event of the map, and types socket.io's event map from it", () => {
    expect(SERVER_EVENT_NAMES).toEqual(Object.keys(serverEvents));
    expectTypeOf<keyof ServerToClientEvents>().toEqualTypeOf<(typeof SERVER_EVENT_NAMES)[number]>();
    expectTypeOf<Parameters<ServerToClientEvents['stockChanged']>[0]>().toEqualTypeOf<EventEnvelope<StockChanged>>();
    expectTypeOf<ServerEventPayload<'attachedPrinters'>>().toEqualTypeOf<{
      printers: Array<{ id: string; name: string; agent: string }>;
    }>();
    expectTypeOf<SendOpAnswer<'ping'>>().toEqualTypeOf<{ pong: string }>();
  });

  it("validates a payload against its event's schema", () => {
    expect(serverEvents.stockChanged.payload.safeParse({ stockIds: ['S1'], locationIds: [] }).success).toBe(true);
    expect(serverEvents.stockChanged.payload.safeParse({ stockIds: 'S1' }).success).toBe(false);
    expect(serverEvents.featureAccessChanged.payload.safeParse({}).success).toBe(false);
    expect(sendOps.subscribe.request.safeParse({ topic: 'stock' }).success).toBe(true);
  });
});
