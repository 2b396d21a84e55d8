import type { Printer, SendOpAnswer, SendOpName, ServerEventName, ServerEventPayload } from '@floorhand/contract/realtime';
import type { AuthContext } from './auth-context.ts';

// What the modules may do with the socket server (modules/realtime/socket.ts builds it): part of every
// call's Deps (lib/calls.ts), so declared here, where lib/ and the modules both may import it.

export interface Realtime {
  /**
   * Emits a declared event (contract `serverEvents`) to every socket of a site (optionally one room of
   * it) with an increasing event id. A payload its schema refuses is logged and not sent.
   */
  emit<E extends ServerEventName>(siteId: string, event: E, data: ServerEventPayload<E>, room?: string): void;
  /** The printers this node last set for a site (the source's answer is the one to believe on several nodes). */
  printersOf(siteId: string): Printer[];
  /**
   * Where the attached printers of a site are read from when a socket subscribes to the labelPrinter
   * topic (the labels module: the database, right on every node). Without one, this node's own list.
   */
  setPrinterSource(source: (orgId: string, siteId: string) => Promise<Printer[]>): void;
  /** Sets a site's attached printers (docIo/zplPrinter/getAttachedPrinters) and sends attachedPrinters to its labelPrinter topic. */
  setPrinters(siteId: string, printers: Printer[]): void;
  /** Answers a send op (contract `sendOps`) of a module; the op checks its own data. */
  handle<O extends SendOpName>(op: O, handler: (client: SocketClient, data: unknown) => Promise<SendOpAnswer<O>>): void;
  /** Called when a socket closes. */
  onDisconnect(listener: (client: SocketClient) => void): void;
  /** Socket connections open on this node (every site's), for /metrics. */
  clientCount(): number;
  /**
   * Sends `agentClosed` with `notice` to every socket of a room of `siteId` (but `except`, a socket id),
   * then disconnects them, on every node (a print agent taken over or revoked).
   */
  closeRoom(siteId: string, room: string, notice: ServerEventPayload<'agentClosed'>, except?: string): void;
  /** Disconnects every socket opened with the token `jti` of `siteId`, on every node (after logout). */
  disconnectToken(siteId: string, jti: string): void;
  close(): Promise<void>;
}

/** One connected socket as a module's send op sees it. */
export interface SocketClient {
  id: string;
  auth: AuthContext;
  /** Joins a room of the socket's site (e.g. a print agent's), so emit(siteId, event, data, room) reaches it. */
  join(room: string): Promise<void>;
}
