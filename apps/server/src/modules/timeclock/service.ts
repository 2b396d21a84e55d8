import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { mayUseTimeclock, TIMECLOCK_REFUSAL } from '@floorhand/contract/perms';
import {
  OFFLINE_PUNCH_FUTURE_SKEW_SECS,
  OFFLINE_PUNCH_MAX_AGE_HOURS,
  offlinePunchKeyFromHash,
  verifyOfflinePunch,
} from '@floorhand/contract/offline-punch';
import {
  beyondMaxShift,
  CLIENT_TIME_TRUST_SECS,
  inFromEarlierShift,
  PUNCH_DEBOUNCE_SECS,
  readTimeclockSettings,
  type Punch,
} from '@floorhand/contract/timeclock';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, forbidden, notFound } from '../../lib/errors.ts';
import { idempotentWrite, requestHash } from '../../lib/idempotent-write.ts';
import { findSiteData } from '../../lib/site-data.ts';
import { identifyBadge } from './badge.ts';
import * as repo from './repository.ts';

/** A badge read at a shared device, checked the same way at the kiosk (modules/kiosk). */
export { identifyBadge } from './badge.ts';

/** A punch as the contract answers it (for corrections.ts too). */
export const toPunch = (p: repo.PunchOut): Punch => ({
  id: p.id,
  kind: p.kind,
  at: p.at,
  serverTs: p.serverTs,
  clientTs: p.clientTs,
  deviceId: p.deviceId,
  photoMediaId: p.photoMediaId,
  source: p.source,
  status: p.status,
  replacesId: p.replacesId,
  reason: p.reason,
  approvedBy: p.approvedBy,
});

/**
 * Whether a worker is clocked in at `at` (default now): their last punch that counts at or before
 * then is an "in". For the labor half: labor is booked only while the worker is clocked in.
 */
export async function isClockedIn(db: Db, orgId: string, accountId: string, at: Date = new Date()): Promise<boolean> {
  const last = await repo.lastEffectivePunch(db, orgId, accountId, at.toISOString());
  return last?.kind === 'in';
}

/**
 * When the worker punched out after `after` (the first "out" that counts, up to `until`): labor that
 * ran past it ends there (labor is bounded by attendance, issue 26).
 */
export async function punchedOutBetween(db: Db, orgId: string, accountId: string, after: Date, until: Date): Promise<Date | undefined> {
  const at = await repo.firstOutBetween(db, orgId, accountId, after.toISOString(), until.toISOString());
  return at === undefined ? undefined : new Date(at);
}

/** Thrown inside the punch transaction to roll it back with an answer that is not an error. */
class Answer {
  constructor(readonly response: CallResponse<'timeclock/punch'>) {}
}

const startOfDay = (now: Date, tzOffsetMinutes: number): string => {
  // The clock's local midnight: the x-tz-offset header (minutes behind UTC, as getTimezoneOffset).
  const local = new Date(now.getTime() - tzOffsetMinutes * 60_000);
  local.setUTCHours(0, 0, 0, 0);
  return new Date(local.getTime() + tzOffsetMinutes * 60_000).toISOString();
};

export interface PunchContext {
  /** Minutes behind UTC of the clock (x-tz-offset), for "today". */
  tzOffsetMinutes: number;
}

/**
 * A badge at the time clock: identifies the worker, then punches in or out (the opposite of their
 * last punch that counts). A second scan within PUNCH_DEBOUNCE_SECS answers `duplicate` and records
 * nothing (the database's row lock decides, whatever the number of nodes). A worker whose "in" is
 * from an earlier shift (the app settings' shift starts and maximum shift: `inFromEarlierShift`) is
 * asked when they left; the answer becomes a pending "out" for a timeclockAdmin and this scan punches
 * in: never a silent close. A worker who did not miss a punch (a long shift, leaving now) answers
 * `leavingNow`: this scan punches out, or, beyond the maximum shift, is a pending out for the
 * timekeeper (`forTimekeeper`).
 */
