import { randomInt } from 'node:crypto';
import { isUniqueViolation } from '../../db/errors.ts';
import { hash } from '@node-rs/argon2';
import { myAccountProblem, passwordProblem, type Account, type SitePerms } from '@floorhand/contract/accounts';
import { EVERYONE, type FeatureGrid } from '@floorhand/contract/roles';
import { PAIR_CODE_TTL_SECS } from '@floorhand/contract/site-admin';
import type { CallArgs, CallPath, CallResponse } from '@floorhand/contract/api';
import { FEATURES, normaliseLevel } from '@floorhand/contract/features';
import { isAdmin, isOrgAdmin } from '@floorhand/contract/perms';
import type { AuditStamp } from '../../db/schema.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId, writeAuditLog } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { accountRestricted, badInput, dup, dupMessage, forbidden, notFound, rateLimited } from '../../lib/errors.ts';
import { findAccount, permsOf } from '../../db/accounts.ts';
import { passwordMatches } from '../../lib/passwords.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import { putSiteData } from '../site/service.ts';
import { newApiKey } from '../../lib/api-key.ts';
import { hashDeviceSecret, newDeviceSecret, newPairCode } from '../../lib/device-secret.ts';
import * as repo from './repository.ts';
import { accountChangeProblem, actsForOrg, permsChangeProblem, visibleSites, type Actor, type Problem } from './rules.ts';

// Administration (docs/admin.md). Every call is scoped to the organisation and site of the caller's
// token; an account id of another organisation is simply not found.

type R<P extends CallPath> = Promise<CallResponse<P>>;

const refuse = (p: Problem) => (p.kind === 'invalid' ? badInput(p.message) : forbidden(p.message));

function requireAdmin(auth: AuthContext): Actor {
  if (!isAdmin(auth.perms)) throw forbidden('Only site or organisation administrators may do this');
  return { accountId: auth.accountId, siteId: auth.siteId, perms: auth.perms };
}

function requireOrgAdmin(auth: AuthContext): Actor {
  const actor = requireAdmin(auth);
  if (!isOrgAdmin(auth.perms)) throw forbidden('Roles belong to the whole organisation: only organisation administrators may create, rename or remove them');
  return actor;
}

async function audit(deps: Deps, auth: AuthContext, action: string, entity: string, entityId: string, before: unknown, after: unknown): Promise<void> {
  await writeAuditLog(deps.db, { orgId: auth.orgId, siteId: auth.siteId, accountId: auth.accountId, action, entity, entityId, before: before ?? null, after: after ?? null });
}

const toSitePerms = (p: repo.PermsRow): SitePerms => ({ siteId: p.siteId, roles: p.roles, kioskAcct: p.kioskAcct, timeclockAcct: p.timeclockAcct, serviceAcct: p.serviceAcct });
const nullIfEmpty = (s: string | undefined) => (s === undefined ? undefined : s.trim() || null);

function toAccount(row: repo.AccountRow, perms: SitePerms[], sites: readonly string[], editable: boolean): Account {
  return {
    id: row.id,
    userName: row.userName,
    firstName: row.firstName,
    surnames: row.surnames,
    email: row.email ?? '',
    badgeCode: row.badgeCode ?? '',
    active: row.active,
    hasPassword: !!row.passwordHash,
    apiKey: row.apiKeyPrefix && row.apiKeyCreatedAt ? { prefix: row.apiKeyPrefix, createdAt: row.apiKeyCreatedAt.toISOString() } : null,
    perms: perms.filter((p) => sites.includes(p.siteId)),
    editable,
  };
}

async function accountsView(deps: Deps, auth: AuthContext, actor: Actor, rows: repo.AccountRow[]): Promise<Account[]> {
  const [allPerms, orgSites] = await Promise.all([permsOf(deps.db, rows.map((r) => r.id), auth.appId), repo.orgSiteIds(deps.db, auth.orgId)]);
  const sites = visibleSites(actor, orgSites);
  return rows.map((row) => {
    const perms = allPerms.filter((p) => p.accountId === row.id).map(toSitePerms);
    return toAccount(row, perms, sites, !accountChangeProblem(actor, perms));
  });
}

