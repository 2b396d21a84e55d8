import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { useAuthStore, type AuthUser } from '../../../lib/auth-store.ts';
import { openKioskSession } from '../../../lib/session.ts';

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
