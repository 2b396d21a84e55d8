import { z } from 'zod';
import { callBase, idSchema, idempotencyKeySchema, scanCode, withErr } from './common.ts';
import { tk } from './i18n.ts';

// The time clock (docs/timeclock.md): punches from badge scans on authorised time-clock devices,
// the missed-punch question, and corrections that are new records (the original stays).

/** A second scan of one badge within this many seconds never punches twice (enforced by the database). */
export const PUNCH_DEBOUNCE_SECS = 8;
/**
 * The debounce also holds by the device's clock (`clientTime`) for scans from one device, however far
 * apart the server handles them; a clientTime further than this from the server's time is not trusted
 * (a wrong or stuck device clock can then never hold back a real punch for longer than this).
 */
export const CLIENT_TIME_TRUST_SECS = 300;
/**
 * The shift rule of the missed-punch question (app settings `timeclock`, docs/timeclock.md):
 * - `shiftStarts`: the local times ("HH:mm", 24-hour, the clock's time zone) shifts begin. An "in"
 *   belongs to the latest start at or before it plus `graceMinutes` (a worker comes early); its shift
 *   ends at the next start. A scan more than `graceMinutes` after that end follows an in from an
 *   earlier shift: the clock asks when the worker left. None (the default): the maximum shift alone.
 * - `maxShiftHours`: an in older than this always asks, whatever the starts; and "Leaving now" beyond
 *   it is not a punch out but a pending request for the timekeeper (never a 38-hour shift).
 */
