import type { CallArgs } from '@floorhand/contract/api';
import { KIOSK_TIMEOUT_MAX_MINUTES } from '@floorhand/contract/kiosk';
import { ApiError, call } from '../../../lib/api.ts';
import { useAuthStore, type AuthUser } from '../../../lib/auth-store.ts';
import { openKioskSession } from '../../../lib/session.ts';

/** The device's kioskSessionTimeout as kiosk/start takes it (1 to KIOSK_TIMEOUT_MAX_MINUTES). */
export const kioskTimeout = (minutes: number): number => Math.min(KIOSK_TIMEOUT_MAX_MINUTES, Math.max(1, minutes));

/**
 * A badge at the kiosk: kiosk/start answers the worker, and the human token in its header (the
 * request helper keeps it in auth_settings.humanToken); the session becomes the worker's.
 */
export async function startKioskSession(args: CallArgs<'kiosk/start'>): Promise<AuthUser | null> {
  // A token left from an earlier worker is never sent with a new badge.
  useAuthStore.getState().setHumanToken(null);
  const res = await call('kiosk/start', args, { suppress: /.*/ });
  if (!res.user || !res.perms || !useAuthStore.getState().humanToken) return null;
  await openKioskSession(res.user, res.perms);
  return res.user;
}

/**
 * A badge scanned while a worker holds the kiosk: the session becomes the new badge's (kiosk/start
 * ends the one open on the server). A code that is no badge (404) leaves the worker's session as it
 * was and answers false: the scan was meant for the screen.
 */
export async function switchKioskWorker(args: CallArgs<'kiosk/start'>): Promise<boolean> {
  const previous = useAuthStore.getState().humanToken;
  try {
    if (await startKioskSession(args)) return true;
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  useAuthStore.getState().setHumanToken(previous);
  return false;
}