export async function punch(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'timeclock/punch'>,
  ctx: PunchContext,
): Promise<CallResponse<'timeclock/punch'>> {
  // The photo of a scan that ends in no punch goes (an unknown badge, another organisation, a
  // duplicate, a refusal): a photo is kept only with its punch. A question (missedPunch) keeps it for
  // the answer; an unanswered question's photo goes with the housekeeping sweep.
  if (!mayUseTimeclock(auth.perms)) throw forbidden(TIMECLOCK_REFUSAL);
  if (!auth.claims.ws.timeclock) throw forbidden('This device is not authorised as a timeclock.');
  let answer: CallResponse<'timeclock/punch'> | undefined;
  // An answer to the question that is refused (a time before the in) keeps the photo for the next try.
  const answering = !!body.missedOutAt || !!body.leavingNow;
  try {
    answer = await punchOnce(deps, auth, body, ctx);
    return answer;
  } finally {
    // A replay answered from its key keeps the first try's photo: a second upload of it goes.
    const kept = answer ? answer.result !== 'duplicate' && (!answer.punch || answer.punch.photoMediaId === body.photoMediaId) : answering;
    if (body.photoMediaId && !kept) {
      await repo.deleteUnusedClockPhoto(deps.db, auth.orgId, body.photoMediaId).catch(() => undefined);
    }
  }
}

async function punchOnce(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'timeclock/punch'>,
  ctx: PunchContext,
): Promise<CallResponse<'timeclock/punch'>> {
  if (!mayUseTimeclock(auth.perms)) throw forbidden(TIMECLOCK_REFUSAL);
  if (!auth.claims.ws.timeclock) throw forbidden('This device is not authorised as a timeclock.');
  const now = new Date();
  // An offline punch is checked before the badge: a punch the device did not sign is refused whoever's badge it is.
  const offlineAt = body.offline ? await checkOfflinePunch(deps, auth, body, now) : undefined;
  const worker = await identifyBadge(deps, auth, body);
  if (body.photoMediaId && !(await repo.mediaOfOrg(deps.db, auth.orgId, body.photoMediaId))) throw notFound('The photo was not found');
  const who = { firstName: worker.firstName, initial: worker.surnames.slice(0, 1) };
  const dayStart = startOfDay(now, ctx.tzOffsetMinutes);
  const ofToday = (list: repo.PunchOut[]): Punch[] =>
    repo.sortPunches(list.filter((p) => p.at >= dayStart && p.kind !== 'void')).map(toPunch);
  // The hot path of a shift start (bench/timeclock): the badge (one query), then in one transaction
  // the slot, the worker's state (last punch and today's, one query) and the insert; today's list
  // is the state plus what was inserted, not read again.
  const work = async (tx: Db): Promise<CallResponse<'timeclock/punch'>> => {
    if (offlineAt !== undefined)
      return offlinePunch(tx, auth, body, {
        worker: worker.id,
        who,
        at: offlineAt,
        now,
        dayStart,
        tzOffsetMinutes: ctx.tzOffsetMinutes,
        ofToday,
      });
    const free = await repo.claimPunchSlot(tx, auth.orgId, worker.id, PUNCH_DEBOUNCE_SECS, {
      deviceId: auth.claims.ws.id ?? null,
      clientTs: trustedClientTime(body.clientTime, now),
    });
    const { last, today } = await repo.punchState(tx, auth.orgId, worker.id, dayStart);
    if (!free) {
      throw new Answer({
        result: 'duplicate',
        worker: who,
        status: { in: last?.kind === 'in', since: last?.at ?? null },
        today: today.map(toPunch),
      });
    }
    const stamp = auditStamp(auth.accountId, null, now);
    const base = {
      orgId: auth.orgId,
      siteId: auth.siteId,
      accountId: worker.id,
      deviceId: auth.claims.ws.id,
      clockAccountId: auth.accountId,
      audit: stamp,
    };
    let kind: 'in' | 'out' = last?.kind === 'in' ? 'out' : 'in';
    const added: repo.PunchOut[] = [];
    // The shift rule from the app settings, read only when the worker is in (an out scan).
    const settings =
      last?.kind === 'in' ? readTimeclockSettings((await findSiteData(tx, auth.siteId, 'conf', 'app_settings'))?.data) : undefined;
    const inAt = last ? Date.parse(last.at) : 0;
    const earlier = !!settings && inFromEarlierShift(inAt, now.getTime(), settings, ctx.tzOffsetMinutes);
    // A pending out after the in (a "leaving now" the timekeeper has not yet confirmed): the worker
    // is out as far as the clock goes, so this scan punches in, and asks nothing.
    const pendingAfter = earlier && last?.kind === 'in' && (await repo.hasPendingAfter(tx, auth.orgId, worker.id, last.at));
    if (pendingAfter) kind = 'in';
    const overMax = !!settings && beyondMaxShift(inAt, now.getTime(), settings);
    if (earlier && !pendingAfter && last?.kind === 'in' && body.leavingNow && overMax) {
      // "Leaving now" beyond the maximum shift: not a 38-hour shift closed by the clock, but a
      // pending out at this moment, with the scan's photo, for the timekeeper to confirm or correct.
      const pendingOut = await repo.insertPunch(tx, {
        ...base,
        id: newId(),
        kind: 'out',
        at: now.toISOString(),
        clientTs: body.clientTime ?? null,
        photoMediaId: body.photoMediaId ?? null,
        source: 'missed',
        status: 'pending',
        reason: `Leaving now after more than the maximum shift (${settings.maxShiftHours} h): for the timekeeper`,
      });
      return {
        result: 'forTimekeeper',
        worker: who,
        punch: toPunch(pendingOut),
        maxShiftHours: settings.maxShiftHours,
        status: { in: false, since: pendingOut.at },
        today: ofToday([...today, pendingOut]),
      };
    }
    const missed = earlier && !pendingAfter && last?.kind === 'in' && !body.leavingNow;
    if (missed) {
      if (!body.missedOutAt)
        throw new Answer({
          result: 'missedPunch',
          worker: who,
          inSince: last.at,
          maxShiftHours: settings!.maxShiftHours,
          status: { in: true, since: last.at },
          today: today.map(toPunch),
        });
      const out = Date.parse(body.missedOutAt);
      if (out <= Date.parse(last.at) || out > now.getTime())
        throw badInput('The time you left must be after you came in and not in the future.');
      added.push(
        await repo.insertPunch(tx, {
          ...base,
          id: newId(),
          kind: 'out',
          at: new Date(out).toISOString(),
          clientTs: body.clientTime ?? null,
          source: 'missed',
          status: 'pending',
          reason: 'Missed punch: the time the worker stated at the next scan',
        }),
      );
      kind = 'in';
    }
    const punched = await repo.insertPunch(tx, {
      ...base,
      id: newId(),
      kind,
      at: now.toISOString(),
      clientTs: body.clientTime ?? null,
      photoMediaId: body.photoMediaId ?? null,
      source: 'clock',
      status: 'valid',
    });
    return {
      result: 'punched',
      worker: who,
      punch: toPunch(punched),
      status: { in: punched.kind === 'in', since: punched.at },
      today: ofToday([...today, ...added, punched]),
    };
  };
  try {
    if (!body.idempotencyKey) return await deps.db.transaction(work);
    // With a key (the outbox's replays): the answer is stored with the punch, and a replay answers it.
    // The photo is bound by the signature's digest, not by its id: a replay that uploaded the photo
    // again (the first answer was lost) is the same punch, and its second copy goes (punch's finally).
    const { photoMediaId: _photo, ...hashed } = body;
    return await idempotentWrite(
      deps,
      auth,
      'timeclock/punch',
      body,
      async (tx) => ({ response: await work(tx) }),
      requestHash('timeclock/punch', hashed),
    );
  } catch (e) {
    if (e instanceof Answer) return e.response;
    throw e;
  }
}