async function loadTarget(deps: Deps, auth: AuthContext, actor: Actor, accountId: string) {
  const row = await repo.findOrgAccount(deps.db, auth.orgId, accountId);
  if (!row) throw notFound('The account was not found');
  const perms = (await permsOf(deps.db, [row.id], auth.appId)).map(toSitePerms);
  const problem = accountChangeProblem(actor, perms);
  return { row, perms, problem };
}

async function checkClash(deps: Deps, orgId: string, exceptId: string | null, userName?: string, badgeCode?: string | null): Promise<void> {
  const clash = await repo.findClash(deps.db, orgId, exceptId, userName, badgeCode);
  if (!clash) return;
  if (userName && clash.userName.toLowerCase() === userName.toLowerCase()) throw dup('account', userName);
  throw dupMessage(`The badge code '${badgeCode}' is already used by account '${clash.userName}'.`);
}

/** Unique indexes close the race between the clash check and the write. */
async function guardedWrite<T>(write: () => Promise<T>, what: string): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e)) throw dupMessage(`${what} is already used by another account.`);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Own account

/** Shared devices and integrations do not manage an account of their own (spec: Access Restricted). */
function requireOwnAccountUse(auth: AuthContext): void {
  const p = auth.perms;
  if (p.kioskAcct || p.timeclockAcct || p.serviceAcct) {
    throw accountRestricted('Kiosk, time-clock and service accounts cannot change their own account.');
  }
}

async function myAccount(deps: Deps, auth: AuthContext): Promise<Account> {
  const row = await findAccount(deps.db, auth.accountId);
  if (!row) throw notFound('The account was not found');
  return toAccount(row, [{ siteId: auth.siteId, ...auth.perms }], [auth.siteId], true);
}

export async function getMe(deps: Deps, auth: AuthContext): R<'account/me/get'> {
  return { account: await myAccount(deps, auth) };
}

export async function updateMe(deps: Deps, auth: AuthContext, body: CallArgs<'account/me/update'>): R<'account/me/update'> {
  requireOwnAccountUse(auth);
  const problem = myAccountProblem(body.account);
  if (problem) throw badInput(problem);
  const before = await myAccount(deps, auth);
  const row = await findAccount(deps.db, auth.accountId);
  const { firstName, surnames, email } = body.account;
  await repo.updateAccount(deps.db, auth.orgId, auth.accountId, { firstName, surnames, email: nullIfEmpty(email), audit: auditStamp(auth.accountId, row?.audit) });
  const after = await myAccount(deps, auth);
  await audit(deps, auth, 'account/me/update', 'account', auth.accountId, before, after);
  return { account: after };
}

/**
 * A session left open must not become a way to guess its owner's password: wrong current passwords
 * are limited like failed logins (modules/auth/login-limiter.ts), per address and account, per account
 * and per address (5 in 15 minutes from one address, then 429).
 */
export async function changeMyPassword(deps: Deps, limiter: LoginLimiter, auth: AuthContext, body: CallArgs<'account/me/changePassword'>, clientIp: string): R<'account/me/changePassword'> {
  requireOwnAccountUse(auth);
  const attempt = { address: clientIp, account: auth.accountId };
  const wait = await limiter.retryAfterMs(attempt);
  if (wait > 0) {
    throw rateLimited(`Too many wrong passwords. Try again in ${Math.ceil(wait / 60_000)} minute(s).`);
  }
  const row = await findAccount(deps.db, auth.accountId);
  if (!row || !(await passwordMatches(row.passwordHash, body.oldPassword))) {
    await limiter.recordFailure(attempt);
    throw badInput('The current password is not correct.');
  }
  await limiter.recordSuccess(attempt);
  const problem = passwordProblem(body.newPassword, row.userName) ?? (body.newPassword === body.oldPassword ? 'The new password must differ from the current one.' : undefined);
  if (problem) throw badInput(problem);
  await repo.updateAccount(deps.db, auth.orgId, auth.accountId, { passwordHash: await hash(body.newPassword), mustChangePassword: false, audit: auditStamp(auth.accountId, row.audit) });
  await audit(deps, auth, 'account/me/changePassword', 'account', auth.accountId, null, { userName: row.userName, password: 'changed' });
  return {};
}

// ---------------------------------------------------------------------------------------------
// Accounts of the organisation

