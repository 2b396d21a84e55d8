import type { SitePerms } from '@floorhand/contract/accounts';
import { isAdmin, ROLE } from '@floorhand/contract/perms';
import { actsForOrg, type Actor } from '../../lib/admins.ts';
import { tk } from '@floorhand/contract/i18n';

// Who may change what (docs/admin.md), as plain functions of their inputs. Each answers why a change
// is refused (a request that cannot be right is 'invalid', one the actor may not make 'forbidden'),
// or undefined when it is allowed.

export interface Problem {
  kind: 'invalid' | 'forbidden';
  message: string;
}
const invalid = (message: string): Problem => ({ kind: 'invalid', message });
const forbidden = (message: string): Problem => ({ kind: 'forbidden', message });

/** A site admin may not change an account that is an organisation admin on any site. */
export function accountChangeProblem(actor: Actor, targetPerms: SitePerms[]): Problem | undefined {
  if (actsForOrg(actor)) return undefined;
  if (targetPerms.some((p) => p.roles.includes(ROLE.orgAdmin)))
    return forbidden('Only an organisation administrator may change an organisation administrator’s account.');
  return undefined;
}

const flagsOf = (p: SitePerms | undefined) => [p?.kioskAcct ?? false, p?.timeclockAcct ?? false, p?.serviceAcct ?? false].join();

/**
 * Checks a change of an account's perms. `before` and `after` hold the sites concerned. Nobody raises
 * their own rights: no role added to one's own account, no own account-type flag changed, and one's
 * own last admin role on this site stays. Nobody hands out orgAdmin but an organisation admin.
 */
export function permsChangeProblem(
  actor: Actor,
  targetId: string,
  before: SitePerms[],
  after: SitePerms[],
  knownRoles: ReadonlySet<string>,
  orgSites: readonly string[],
): Problem | undefined {
  const self = targetId === actor.accountId;
  for (const next of after) {
    if (!orgSites.includes(next.siteId)) return invalid(tk(`Unknown site '${next.siteId}'.`));
    const unknown = next.roles.find((r) => !knownRoles.has(r));
    if (unknown) return invalid(tk(`There is no role '${unknown}'. Create it under Account Roles first.`));
    if (next.serviceAcct && (next.kioskAcct || next.timeclockAcct))
      return invalid(tk('A service account cannot also be a kiosk or time-clock account.'));
    if (!actsForOrg(actor) && next.siteId !== actor.siteId)
      return forbidden('A site administrator may only change roles and account types on their own site.');
    const prev = before.find((p) => p.siteId === next.siteId);
    const added = next.roles.filter((r) => !(prev?.roles ?? []).includes(r));
    if (self && added.length) return forbidden(`You cannot give yourself a role (${added.join(', ')}). Ask another administrator.`);
    if (self && flagsOf(prev) !== flagsOf(next)) return forbidden('You cannot change the account type of your own account.');
    if (added.includes(ROLE.orgAdmin) && !actsForOrg(actor))
      return forbidden('Only an organisation administrator may grant the orgAdmin role.');
    if (self && next.siteId === actor.siteId && !isAdmin(next))
      return forbidden('You cannot remove your own last administrator role. Ask another administrator.');
  }
  return undefined;
}