export const timeclockSettingsSchema = z.strictObject({
  shiftStarts: z.array(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time like 06:00')).max(24),
  maxShiftHours: z.number().int().min(1).max(24),
  graceMinutes: z.number().int().min(0).max(240),
});
export type TimeclockSettings = z.infer<typeof timeclockSettingsSchema>;
/**
 * Before an admin sets any: no shift starts (the app cannot know them; one guessed start would cut
 * through night shifts), shifts of at most 12 hours, an hour's grace.
 */
export const TIMECLOCK_SETTINGS_DEFAULTS: TimeclockSettings = { shiftStarts: [], maxShiftHours: 12, graceMinutes: 60 };

/** The timeclock section of app settings (site data conf/app_settings); the defaults when missing or bad. */
export function readTimeclockSettings(appSettings: unknown): TimeclockSettings {
  const raw = typeof appSettings === 'object' && appSettings !== null ? (appSettings as { timeclock?: unknown }).timeclock : undefined;
  const parsed = timeclockSettingsSchema.safeParse(raw);
  return parsed.success ? parsed.data : TIMECLOCK_SETTINGS_DEFAULTS;
}

const minuteOfDay = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether a scan at `now` follows an "in" at `inAt` from an earlier shift (the missed-punch
 * question): older than the maximum shift, or more than the grace after the end of the in's shift.
 * `tzOffsetMinutes`: minutes behind UTC of the clock (as Date#getTimezoneOffset), for the local starts.
 */
export function inFromEarlierShift(inAt: number, now: number, s: TimeclockSettings, tzOffsetMinutes: number): boolean {
  if (now - inAt > s.maxShiftHours * 3_600_000) return true;
  const grace = s.graceMinutes * 60_000;
  const starts = [...new Set(s.shiftStarts.map(minuteOfDay))].sort((a, b) => a - b);
  if (!starts.length) return false;
  // Local midnight of the day of (in + grace), in UTC milliseconds.
  const local = inAt + grace - tzOffsetMinutes * 60_000;
  const dayStart = Math.floor(local / 86_400_000) * 86_400_000 + tzOffsetMinutes * 60_000;
  // Every start of the day before, that day and the day after, as instants, in order.
  const candidates = [-1, 0, 1, 2].flatMap((d) => starts.map((m) => dayStart + d * 86_400_000 + m * 60_000));
  const shiftIdx = candidates.findLastIndex((c) => c <= inAt + grace);
  const shiftEnd = candidates[shiftIdx + 1]!;
  return now > shiftEnd + grace;
}

/** Over the maximum shift: "Leaving now" is then a pending out for the timekeeper, not a punch. */
export const beyondMaxShift = (inAt: number, now: number, s: TimeclockSettings): boolean => now - inAt > s.maxShiftHours * 3_600_000;
/** Wrong PINs (or unknown typed badges) per badge before it is locked for PIN_LOCK_MINUTES. */
export const PIN_MAX_FAILURES = 5;
export const PIN_LOCK_MINUTES = 15;
/** The most punches one list or export answers. */
export const PUNCH_LIST_MAX = 2000;

export const PUNCH_KINDS = ['in', 'out'] as const;
/** A correction may also void the punch it replaces. */
export const CORRECTION_KINDS = ['in', 'out', 'void'] as const;
export type CorrectionKind = (typeof CORRECTION_KINDS)[number];
const CORRECTION_KIND_NAMES: ReadonlySet<string> = new Set<string>(CORRECTION_KINDS);
export const isCorrectionKind = (kind: string): kind is CorrectionKind => CORRECTION_KIND_NAMES.has(kind);
/**
 * clock: a badge at a time clock; offline: a badge at a time clock that could not reach the server,
 * signed by the device and replayed, recorded at the device's time (docs/timeclock.md); missed: the time a worker stated for a missed punch; correction: an approver's record. */
export const PUNCH_SOURCES = ['clock', 'missed', 'correction', 'offline'] as const;
/** valid: counts; pending: waits for a timeclockAdmin (a missed punch). */
export const PUNCH_STATUSES = ['valid', 'pending'] as const;

/**
 * A punch made while the clock could not reach the server, replayed later (docs/timeclock.md, Offline
 * punches): the device's time of the scan and the device's signature (offline-punch.ts signOfflinePunch)
 * over the workstation, the badge, that time, the idempotency key and the photo's SHA-256.
 */
export const offlinePunchSchema = z.strictObject({
  deviceTime: z.iso.datetime({ offset: true }),
  /** base64url of an HMAC-SHA256: 43 characters. */
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/, tk('must be the device signature (43 base64url characters)')),
});
export type OfflinePunch = z.infer<typeof offlinePunchSchema>;

/** A PIN: 4 to 8 digits. */
export const pinSchema = z.string().regex(/^\d{4,8}$/, tk('must be 4 to 8 digits'));
const isoTime = z.iso.datetime({ offset: true });

/** How the badge reached the clock: a typed badge needs the PIN when the worker has one. */
export const badgeEntry = z.enum(['scan', 'typed']);

export const punchSchema = z.object({
  id: z.string(),
  kind: z.enum(CORRECTION_KINDS),
  /** When it counts (the server's time for a clock punch; the stated or corrected time otherwise). */
  at: z.string(),
  serverTs: z.string(),
  clientTs: z.string().nullable(),
  deviceId: z.string().nullable(),
  photoMediaId: z.string().nullable(),
  source: z.enum(PUNCH_SOURCES),
  status: z.enum(PUNCH_STATUSES),
  /** The punch this record corrects (correction-of); the original stays. */
  replacesId: z.string().nullable(),
  reason: z.string().nullable(),
  approvedBy: z.string().nullable(),
});
export type Punch = z.infer<typeof punchSchema>;

/** A punch as the admin list shows it: who, and whether it was edited or superseded. */
export const punchRowSchema = punchSchema.extend({
  accountId: z.string(),
  workerName: z.string(),
  approverName: z.string().nullable(),
  /** A later record replaces this one. */
  replacedById: z.string().nullable(),
  /** This record is a correction or replaces another one. */
  edited: z.boolean(),
});
export type PunchRow = z.infer<typeof punchRowSchema>;

export const clockStatusSchema = z.object({ in: z.boolean(), since: z.string().nullable() });

/** What the clock shows a worker: the first name and an initial only, never a list of staff. */
export const clockWorkerSchema = z.object({ firstName: z.string(), initial: z.string() });

export const timeclockCalls = {
  'timeclock/punch': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({
      badge: scanCode,
      entry: badgeEntry.default('scan'),
      pin: pinSchema.optional(),
      /** The clock's own time when the badge was read (kept beside the server's time: clock skew). */
      clientTime: isoTime.optional(),
      /** The photo taken at the scan (media/upload, purpose clockPhoto); deleted when the scan ends in no punch. */
      photoMediaId: idSchema.optional(),
      /** The answer to the missed-punch question: when the worker left. */
      missedOutAt: isoTime.optional(),
      /** The other answer to it: nothing was missed, a long shift ends now; this scan punches out. */
      leavingNow: z.boolean().optional(),
      /**
       * Makes a retried punch apply once: a replay with the key answers the stored result. Required
       * with `offline` (the outbox replays with the same key).
       */
      idempotencyKey: idempotencyKeySchema.optional(),
      /** A punch made offline, replayed: recorded at its device time when the signature is the device's. */
      offline: offlinePunchSchema.optional(),
    }),
    response: withErr({
      /**
       * punched: a new punch; duplicate: a second scan within PUNCH_DEBOUNCE_SECS; missedPunch: ask when
       * they left; forTimekeeper: "Leaving now" beyond the maximum shift, stored as a pending out
       * (`punch`) that a timekeeper confirms or corrects on Punch Corrections. An offline punch that
       * cannot be placed in the worker's day without a question (it follows an in from an earlier shift,
       * or it would repeat the kind of the punch recorded after it) is also `forTimekeeper`: a pending
       * `punch`, without `maxShiftHours`.
       */
      result: z.enum(['punched', 'duplicate', 'missedPunch', 'forTimekeeper']).optional(),
      worker: clockWorkerSchema.optional(),
      punch: punchSchema.optional(),
      status: clockStatusSchema.optional(),
      /** In since (missedPunch): the question's time. */
      inSince: z.string().optional(),
      /** The maximum shift in hours (missedPunch, forTimekeeper), for the clock's words. */
      maxShiftHours: z.number().optional(),
      today: z.array(punchSchema).optional(),
    }),
  },
  'timeclock/setPin': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ accountId: idSchema, pin: pinSchema.nullable() }),
    response: withErr({}),
  },
  'timeclock/punches/list': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({
      from: isoTime,
      to: isoTime,
      accountId: idSchema.optional(),
      /** Only what waits for an approver. */
      pendingOnly: z.boolean().default(false),
    }),
    response: withErr({ punches: z.array(punchRowSchema).optional(), more: z.boolean().optional() }),
  },
  'timeclock/correct': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema,
      /** The punch corrected; absent when a missing punch is added. */
      replacesId: idSchema.optional(),
      /** Whose punch is added (when replacesId is absent). */
      accountId: idSchema.optional(),
      kind: z.enum(CORRECTION_KINDS),
      at: isoTime,
      reason: z.string().trim().min(3, tk('must be at least 3 characters')).max(200),
    }),
    response: withErr({ punch: punchSchema.optional() }),
  },
  'timeclock/punches/export': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ from: isoTime, to: isoTime }),
    response: withErr({ csv: z.string().optional(), fileName: z.string().optional() }),
  },
} as const;