export async function listAccounts(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/list'>): R<'admin/account/list'> {
  const actor = requireAdmin(auth);
  const { rows, total } = await repo.listAccounts(deps.db, auth.orgId, { search: body.search, includeInactive: body.includeInactive ?? false, offset: body.offset ?? 0, limit: body.limit ?? 50 });
  return { accounts: await accountsView(deps, auth, actor, rows), total };
}

async function viewOne(deps: Deps, auth: AuthContext, actor: Actor, id: string): Promise<Account> {
  const row = await repo.findOrgAccount(deps.db, auth.orgId, id);
  if (!row) throw notFound('The account was not found');
  const [view] = await accountsView(deps, auth, actor, [row]);
  return view!;
}

export async function getAccount(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/get'>): R<'admin/account/get'> {
  return { account: await viewOne(deps, auth, requireAdmin(auth), body.accountId) };
}

async function knownRoles(deps: Deps, orgId: string): Promise<Set<string>> {
  return new Set((await repo.listRoles(deps.db, orgId)).map((r) => r.name));
}

/** Checks a change of an account's perms (rules.ts). */
async function checkPerms(deps: Deps, auth: AuthContext, actor: Actor, targetId: string, before: SitePerms[], after: SitePerms[]): Promise<void> {
  const siteIds = after.map((p) => p.siteId);
  if (new Set(siteIds).size !== siteIds.length) throw badInput('Each site may appear only once in perms.');
  const problem = permsChangeProblem(actor, targetId, before, after, await knownRoles(deps, auth.orgId), await repo.orgSiteIds(deps.db, auth.orgId));
  if (problem) throw refuse(problem);
}

async function writePerms(db: Deps['db'], accountId: string, appId: string, perms: SitePerms[], stamp: AuditStamp): Promise<void> {
  for (const p of perms) {
    await repo.upsertPerms(db, { accountId, siteId: p.siteId, appId, roles: [...new Set(p.roles)], kioskAcct: p.kioskAcct, timeclockAcct: p.timeclockAcct, serviceAcct: p.serviceAcct, audit: stamp });
  }
}

export async function createAccount(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/create'>): R<'admin/account/create'> {
  const actor = requireAdmin(auth);
  const id = newId();
  const perms = body.perms.length ? body.perms : [{ siteId: auth.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }];
  await checkPerms(deps, auth, actor, id, [], perms);
  const service = perms.some((p) => p.serviceAcct);
  if (service && body.password) throw badInput('Service accounts use an API key, not a password: leave the password empty and issue a key.');
  if (!service) {
    const problem = body.password ? passwordProblem(body.password, body.account.userName) : 'A password is required (at least 8 characters).';
    if (problem) throw badInput(problem);
  }
  const f = body.account;
  await checkClash(deps, auth.orgId, null, f.userName, nullIfEmpty(f.badgeCode));
  const stamp = auditStamp(auth.accountId);
  const passwordHash = service || !body.password ? null : await hash(body.password);
  await guardedWrite(
    () =>
      deps.db.transaction(async (tx) => {
        await repo.insertAccount(tx, { id, orgId: auth.orgId, userName: f.userName, firstName: f.firstName, surnames: f.surnames, email: nullIfEmpty(f.email), badgeCode: nullIfEmpty(f.badgeCode), passwordHash, audit: stamp });
        await writePerms(tx, id, auth.appId, perms, stamp);
      }),
    'The account name or badge code',
  );
  const account = await viewOne(deps, auth, actor, id);
  await audit(deps, auth, 'admin/account/create', 'account', id, null, account);
  return { account };
}

