import type { Printer, ServerEventName, ServerEventPayload } from '@floorhand/contract/realtime';

// What the modules may do with the socket server (modules/realtime/socket.ts builds it): part of every
// call's Deps (lib/calls.ts), so declared here, where lib/ and the modules both may import it.

export interface Realtime {
  /**
   * Emits a declared event (contract `serverEvents`) to every socket of a site (optionally one room of
   * it) with an increasing event id. A payload its schema refuses is logged and not sent.
   */
  emit<E extends ServerEventName>(siteId: string, event: E, data: ServerEventPayload<E>, room?: string): void;
  printersOf(siteId: string): Printer[];
  /** Disconnects every socket opened with the token `jti` of `siteId`, on every node (after logout). */
  disconnectToken(siteId: string, jti: string): void;
  close(): Promise<void>;
}
