import type { CallPath, CallResponse } from '@floorhand/contract/api';
import { isAdmin, isOrgAdmin, type UserPerms } from '@floorhand/contract/perms';
import { isUniqueViolation } from '../db/errors.ts';
import type { AuthContext } from './auth-context.ts';
import { writeAuditLog } from './audit.ts';
import type { Deps } from './calls.ts';
import { dupMessage, forbidden } from './errors.ts';

// What the administration modules share (accounts, roles, site-admin; docs/admin.md): who acts, for
// which sites, the admin checks, and the audit entry every change writes.

export type R<P extends CallPath> = Promise<CallResponse<P>>;

export interface Actor {
  accountId: string;
  siteId: string;
  /** The actor's perms on the site of the token. */
  perms: UserPerms;
}

/** Organisation admins manage the whole organisation; site admins their own site. */
export const actsForOrg = (a: Actor): boolean => isOrgAdmin(a.perms);

/** The sites whose perms an admin sees of an account: all of the organisation's, or a site admin's own. */
export const visibleSites = (actor: Actor, orgSites: readonly string[]): string[] =>
  actsForOrg(actor) ? [...orgSites] : orgSites.filter((s) => s === actor.siteId);

export function requireAdmin(auth: AuthContext): Actor {
  if (!isAdmin(auth.perms)) throw forbidden('Only site or organisation administrators may do this');
  return { accountId: auth.accountId, siteId: auth.siteId, perms: auth.perms };
}

export function requireOrgAdmin(auth: AuthContext): Actor {
  const actor = requireAdmin(auth);
  if (!isOrgAdmin(auth.perms))
    throw forbidden('Roles belong to the whole organisation: only organisation administrators may create, rename or remove them');
  return actor;
}

export async function audit(
  deps: Deps,
  auth: AuthContext,
  action: string,
  entity: string,
  entityId: string,
  before: unknown,
  after: unknown,
): Promise<void> {
  await writeAuditLog(deps.db, {
    orgId: auth.orgId,
    siteId: auth.siteId,
    accountId: auth.accountId,
    action,
    entity,
    entityId,
    before: before ?? null,
    after: after ?? null,
  });
}

/** Unique indexes close the race between the clash check and the write. */
export async function guardedWrite<T>(write: () => Promise<T>, what: string): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e)) throw dupMessage(`${what} is already used by another account.`);
    throw e;
  }
}
