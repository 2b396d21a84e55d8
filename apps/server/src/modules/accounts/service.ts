import { randomInt } from 'node:crypto';
import { isUniqueViolation } from '../../db/errors.ts';
import { hash } from '@node-rs/argon2';
import { myAccountProblem, passwordProblem, type Account, type SitePerms } from '@floorhand/contract/accounts';
import type { CallArgs } from '@floorhand/contract/api';
import type { AuditStamp } from '../../db/schema.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { accountRestricted, badInput, dup, dupMessage, forbidden, notFound, rateLimited } from '../../lib/errors.ts';
import { findAccount, permsOf, type AccountRow, type PermsRow } from '../../db/accounts.ts';
import { orgRoles, orgSiteIds } from '../../db/organisation.ts';
import { passwordMatches } from '../../lib/passwords.ts';
import { audit, guardedWrite, requireAdmin, visibleSites, type Actor, type R } from '../../lib/admins.ts';
import type { LoginLimiter } from '../../lib/login-limiter.ts';
import { newApiKey } from '../../lib/api-key.ts';
import { newBadgeCode } from './badge-code.ts';
import * as repo from './repository.ts';
import { accountChangeProblem, permsChangeProblem, type Problem } from './rules.ts';

// Accounts (docs/admin.md): one's own account, the accounts of the organisation, their perms,
// passwords and API keys. Every call is scoped to the organisation and site of the caller's token;
// an account id of another organisation is simply not found.

const refuse = (p: Problem) => (p.kind === 'invalid' ? badInput(p.message) : forbidden(p.message));

const toSitePerms = (p: PermsRow): SitePerms => ({
  siteId: p.siteId,
  roles: p.roles,
  kioskAcct: p.kioskAcct,
  timeclockAcct: p.timeclockAcct,
  serviceAcct: p.serviceAcct,
});
const nullIfEmpty = (s: string | undefined) => (s === undefined ? undefined : s.trim() || null);