export async function updateAccount(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/update'>): R<'admin/account/update'> {
  const actor = requireAdmin(auth);
  const target = await loadTarget(deps, auth, actor, body.accountId);
  if (target.problem) throw refuse(target.problem);
  const f = body.account ?? {};
  const self = target.row.id === auth.accountId;
  if (self && f.active === false) throw forbidden('You cannot deactivate your own account. Ask another administrator.');
  if (body.perms) await checkPerms(deps, auth, actor, target.row.id, target.perms, body.perms);
  await checkClash(deps, auth.orgId, target.row.id, f.userName, nullIfEmpty(f.badgeCode));
  const before = await viewOne(deps, auth, actor, target.row.id);
  // A service account on any site has no password (it cannot log in); an account that is one nowhere keeps no API key.
  const merged = [...target.perms.filter((p) => !body.perms?.some((n) => n.siteId === p.siteId)), ...(body.perms ?? [])];
  const service = merged.some((p) => p.serviceAcct);
  const stamp = auditStamp(auth.accountId, target.row.audit);
  await guardedWrite(
    () =>
      deps.db.transaction(async (tx) => {
        await repo.updateAccount(tx, auth.orgId, target.row.id, {
          ...(f.userName !== undefined ? { userName: f.userName } : {}),
          ...(f.firstName !== undefined ? { firstName: f.firstName } : {}),
          ...(f.surnames !== undefined ? { surnames: f.surnames } : {}),
          ...(f.email !== undefined ? { email: nullIfEmpty(f.email) } : {}),
          ...(f.badgeCode !== undefined ? { badgeCode: nullIfEmpty(f.badgeCode) } : {}),
          ...(f.active !== undefined ? { active: f.active } : {}),
          ...(service ? { passwordHash: null } : { apiKeyHash: null, apiKeyPrefix: null, apiKeyCreatedAt: null }),
          audit: stamp,
        });
        if (body.perms) await writePerms(tx, target.row.id, auth.appId, body.perms, stamp);
      }),
    'The account name or badge code',
  );
  const account = await viewOne(deps, auth, actor, target.row.id);
  await audit(deps, auth, 'admin/account/update', 'account', target.row.id, before, account);
  // Roles decide visible features: every session of a changed site reloads them.
  for (const siteId of new Set((body.perms ?? []).map((p) => p.siteId))) deps.realtime.emit(siteId, 'featureAccessChanged', { siteId });
  return { account };
}

/** Passwords of other accounts: one's own changes with the current password (account/me/changePassword). */
async function passwordTarget(deps: Deps, auth: AuthContext, accountId: string) {
  const actor = requireAdmin(auth);
  const target = await loadTarget(deps, auth, actor, accountId);
  if (target.problem) throw refuse(target.problem);
  if (target.row.id === auth.accountId) throw forbidden('Change your own password under My account, with your current password.');
  if (target.perms.some((p) => p.serviceAcct)) throw badInput('Service accounts have no password; issue an API key instead.');
  return target;
}

export async function setPassword(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/setPassword'>): R<'admin/account/setPassword'> {
  const target = await passwordTarget(deps, auth, body.accountId);
  const problem = passwordProblem(body.password, target.row.userName);
  if (problem) throw badInput(problem);
  // A password an admin sets is temporary: the account chooses its own at its next login.
  await repo.updateAccount(deps.db, auth.orgId, target.row.id, { passwordHash: await hash(body.password), mustChangePassword: true, audit: auditStamp(auth.accountId, target.row.audit) });
  await audit(deps, auth, 'admin/account/setPassword', 'account', target.row.id, null, { userName: target.row.userName, password: 'set' });
  return {};
}

/** Letters and digits that cannot be mistaken for each other when read out or typed from paper. */
const TEMP_ALPHABET = 'abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789';
export const temporaryPassword = (length = 12): string => Array.from({ length }, () => TEMP_ALPHABET[randomInt(TEMP_ALPHABET.length)]).join('');

export async function resetPassword(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/resetPassword'>): R<'admin/account/resetPassword'> {
  const target = await passwordTarget(deps, auth, body.accountId);
  const password = temporaryPassword();
  await repo.updateAccount(deps.db, auth.orgId, target.row.id, { passwordHash: await hash(password), mustChangePassword: true, audit: auditStamp(auth.accountId, target.row.audit) });
  await audit(deps, auth, 'admin/account/resetPassword', 'account', target.row.id, null, { userName: target.row.userName, password: 'reset' });
  return { password };
}

