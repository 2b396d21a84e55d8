import type { CallArgs } from '@floorhand/contract/api';
import { PAIR_CODE_TTL_SECS, type PairReplaceDetail } from '@floorhand/contract/site-admin';
import { orgSites } from '../../db/organisation.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { actsForOrg, audit, requireAdmin, visibleSites, type R } from '../../lib/admins.ts';
import { hashDeviceSecret, newDeviceSecret, newPairCode } from '../../lib/device-secret.ts';
import { putSiteData } from '../site/service.ts';
import * as repo from './repository.ts';

// Site administration (docs/admin.md): the organisation's sites, the site's workstations and their
// pairing, the audit log, app settings and brand. Every call is scoped to the organisation and site
// of the caller's token.

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
  const all = await orgSites(deps.db, auth.orgId);
  const shown = new Set(
    visibleSites(
      actor,
      all.map((s) => s.id),
    ),
  );
  return { sites: all.filter((s) => shown.has(s.id)) };
}

export async function listWorkstations(deps: Deps, auth: AuthContext): R<'admin/workstation/list'> {
  requireAdmin(auth);
  return { workstations: (await repo.listWorkstations(deps.db, auth.siteId)).map((r) => toWorkstation(r.ws, r.lastUserName)) };
}

export async function updateWorkstation(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'admin/workstation/update'>,
): R<'admin/workstation/update'> {
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
  await audit(
    deps,
    auth,
    'admin/workstation/update',
    'workstation',
    body.id,
    before ? { timeclock: before.timeclock, kiosk: before.kiosk } : null,
    {
      timeclock: row.timeclock,
      kiosk: row.kiosk,
      ...(secret ? { secretIssued: true } : {}),
    },
  );
  return { workstation: await listedWorkstation(deps, auth, row), ...(secret ? { secret } : {}) };
}

async function listedWorkstation(deps: Deps, auth: AuthContext, row: repo.WorkstationRow) {
  const [listed] = (await repo.listWorkstations(deps.db, auth.siteId)).filter((r) => r.ws.id === row.id);
  return toWorkstation(row, listed?.lastUserName ?? null);
}

export async function removeWorkstation(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'admin/workstation/remove'>,
): R<'admin/workstation/remove'> {
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
  await repo.setPairCode(deps.db, auth.siteId, body.workstationId, {
    pairCode: code,
    pairExpires: expires,
    pairApproved: false,
    lastAccountId: auth.accountId,
    audit: auditStamp(auth.accountId),
  });
  return { code, expiresAt: expires.toISOString() };
}

const pairCodeUnknown = () =>
  notFound('No device shows this pairing code: check it, or have the device show a new one (codes last 10 minutes)');

/** An admin enters the code a device shows: that workstation is authorised so, and may claim its secret. */
export async function approvePairing(deps: Deps, auth: AuthContext, body: CallArgs<'admin/workstation/pair'>): R<'admin/workstation/pair'> {
  requireAdmin(auth);
  const row = await repo.findByPairCode(deps.db, auth.siteId, body.code);
  if (!row || !row.pairExpires || row.pairExpires.getTime() < Date.now()) throw pairCodeUnknown();
  // The id already belongs to an authorised device: whoever shows this code would take over its
  // kiosk and clock rights, and that device would lose them. Only on purpose (docs/admin.md, Pairing).
  const held = row.secretHash ? await heldBy(deps, auth, row) : undefined;
  if (held && !body.replace) {
    const who = held.lastUserName ? `last used by ${held.lastUserName}` : 'not used since it was authorised';
    throw conflict(
      `Workstation ${row.id} is already an authorised device (${who}, last seen ${held.lastSeen}). Pairing this code replaces that device: it loses its kiosk and time-clock authorisation. Confirm "Replace this device" only if that device is gone or this is it.`,
      JSON.stringify(held),
    );
  }
  const after = await repo.approvePairing(deps.db, auth.siteId, row.id, {
    timeclock: body.timeclock,
    kiosk: body.kiosk,
    audit: auditStamp(auth.accountId, row.audit),
  });
  await audit(
    deps,
    auth,
    'admin/workstation/pair',
    'workstation',
    row.id,
    { timeclock: row.timeclock, kiosk: row.kiosk },
    {
      timeclock: after.timeclock,
      kiosk: after.kiosk,
      ...(held ? { replaced: true, replacedLastUser: held.lastUserName, replacedLastSeen: held.lastSeen } : {}),
    },
  );
  return { workstation: await listedWorkstation(deps, auth, after) };
}

/** The authorised device an id's secret belongs to, as the admin knows it (last account, last seen). */
async function heldBy(deps: Deps, auth: AuthContext, row: repo.WorkstationRow): Promise<PairReplaceDetail> {
  const [listed] = (await repo.listWorkstations(deps.db, auth.siteId)).filter((r) => r.ws.id === row.id);
  return { workstationId: row.id, lastUserName: listed?.lastUserName ?? null, lastSeen: row.lastSeen.toISOString() };
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
  const rows = await repo.listAudit(deps.db, auth.orgId, {
    siteId: actsForOrg(actor) ? undefined : auth.siteId,
    entity: body.entity,
    offset: body.offset ?? 0,
    limit,
  });
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
  return putSiteData(deps, auth, {
    section: 'conf',
    siteData: { dataId: 'app_settings', _rev: body.siteData._rev, data: body.siteData.data },
  });
}

export async function putBrand(deps: Deps, auth: AuthContext, body: CallArgs<'admin/brand/put'>): R<'admin/brand/put'> {
  requireAdmin(auth);
  return putSiteData(deps, auth, { section: 'brand', siteData: { dataId: 'brand', _rev: body.siteData._rev, data: body.siteData.data } });
}