function toAccount(row: AccountRow, perms: SitePerms[], sites: readonly string[], editable: boolean): Account {
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

async function accountsView(deps: Deps, auth: AuthContext, actor: Actor, rows: AccountRow[]): Promise<Account[]> {
  const [allPerms, orgSites] = await Promise.all([
    permsOf(
      deps.db,
      rows.map((r) => r.id),
      auth.appId,
    ),
    orgSiteIds(deps.db, auth.orgId),
  ]);
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
  await repo.updateAccount(deps.db, auth.orgId, auth.accountId, {
    firstName,
    surnames,
    email: nullIfEmpty(email),
    audit: auditStamp(auth.accountId, row?.audit),
  });
  const after = await myAccount(deps, auth);
  await audit(deps, auth, 'account/me/update', 'account', auth.accountId, before, after);
  return { account: after };
}

/**
 * A session left open must not become a way to guess its owner's password: wrong current passwords
 * are limited like failed logins (modules/auth/login-limiter.ts), per address and account, per account
 * and per address (5 in 15 minutes from one address, then 429).
 */
export async function changeMyPassword(
  deps: Deps,
  limiter: LoginLimiter,
  auth: AuthContext,
  body: CallArgs<'account/me/changePassword'>,
  clientIp: string,
): R<'account/me/changePassword'> {
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
  const problem =
    passwordProblem(body.newPassword, row.userName) ??
    (body.newPassword === body.oldPassword ? 'The new password must differ from the current one.' : undefined);
  if (problem) throw badInput(problem);
  await repo.updateAccount(deps.db, auth.orgId, auth.accountId, {
    passwordHash: await hash(body.newPassword),
    mustChangePassword: false,
    audit: auditStamp(auth.accountId, row.audit),
  });
  await audit(deps, auth, 'account/me/changePassword', 'account', auth.accountId, null, { userName: row.userName, password: 'changed' });
  return {};
}

// ---------------------------------------------------------------------------------------------
// Accounts of the organisation

export async function listAccounts(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/list'>): R<'admin/account/list'> {
  const actor = requireAdmin(auth);
  const { rows, total } = await repo.listAccounts(deps.db, auth.orgId, {
    search: body.search,
    includeInactive: body.includeInactive ?? false,
    offset: body.offset ?? 0,
    limit: body.limit ?? 50,
  });
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
  return new Set((await orgRoles(deps.db, orgId)).map((r) => r.name));
}

/** Checks a change of an account's perms (rules.ts). */
async function checkPerms(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  targetId: string,
  before: SitePerms[],
  after: SitePerms[],
): Promise<void> {
  const siteIds = after.map((p) => p.siteId);
  if (new Set(siteIds).size !== siteIds.length) throw badInput('Each site may appear only once in perms.');
  const problem = permsChangeProblem(
    actor,
    targetId,
    before,
    after,
    await knownRoles(deps, auth.orgId),
    await orgSiteIds(deps.db, auth.orgId),
  );
  if (problem) throw refuse(problem);
}

async function writePerms(db: Deps['db'], accountId: string, appId: string, perms: SitePerms[], stamp: AuditStamp): Promise<void> {
  for (const p of perms) {
    await repo.upsertPerms(db, {
      accountId,
      siteId: p.siteId,
      appId,
      roles: [...new Set(p.roles)],
      kioskAcct: p.kioskAcct,
      timeclockAcct: p.timeclockAcct,
      serviceAcct: p.serviceAcct,
      audit: stamp,
    });
  }
}

export async function createAccount(deps: Deps, auth: AuthContext, body: CallArgs<'admin/account/create'>): R<'admin/account/create'> {
  const actor = requireAdmin(auth);
  const id = newId();
  const perms = body.perms.length
    ? body.perms
    : [{ siteId: auth.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }];
  await checkPerms(deps, auth, actor, id, [], perms);
  const service = perms.some((p) => p.serviceAcct);
  if (service && body.password)
    throw badInput('Service accounts use an API key, not a password: leave the password empty and issue a key.');
  if (!service) {
    const problem = body.password
      ? passwordProblem(body.password, body.account.userName)
      : 'A password is required (at least 8 characters).';
    if (problem) throw badInput(problem);
  }
  const f = body.account;
  // Without a badge code a new account gets a random one, unless it is a kiosk, time-clock or service
  // account (their badges are never recognised at a device).
  const shared = perms.some((p) => p.serviceAcct || p.kioskAcct || p.timeclockAcct);
  const badgeCode = nullIfEmpty(f.badgeCode) ?? (shared ? null : newBadgeCode());
  await checkClash(deps, auth.orgId, null, f.userName, badgeCode);
  const stamp = auditStamp(auth.accountId);
  const passwordHash = service || !body.password ? null : await hash(body.password);
  await guardedWrite(
    () =>
      deps.db.transaction(async (tx) => {
        await repo.insertAccount(tx, {
          id,
          orgId: auth.orgId,
          userName: f.userName,
          firstName: f.firstName,
          surnames: f.surnames,
          email: nullIfEmpty(f.email),
          badgeCode,
          passwordHash,
          audit: stamp,
        });
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

export async function setPassword(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'admin/account/setPassword'>,
): R<'admin/account/setPassword'> {
  const target = await passwordTarget(deps, auth, body.accountId);
  const problem = passwordProblem(body.password, target.row.userName);
  if (problem) throw badInput(problem);
  // A password an admin sets is temporary: the account chooses its own at its next login.
  await repo.updateAccount(deps.db, auth.orgId, target.row.id, {
    passwordHash: await hash(body.password),
    mustChangePassword: true,
    audit: auditStamp(auth.accountId, target.row.audit),
  });
  await audit(deps, auth, 'admin/account/setPassword', 'account', target.row.id, null, { userName: target.row.userName, password: 'set' });
  return {};
}

/** Letters and digits that cannot be mistaken for each other when read out or typed from paper. */
const TEMP_ALPHABET = 'abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789';
export const temporaryPassword = (length = 12): string =>
  Array.from({ length }, () => TEMP_ALPHABET[randomInt(TEMP_ALPHABET.length)]).join('');

export async function resetPassword(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'admin/account/resetPassword'>,
): R<'admin/account/resetPassword'> {
  const target = await passwordTarget(deps, auth, body.accountId);
  const password = temporaryPassword();
  await repo.updateAccount(deps.db, auth.orgId, target.row.id, {
    passwordHash: await hash(password),
    mustChangePassword: true,
    audit: auditStamp(auth.accountId, target.row.audit),
  });
  await audit(deps, auth, 'admin/account/resetPassword', 'account', target.row.id, null, {
    userName: target.row.userName,
    password: 'reset',
  });
  return { password };
}

export async function issueApiKey(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'admin/account/issueApiKey'>,
): R<'admin/account/issueApiKey'> {
  const actor = requireAdmin(auth);
  const target = await loadTarget(deps, auth, actor, body.accountId);
  if (target.problem) throw refuse(target.problem);
  if (!target.perms.some((p) => p.serviceAcct))
    throw badInput('Only service accounts get an API key. Mark the account as a service account first.');
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
      // A new key replaces the old one: the old key's live sockets end at once too.
      if (before) for (const p of target.perms) deps.realtime.disconnectToken(p.siteId, `apikey-${before}`);
      await audit(
        deps,
        auth,
        'admin/account/issueApiKey',
        'account',
        target.row.id,
        { userName: target.row.userName, apiKeyPrefix: before },
        { userName: target.row.userName, apiKeyPrefix: key.prefix },
      );
      return { apiKey: key.key, account: await viewOne(deps, auth, actor, target.row.id) };
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 3) throw e;
    }
  }
}

export async function revokeApiKey(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'admin/account/revokeApiKey'>,
): R<'admin/account/revokeApiKey'> {
  const actor = requireAdmin(auth);
  const target = await loadTarget(deps, auth, actor, body.accountId);
  if (target.problem) throw refuse(target.problem);
  await repo.updateAccount(deps.db, auth.orgId, target.row.id, {
    apiKeyHash: null,
    apiKeyPrefix: null,
    apiKeyCreatedAt: null,
    audit: auditStamp(auth.accountId, target.row.audit),
  });
  // The key's live sockets end at once, on every node and every site of the account (lib/auth-context.ts: their token id).
  if (target.row.apiKeyPrefix) for (const p of target.perms) deps.realtime.disconnectToken(p.siteId, `apikey-${target.row.apiKeyPrefix}`);
  await audit(
    deps,
    auth,
    'admin/account/revokeApiKey',
    'account',
    target.row.id,
    { userName: target.row.userName, apiKeyPrefix: target.row.apiKeyPrefix },
    { userName: target.row.userName, apiKeyPrefix: null },
  );
  return { account: await viewOne(deps, auth, actor, target.row.id) };
}