export async function issueApiKey(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/issueApiKey'>): R<'admin/account/issueApiKey'> {
  const actor = requireAdmin(auth);
  const target = await loadTarget(deps, auth, actor, body.accountId);
  if (target.problem) throw refuse(target.problem);
  if (!target.perms.some((p) => p.serviceAcct)) throw badInput('Only service accounts get an API key. Mark the account as a service account first.');
  if (!target.row.active) throw badInput('The account is not active.');
  const before = target.row.apiKeyPrefix;
  // A 32-bit prefix may clash with another key's; a fresh one almost surely does not.
  for (let attempt = 0; ; attempt++) {
    const key = newApiKey();
    try {
      await repo.updateAccount(deps.db, auth.orgId, target.row.id, {
        apiKeyHash: key.hash,
        apiKeyPrefix: key.prefix,
        apiKeyCreatedAt: new Date(),
        passwordHash: null,
        audit: auditStamp(auth.accountId, target.row.audit),
      });
      await audit(deps, auth, 'admin/account/issueApiKey', 'account', target.row.id, { userName: target.row.userName, apiKeyPrefix: before }, { userName: target.row.userName, apiKeyPrefix: key.prefix });
      return { apiKey: key.key, account: await viewOne(deps, auth, actor, target.row.id) };
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 3) throw e;
    }
  }
}

export async function revokeApiKey(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/revokeApiKey'>): R<'admin/account/revokeApiKey'> {
  const actor = requireAdmin(auth);
  const target = await loadTarget(deps, auth, actor, body.accountId);
  if (target.problem) throw refuse(target.problem);
  await repo.updateAccount(deps.db, auth.orgId, target.row.id, { apiKeyHash: null, apiKeyPrefix: null, apiKeyCreatedAt: null, audit: auditStamp(auth.accountId, target.row.audit) });
  await audit(deps, auth, 'admin/account/revokeApiKey', 'account', target.row.id, { userName: target.row.userName, apiKeyPrefix: target.row.apiKeyPrefix }, { userName: target.row.userName, apiKeyPrefix: null });
  return { account: await viewOne(deps, auth, actor, target.row.id) };
}

// ---------------------------------------------------------------------------------------------
// Roles

async function rolesView(deps: Deps, auth: AuthContext, actor: Actor) {
  const [roles, perms, orgSites] = await Promise.all([repo.listRoles(deps.db, auth.orgId), repo.orgPerms(deps.db, auth.orgId, auth.appId), repo.orgSiteIds(deps.db, auth.orgId)]);
  const sites = visibleSites(actor, orgSites);
  return roles.map((r) => ({
    name: r.name,
    description: r.description,
    builtIn: r.builtIn,
    holders: perms
      .filter((p) => sites.includes(p.perms.siteId) && p.perms.roles.includes(r.name))
      .map((p) => ({ accountId: p.perms.accountId, userName: p.userName, fullName: [p.firstName, p.surnames].filter(Boolean).join(' '), siteId: p.perms.siteId, active: p.active }))
      .sort((a, b) => a.userName.localeCompare(b.userName)),
  }));
}

export async function listRoles(deps: Deps, auth: AuthContext): R<'admin/role/list'> {
  return { roles: await rolesView(deps, auth, requireAdmin(auth)) };
}

async function roleOut(deps: Deps, auth: AuthContext, actor: Actor, name: string) {
  return (await rolesView(deps, auth, actor)).find((r) => r.name === name);
}

export async function createRole(deps: Deps, auth: AuthContext, body: CallArgs<'admin/role/create'>): R<'admin/role/create'> {
  const actor = requireOrgAdmin(auth);
  if (await repo.findRoleAnyCase(deps.db, auth.orgId, body.name)) throw dup('role', body.name);
  await guardedWrite(() => repo.insertRole(deps.db, { orgId: auth.orgId, name: body.name, description: body.description ?? '', builtIn: false, audit: auditStamp(auth.accountId) }), `The role name '${body.name}'`);
  await audit(deps, auth, 'admin/role/create', 'role', body.name, null, { name: body.name, description: body.description ?? '' });
  return { role: await roleOut(deps, auth, actor, body.name) };
}

async function customRole(deps: Deps, auth: AuthContext, name: string, verb: string) {
  const role = await repo.findRole(deps.db, auth.orgId, name);
  if (!role) throw notFound(`The role '${name}' was not found`);
  if (role.builtIn) throw forbidden(`The built-in role '${name}' cannot be ${verb}.`);
  return role;
}

