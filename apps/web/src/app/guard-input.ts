import { currentClaims, isAuthenticated } from '../lib/auth-store.ts';
import { useMachineStore } from '../lib/machine-store.ts';
import { useSessionStore } from '../lib/session-store.ts';
import type { GuardInput } from './guards.ts';

/** The guards' input, read from the stores at navigation time. */
export function readGuardInput(): GuardInput {
  const claims = currentClaims();
  const session = useSessionStore.getState();
  const ws = useMachineStore.getState().workstation;
  return {
    authenticated: isAuthenticated(),
    loginPerms: claims?.perms ?? null,
    sessionPerms: session.perms ?? claims?.perms ?? null,
    workstation: { timeclockOnly: ws.timeclockOnly, kioskOnly: ws.kioskOnly },
    workstationAuth: claims?.ws ?? null,
    featureAccess: session.featureAccess,
  };
}
