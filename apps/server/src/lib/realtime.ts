import type { Printer, ServerToClientEvents } from '@floorhand/contract/realtime';

// What the modules may do with the socket server (modules/realtime/socket.ts builds it): part of every
// call's Deps (lib/calls.ts), so declared here, where lib/ and the modules both may import it.

export type Payload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0]['data'];

export interface Realtime {
  /** Emits an event to every socket of a site (optionally one room of it) with an increasing event id. */
  emit<E extends keyof ServerToClientEvents>(siteId: string, event: E, data: Payload<E>, room?: string): void;
  printersOf(siteId: string): Printer[];
  /** Disconnects every socket opened with the token `jti` of `siteId`, on every node (after logout). */
  disconnectToken(siteId: string, jti: string): void;
  close(): Promise<void>;
}