/** Rewrites one role name in every perms row of the organisation (to null: removes it); answers how many rows changed. */
async function rewriteRole(tx: Deps['db'], auth: AuthContext, from: string, to: string | null): Promise<number> {
  let changed = 0;
  for (const { perms } of await repo.orgPerms(tx, auth.orgId, auth.appId)) {
    if (!perms.roles.includes(from)) continue;
    const next = to === null ? perms.roles.filter((r) => r !== from) : [...new Set(perms.roles.map((r) => (r === from ? to : r)))];
    await repo.setPermsRoles(tx, perms, next, auditStamp(auth.accountId, perms.audit));
    changed++;
  }
  return changed;
}

async function announceToOrg(deps: Deps, orgId: string): Promise<void> {
  for (const siteId of await repo.orgSiteIds(deps.db, orgId)) deps.realtime.emit(siteId, 'featureAccessChanged', { siteId });
}

export async function renameRole(deps: Deps, auth: AuthContext, body: CallArgs<'admin/role/rename'>): R<'admin/role/rename'> {
  const actor = requireOrgAdmin(auth);
  const role = await customRole(deps, auth, body.name, 'renamed');
  const clash = await repo.findRoleAnyCase(deps.db, auth.orgId, body.newName);
  if (clash && clash.name !== role.name) throw dup('role', body.newName);
  const description = body.description ?? role.description;
  const sites = await repo.orgSiteIds(deps.db, auth.orgId);
  await deps.db
    .transaction(async (tx) => {
      await repo.updateRole(tx, auth.orgId, role.name, { name: body.newName, description, audit: auditStamp(auth.accountId, role.audit) });
      if (body.newName !== role.name) {
        await rewriteRole(tx, auth, role.name, body.newName);
        await repo.renameFeatureRole(tx, sites, role.name, body.newName);
      }
    })
    .catch((e: unknown) => {
      // Another rename to the same name committed between the check above and this one.
      throw isUniqueViolation(e) ? dup('role', body.newName) : e;
    });
  await audit(deps, auth, 'admin/role/rename', 'role', role.name, { name: role.name, description: role.description }, { name: body.newName, description });
  await announceToOrg(deps, auth.orgId);
  return { role: await roleOut(deps, auth, actor, body.newName) };
}

export async function removeRole(deps: Deps, auth: AuthContext, body: CallArgs<'admin/role/remove'>): R<'admin/role/remove'> {
  const actor = requireOrgAdmin(auth);
  const role = await customRole(deps, auth, body.name, 'removed');
  const before = await roleOut(deps, auth, actor, role.name);
  const sites = await repo.orgSiteIds(deps.db, auth.orgId);
  const removedFrom = await deps.db.transaction(async (tx) => {
    const n = await rewriteRole(tx, auth, role.name, null);
    await repo.deleteFeatureRole(tx, sites, role.name);
    await repo.deleteRole(tx, auth.orgId, role.name);
    return n;
  });
  await audit(deps, auth, 'admin/role/remove', 'role', role.name, before, null);
  await announceToOrg(deps, auth.orgId);
  return { removedFrom };
}

// ---------------------------------------------------------------------------------------------
// Feature access (per site)

async function grid(deps: Deps, auth: AuthContext): Promise<FeatureGrid> {
  const [roles, rows] = await Promise.all([repo.listRoles(deps.db, auth.orgId), repo.featureRows(deps.db, auth.siteId, auth.appId)]);
  const names = [EVERYONE, ...roles.map((r) => r.name)];
  const levels: FeatureGrid['levels'] = {};
  for (const r of rows) {
    const level = normaliseLevel(r.level);
    if (level !== null && names.includes(r.role) && FEATURES.includes(r.feature)) (levels[r.role] ??= {})[r.feature] = level;
  }
  return { features: [...FEATURES], roles: names, levels };
}

export async function getFeatureAccess(deps: Deps, auth: AuthContext): R<'admin/featureAccess/get'> {
  requireAdmin(auth);
  return { grid: await grid(deps, auth) };
}

