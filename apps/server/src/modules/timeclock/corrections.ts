import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { isTimekeeper } from '@floorhand/contract/perms';
import { PUNCH_LIST_MAX } from '@floorhand/contract/timeclock';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId, writeAuditLog } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import { hashPin } from './badge.ts';
import * as repo from './repository.ts';
import { toPunch } from './service.ts';

// The timekeeper's side of the clock (docs/timeclock.md): badge PINs, the punches of a period, their
// corrections and their export. The worker's side (punching) is service.ts.

/** timeclockAdmin, or an admin of the site. */
function requireTimekeeper(auth: AuthContext): void {
  if (!isTimekeeper(auth.perms)) throw forbidden('Only a timeclockAdmin or an administrator may review and correct punches.');
}

export async function setPin(deps: Deps, auth: AuthContext, body: CallArgs<'timeclock/setPin'>): Promise<CallResponse<'timeclock/setPin'>> {
  requireTimekeeper(auth);
  if (!(await repo.accountOfOrg(deps.db, auth.orgId, body.accountId))) throw notFound('The account was not found');
  await repo.setPin(deps.db, auth.orgId, body.accountId, body.pin === null ? null : await hashPin(body.pin), auditStamp(auth.accountId));
  await writeAuditLog(deps.db, {
    orgId: auth.orgId,
    siteId: auth.siteId,
    accountId: auth.accountId,
    action: 'timeclock/setPin',
    entity: 'account',
    entityId: body.accountId,
    before: null,
    after: { pin: body.pin === null ? 'cleared' : 'set' },
  });
  return {};
}

const MAX_RANGE_DAYS = 93;
function checkRange(from: string, to: string): void {
  const span = Date.parse(to) - Date.parse(from);
  if (!(span > 0)) throw badInput("'to' must be after 'from'");
  if (span > MAX_RANGE_DAYS * 86_400_000) throw badInput(`The period may be at most ${MAX_RANGE_DAYS} days`);
}

export async function listPunches(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'timeclock/punches/list'>,
): Promise<CallResponse<'timeclock/punches/list'>> {
  requireTimekeeper(auth);
  checkRange(body.from, body.to);
  const rows = await repo.listPunches(deps.db, auth.orgId, {
    from: body.from,
    to: body.to,
    accountId: body.accountId,
    pendingOnly: body.pendingOnly ?? false,
    limit: PUNCH_LIST_MAX + 1,
  });
  return {
    punches: rows.slice(0, PUNCH_LIST_MAX).map((r) => ({
      ...toPunch(r),
      accountId: r.accountId,
      workerName: r.workerName,
      approverName: r.approverName,
      replacedById: r.replacedById,
      edited: r.edited,
    })),
    more: rows.length > PUNCH_LIST_MAX,
  };
}

/**
 * A correction: a new record with the reason and the approver; the punch it replaces stays as it was.
 * Approving a pending missed punch is a correction of it (same or another time). A punch is replaced
 * at most once (a unique index): correct the correction to change it again.
 */
export async function correct(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'timeclock/correct'>,
): Promise<CallResponse<'timeclock/correct'>> {
  requireTimekeeper(auth);
  if (Date.parse(body.at) > Date.now() + 60_000) throw badInput('A punch cannot be in the future');
  if (!body.replacesId) {
    if (!body.accountId) throw badInput('Name the worker (accountId) or the punch corrected (replacesId)');
    if (body.kind === 'void') throw badInput('Only an existing punch can be voided');
  }
  try {
    return await idempotentWrite(deps, auth, 'timeclock/correct', body, async (tx) => {
      let worker = body.accountId;
      if (body.replacesId) {
        const target = await repo.findPunch(tx, auth.orgId, body.replacesId);
        if (!target) throw notFound('The punch was not found');
        if (target.replacedById) throw conflict('This punch has been corrected already: correct the latest record instead.');
        if (worker && worker !== target.accountId) throw badInput('accountId is not the worker of the punch corrected');
        worker = target.accountId;
      } else if (!worker || !(await repo.accountOfOrg(tx, auth.orgId, worker))) throw notFound('The account was not found');
      const row = await repo.insertPunch(tx, {
        id: newId(),
        orgId: auth.orgId,
        siteId: auth.siteId,
        accountId: worker,
        kind: body.kind,
        at: new Date(body.at).toISOString(),
        source: 'correction',
        status: 'valid',
        replacesId: body.replacesId ?? null,
        reason: body.reason,
        approvedBy: auth.accountId,
        audit: auditStamp(auth.accountId),
      });
      await writeAuditLog(tx, {
        orgId: auth.orgId,
        siteId: auth.siteId,
        accountId: auth.accountId,
        action: 'timeclock/correct',
        entity: 'punch',
        entityId: row.id,
        before: body.replacesId ? { replaces: body.replacesId } : null,
        after: { kind: row.kind, at: row.at, reason: row.reason },
      });
      return { response: { punch: toPunch(row) } };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('This punch has been corrected already: correct the latest record instead.');
    throw e;
  }
}

const csvCell = (v: string | null | boolean): string => {
  const s = v === null ? '' : String(v);
  // Quote always; a leading =, +, - or @ would be a formula in a spreadsheet.
  return `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replaceAll('"', '""')}"`;
};

/** Every record of the period, corrections and what they replace included, each flagged when edited. */
export async function exportPunches(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'timeclock/punches/export'>,
): Promise<CallResponse<'timeclock/punches/export'>> {
  requireTimekeeper(auth);
  checkRange(body.from, body.to);
  const rows = await repo.listPunches(deps.db, auth.orgId, { from: body.from, to: body.to, limit: 100_000 });
  const header = [
    'id',
    'worker',
    'kind',
    'at',
    'serverTime',
    'clientTime',
    'device',
    'source',
    'status',
    'replaces',
    'replacedBy',
    'edited',
    'counts',
    'reason',
    'approvedBy',
    'photo',
  ];
  const lines = rows.map((r) =>
    [
      r.id,
      r.workerName,
      r.kind,
      r.at,
      r.serverTs,
      r.clientTs,
      r.deviceId,
      r.source,
      r.status,
      r.replacesId,
      r.replacedById,
      r.edited,
      r.status === 'valid' && !r.replacedById && r.kind !== 'void',
      r.reason,
      r.approverName,
      r.photoMediaId,
    ]
      .map(csvCell)
      .join(','),
  );
  return {
    csv: [header.join(','), ...lines].join('\r\n') + '\r\n',
    fileName: `punches-${body.from.slice(0, 10)}-${body.to.slice(0, 10)}.csv`,
  };
}