/**
 * An offline punch's time, when the calling workstation signed it (offline-punch.ts): the device's time
 * of the scan, at most OFFLINE_PUNCH_MAX_AGE_HOURS old and never later than now (a device a little
 * ahead counts at the server's time; further ahead is refused). Anything else is a 400 and records nothing.
 */
async function checkOfflinePunch(deps: Deps, auth: AuthContext, body: CallArgs<'timeclock/punch'>, now: Date): Promise<string> {
  const offline = body.offline!;
  if (!body.idempotencyKey) throw badInput('An offline punch needs its idempotency key (idempotencyKey): it was not recorded.');
  const hash = await repo.workstationSecretHash(deps.db, auth.siteId, auth.claims.ws.id);
  const key = hash ? await offlinePunchKeyFromHash(hash) : undefined;
  const photoSha256 = body.photoMediaId ? await repo.mediaSha256(deps.db, auth.orgId, body.photoMediaId) : undefined;
  const fields = {
    workstationId: auth.claims.ws.id,
    badge: body.badge,
    deviceTime: offline.deviceTime,
    idempotencyKey: body.idempotencyKey,
    photoSha256,
  };
  if (!key || !(await verifyOfflinePunch(key, fields, offline.signature))) {
    throw badInput(
      'The offline punch is not signed by this time clock (or its badge, time, key or photo changed): it was not recorded. A timekeeper can add the punch on Punch Corrections.',
    );
  }
  const t = Date.parse(offline.deviceTime);
  if (t > now.getTime() + OFFLINE_PUNCH_FUTURE_SKEW_SECS * 1000)
    throw badInput("The offline punch's device time is in the future: check the time clock's clock. It was not recorded.");
  if (now.getTime() - t > OFFLINE_PUNCH_MAX_AGE_HOURS * 3_600_000) {
    throw badInput(
      `The offline punch is older than ${OFFLINE_PUNCH_MAX_AGE_HOURS} hours: it was not recorded. A timekeeper can add it on Punch Corrections.`,
    );
  }
  return new Date(Math.min(t, now.getTime())).toISOString();
}