export async function putFeatureAccess(deps: Deps, auth: AuthContext, body: CallArgs<'admin/featureAccess/put'>): R<'admin/featureAccess/put'> {
  requireAdmin(auth);
  const before = await grid(deps, auth);
  const rows: Array<{ role: string; feature: string; level: number }> = [];
  for (const [role, cells] of Object.entries(body.levels)) {
    if (!before.roles.includes(role)) throw badInput(`There is no role '${role}'.`);
    for (const [feature, raw] of Object.entries(cells)) {
      if (!FEATURES.includes(feature)) throw badInput(`There is no feature '${feature}'.`);
      const level = normaliseLevel(raw);
      if (level !== null) rows.push({ role, feature, level });
    }
  }
  await deps.db.transaction((tx) => repo.replaceFeatureRows(tx, auth.siteId, auth.appId, rows, auditStamp(auth.accountId)));
  const after = await grid(deps, auth);
  await audit(deps, auth, 'admin/featureAccess/put', 'featureAccess', auth.siteId, before.levels, after.levels);
  // Every session of the site reloads its visible features at once; menus and guards follow.
  deps.realtime.emit(auth.siteId, 'featureAccessChanged', { siteId: auth.siteId });
  return { grid: after };
}

// ---------------------------------------------------------------------------------------------
// Workstations (per site)

const toWorkstation = (ws: repo.WorkstationRow, lastUserName: string | null) => ({
  id: ws.id,
  timeclock: ws.timeclock,
  kiosk: ws.kiosk,
  firstSeen: ws.firstSeen.toISOString(),
  lastSeen: ws.lastSeen.toISOString(),
  lastUserName,
});

export async function listSites(deps: Deps, auth: AuthContext): R<'admin/site/list'> {
  const actor = requireAdmin(auth);
  const all = await repo.orgSites(deps.db, auth.orgId);
  const shown = new Set(visibleSites(actor, all.map((s) => s.id)));
  return { sites: all.filter((s) => shown.has(s.id)) };
}

export async function listWorkstations(deps: Deps, auth: AuthContext): R<'admin/workstation/list'> {
  requireAdmin(auth);
  return { workstations: (await repo.listWorkstations(deps.db, auth.siteId)).map((r) => toWorkstation(r.ws, r.lastUserName)) };
}

export async function updateWorkstation(deps: Deps, auth: AuthContext, body: CallArgs<'admin/workstation/update'>): R<'admin/workstation/update'> {
  requireAdmin(auth);
  const before = await repo.findWorkstation(deps.db, auth.siteId, body.id);
  // From the device itself: a new secret, answered once, for it to keep. Revoking both keeps none.
  const secret = body.thisDevice && (body.timeclock || body.kiosk) ? newDeviceSecret() : undefined;
  const secretHash = secret ? hashDeviceSecret(secret) : body.timeclock || body.kiosk ? undefined : null;
  const row = await repo.upsertWorkstation(deps.db, auth.siteId, body.id, {
    timeclock: body.timeclock,
    kiosk: body.kiosk,
    ...(secretHash !== undefined ? { secretHash } : {}),
    audit: auditStamp(auth.accountId, before?.audit),
  });
  await audit(deps, auth, 'admin/workstation/update', 'workstation', body.id, before ? { timeclock: before.timeclock, kiosk: before.kiosk } : null, {
    timeclock: row.timeclock,
    kiosk: row.kiosk,
    ...(secret ? { secretIssued: true } : {}),
  });
  return { workstation: await listedWorkstation(deps, auth, row), ...(secret ? { secret } : {}) };
}

async function listedWorkstation(deps: Deps, auth: AuthContext, row: repo.WorkstationRow) {
  const [listed] = (await repo.listWorkstations(deps.db, auth.siteId)).filter((r) => r.ws.id === row.id);
  return toWorkstation(row, listed?.lastUserName ?? null);
}

export async function removeWorkstation(deps: Deps, auth: AuthContext, body: CallArgs<'admin/workstation/remove'>): R<'admin/workstation/remove'> {
  requireAdmin(auth);
  const before = await repo.deleteWorkstation(deps.db, auth.siteId, body.id);
  if (!before) throw notFound(`The workstation '${body.id}' was not found`);
  await audit(deps, auth, 'admin/workstation/remove', 'workstation', body.id, { timeclock: before.timeclock, kiosk: before.kiosk }, null);
  return { removed: true };
}

