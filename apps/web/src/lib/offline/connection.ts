import { create } from 'zustand';
import { RECONNECT_PROBE_MS } from '@floorhand/contract/offline';

/**
 * What the device knows of its connection to the server (issue 27), for the header's indicator and
 * the outbox:
 * - `online`: the last request reached the server;
 * - `offline`: the device has no network (the browser says so);
 * - `reconnecting`: the device has a network but the server cannot be reached (the uplink or the
 *   server is down); a probe asks the server's health until it answers.
 */
export type ConnectionState = 'online' | 'offline' | 'reconnecting';

export const useConnection = create<{ state: ConnectionState; since: number }>()(() => ({
  state: typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'online',
  since: Date.now(),
}));

const reachedListeners = new Set<() => void>();
/** Called each time the server answers again after it could not be reached (the outbox replays). */
export function onServerReached(fn: () => void): () => void {
  reachedListeners.add(fn);
  return () => reachedListeners.delete(fn);
}

let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeDelay: number = RECONNECT_PROBE_MS.first;

function set(state: ConnectionState): void {
  if (useConnection.getState().state !== state) useConnection.setState({ state, since: Date.now() });
}

/** A request reached the server: online again (and whoever waited for it is told). */
export function reportReachable(): void {
  // An answer to a request sent before the network went (the browser says offline now) does not make it online.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  const was = useConnection.getState().state;
  stopProbe();
  set('online');
  if (was !== 'online') for (const fn of reachedListeners) fn();
}

/** A request could not reach the server: offline or reconnecting, and a probe starts. */
export function reportUnreachable(): void {
  set(typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'reconnecting');
  scheduleProbe();
}

function stopProbe(): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  probeDelay = RECONNECT_PROBE_MS.first;
}

function scheduleProbe(): void {
  if (probeTimer) return;
  probeTimer = setTimeout(() => {
    probeTimer = null;
    void probe();
  }, probeDelay);
  probeDelay = Math.min(probeDelay * 2, RECONNECT_PROBE_MS.max);
}

/** Asks the server's health once; an answer means online. */
export async function probe(): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    set('offline');
    scheduleProbe();
    return false;
  }
  try {
    const res = await fetch('/api/health', { cache: 'no-store' });
    if (res.ok) {
      reportReachable();
      return true;
    }
  } catch {
    /* still unreachable */
  }
  if (useConnection.getState().state === 'online') set('reconnecting');
  scheduleProbe();
  return false;
}

/** The browser's own network events; attached once by the shell. */
export function attachConnectionEvents(): () => void {
  const offline = (): void => reportUnreachable();
  const online = (): void => {
    probeDelay = RECONNECT_PROBE_MS.first;
    void probe();
  };
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);
  return () => {
    window.removeEventListener('offline', offline);
    window.removeEventListener('online', online);
  };
}