/**
 * Records a signed offline punch at its device time, in the worker's day as it is now: the debounce
 * by the punches' own times (two scans queued a minute apart are two punches, two a second apart one);
 * the kind the opposite of the last punch that counts at or before that time (not of the last one
 * recorded: a replay lands among punches other clocks recorded meanwhile). A punch that cannot be
 * placed without a question goes to the timekeeper as pending (never a silent close, never two ins in
 * a row): after an in from an earlier shift (the worker could not be asked when they left), or when
 * the punch that counts after it has the same kind.
 */
async function offlinePunch(
  tx: Db,
  auth: AuthContext,
  body: CallArgs<'timeclock/punch'>,
  o: {
    worker: string;
    who: { firstName: string; initial: string };
    at: string;
    now: Date;
    dayStart: string;
    tzOffsetMinutes: number;
    ofToday: (list: repo.PunchOut[]) => Punch[];
  },
): Promise<CallResponse<'timeclock/punch'>> {
  await repo.lockPunchGuard(tx, auth.orgId, o.worker);
  const { last, today } = await repo.punchState(tx, auth.orgId, o.worker, o.dayStart);
  const status = { in: last?.kind === 'in', since: last?.at ?? null };
  if (await repo.punchNear(tx, auth.orgId, o.worker, o.at, PUNCH_DEBOUNCE_SECS))
    throw new Answer({ result: 'duplicate', worker: o.who, status, today: today.map(toPunch) });
  const before = await repo.lastEffectivePunch(tx, auth.orgId, o.worker, o.at);
  let kind: 'in' | 'out' = before?.kind === 'in' ? 'out' : 'in';
  let reason: string | null = null;
  const settings =
    before?.kind === 'in' ? readTimeclockSettings((await findSiteData(tx, auth.siteId, 'conf', 'app_settings'))?.data) : undefined;
  if (before && settings && inFromEarlierShift(Date.parse(before.at), Date.parse(o.at), settings, o.tzOffsetMinutes)) {
    kind = 'in';
    reason = 'Offline punch after an in from an earlier shift (the worker could not be asked when they left): for the timekeeper';
  } else {
    const next = await repo.nextEffectivePunch(tx, auth.orgId, o.worker, o.at);
    if (next?.kind === kind) reason = `Offline punch replayed after a later "${next.kind}" it would repeat: for the timekeeper`;
  }
  const punched = await repo.insertPunch(tx, {
    id: newId(),
    orgId: auth.orgId,
    siteId: auth.siteId,
    accountId: o.worker,
    deviceId: auth.claims.ws.id,
    clockAccountId: auth.accountId,
    audit: auditStamp(auth.accountId, null, o.now),
    kind,
    at: o.at,
    clientTs: body.offline!.deviceTime,
    photoMediaId: body.photoMediaId ?? null,
    source: 'offline',
    status: reason ? 'pending' : 'valid',
    reason,
  });
  const latest = !reason && (!last || punched.at >= last.at);
  const after = latest ? { in: punched.kind === 'in', since: punched.at } : status;
  const todayNow = o.ofToday([...today, punched]);
  if (reason) return { result: 'forTimekeeper', worker: o.who, punch: toPunch(punched), status: after, today: todayNow };
  return { result: 'punched', worker: o.who, punch: toPunch(punched), status: after, today: todayNow };
}

/**
 * The device's time of a scan when it can be trusted for the debounce: within CLIENT_TIME_TRUST_SECS
 * of the server's time (docs/timeclock.md). A device clock far off (wrong, stuck, lying) is ignored and
 * the debounce holds by server time only, so it can never hold back a real punch.
 */
export function trustedClientTime(clientTime: string | undefined, now: Date): string | null {
  if (!clientTime) return null;
  const t = Date.parse(clientTime);
  if (!Number.isFinite(t) || Math.abs(t - now.getTime()) > CLIENT_TIME_TRUST_SECS * 1000) return null;
  return new Date(t).toISOString();
}