/** A device asks for a code to show; a new one replaces its last. Any signed-in account may. */
export async function startPairing(deps: Deps, auth: AuthContext, body: CallArgs<'workstation/pair/start'>): R<'workstation/pair/start'> {
  const code = newPairCode();
  const expires = new Date(Date.now() + PAIR_CODE_TTL_SECS * 1000);
  await repo.setPairCode(deps.db, auth.siteId, body.workstationId, { pairCode: code, pairExpires: expires, pairApproved: false, lastAccountId: auth.accountId, audit: auditStamp(auth.accountId) });
  return { code, expiresAt: expires.toISOString() };
}

const pairCodeUnknown = () => notFound('No device shows this pairing code: check it, or have the device show a new one (codes last 10 minutes)');

/** An admin enters the code a device shows: that workstation is authorised so, and may claim its secret. */
export async function approvePairing(deps: Deps, auth: AuthContext, body: CallArgs<'admin/workstation/pair'>): R<'admin/workstation/pair'> {
  requireAdmin(auth);
  const row = await repo.findByPairCode(deps.db, auth.siteId, body.code);
  if (!row || !row.pairExpires || row.pairExpires.getTime() < Date.now()) throw pairCodeUnknown();
  const after = await repo.approvePairing(deps.db, auth.siteId, row.id, { timeclock: body.timeclock, kiosk: body.kiosk, audit: auditStamp(auth.accountId, row.audit) });
  await audit(deps, auth, 'admin/workstation/pair', 'workstation', row.id, { timeclock: row.timeclock, kiosk: row.kiosk }, { timeclock: after.timeclock, kiosk: after.kiosk });
  return { workstation: await listedWorkstation(deps, auth, after) };
}

/** The device asks whether its code was entered; once it was, its secret (answered once; the code is spent). */
export async function claimPairing(deps: Deps, auth: AuthContext, body: CallArgs<'workstation/pair/claim'>): R<'workstation/pair/claim'> {
  const row = await repo.findWorkstation(deps.db, auth.siteId, body.workstationId);
  if (!row || row.pairCode !== body.code || !row.pairExpires || row.pairExpires.getTime() < Date.now()) throw pairCodeUnknown();
  if (!row.pairApproved) return { pending: true };
  const secret = newDeviceSecret();
  const claimed = await repo.claimPairing(deps.db, auth.siteId, row.id, body.code, hashDeviceSecret(secret));
  // A second claim racing this one found the code spent.
  if (!claimed) throw pairCodeUnknown();
  return { pending: false, secret, workstation: await listedWorkstation(deps, auth, claimed) };
}

// ---------------------------------------------------------------------------------------------
// Audit log, app settings, brand

export async function listAudit(deps: Deps, auth: AuthContext, body: CallArgs<'admin/audit/list'>): R<'admin/audit/list'> {
  const actor = requireAdmin(auth);
  const limit = body.limit ?? 50;
  // Organisation admins read the whole organisation's log, site admins their own site's.
  const rows = await repo.listAudit(deps.db, auth.orgId, { siteId: actsForOrg(actor) ? undefined : auth.siteId, entity: body.entity, offset: body.offset ?? 0, limit });
  const entries = rows.slice(0, limit).map(({ entry, userName }) => ({
    id: entry.id,
    ts: entry.ts.toISOString(),
    siteId: entry.siteId,
    accountId: entry.accountId,
    userName,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    before: entry.before,
    after: entry.after,
  }));
  return { entries, more: rows.length > limit };
}

/** Validated by the call's schema, then stored through site/putData (admin check, _rev, audit log). */
export async function putAppSettings(deps: Deps, auth: AuthContext, body: CallArgs<'admin/appSettings/put'>): R<'admin/appSettings/put'> {
  requireAdmin(auth);
  return putSiteData(deps, auth, { section: 'conf', siteData: { dataId: 'app_settings', _rev: body.siteData._rev, data: body.siteData.data } });
}

export async function putBrand(deps: Deps, auth: AuthContext, body: CallArgs<'admin/brand/put'>): R<'admin/brand/put'> {
  requireAdmin(auth);
  return putSiteData(deps, auth, { section: 'brand', siteData: { dataId: 'brand', _rev: body.siteData._rev, data: body.siteData.data } });
}
