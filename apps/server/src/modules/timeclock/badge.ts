import { hash } from '@node-rs/argon2';
import { PIN_LOCK_MINUTES, PIN_MAX_FAILURES } from '@floorhand/contract/timeclock';
import { accountKindOf } from '@floorhand/contract/rights';
import type { UserPerms } from '@floorhand/contract/perms';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Deps } from '../../lib/calls.ts';
import { notFound, rateLimited } from '../../lib/errors.ts';
import { passwordMatches } from '../../lib/passwords.ts';
import { badgeLimiter } from './badge-limiter.ts';
import { findBadge } from './repository.ts';
import { tk } from '@floorhand/contract/i18n';

// A badge read at a shared device (the time clock, the kiosk): the worker it names, checked the same
// way in both places. The answer never says more than "not recognised": no list of staff, and a typed
// badge cannot be told apart from a wrong PIN.

export interface BadgeHolder {
  id: string;
  userName: string;
  firstName: string;
  surnames: string;
  perms: UserPerms;
}

export interface BadgeInput {
  badge: string;
  entry?: 'scan' | 'typed';
  pin?: string;
}

const NOT_RECOGNISED = tk('Badge or PIN not recognised. Try again or ask a supervisor.');
const WINDOW_MS = PIN_LOCK_MINUTES * 60_000;

export const hashPin = (pin: string): Promise<string> => hash(pin);

/**
 * The worker behind a badge on the caller's site: an active person account of the organisation with
 * rights on this site. A PIN sent is always checked; a typed badge always needs the worker's PIN. Failures count per badge (PIN_MAX_FAILURES in PIN_LOCK_MINUTES, on every node through the
 * limit store); while locked, even the right PIN is refused. Failures also count per device and per
 * organisation (badge-limiter.ts): a device past its limit is refused every badge.
 */
export async function identifyBadge(deps: Deps, auth: AuthContext, input: BadgeInput): Promise<BadgeHolder> {
  const key = `badge-pin:${auth.orgId}:${input.badge}`;
  const checksPin = input.pin !== undefined || input.entry === 'typed';
  const device = badgeLimiter(deps, auth);
  await device.check(checksPin ? 'pin' : 'scan');
  if (checksPin) {
    const state = await deps.limitStore.get(key);
    if (state.count >= PIN_MAX_FAILURES) {
      throw rateLimited(
        `Too many wrong attempts for this badge. Try again in ${Math.max(1, Math.ceil(state.resetInMs / 60_000))} minutes or ask a supervisor.`,
      );
    }
  }
  // One round trip: the account, its PIN hash and its rights on this site.
  const row = await findBadge(deps.db, auth.orgId, input.badge, auth.siteId, auth.appId);
  const perms: UserPerms | undefined =
    row?.active && row.roles !== null
      ? {
          roles: row.roles,
          kioskAcct: row.kioskAcct ?? false,
          timeclockAcct: row.timeclockAcct ?? false,
          serviceAcct: row.serviceAcct ?? false,
        }
      : undefined;
  const usable = !!row && !!perms && accountKindOf(perms) === 'person';
  // A typed badge always needs the worker's PIN (a blank or absent PIN never passes); a PIN is checked
  // against the decoy when the badge is unknown, so timing does not tell which badges exist.
  const pinOk = !checksPin || (input.pin !== undefined && (await passwordMatches(row?.pinHash, input.pin)));
  if (!usable || !pinOk) {
    await Promise.all([
      checksPin ? deps.limitStore.hit(key, WINDOW_MS, PIN_MAX_FAILURES) : undefined,
      device.recordFailure(checksPin ? 'pin' : 'scan'),
    ]);
    throw notFound(NOT_RECOGNISED);
  }
  if (checksPin) await deps.limitStore.reset(key);
  return { id: row.id, userName: row.userName, firstName: row.firstName, surnames: row.surnames, perms: perms! };
}
