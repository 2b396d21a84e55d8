import { z } from 'zod';
import { FAVICON_SIZES, LABOR_DEFAULTS, STOCK_ADJUST_CLEAR_DST_LOC_DEFAULT } from './constants.ts';
import { withErr, type callBase } from './common.ts';
import { timeclockSettingsSchema } from './timeclock.ts';
import { english, tk, type Translate } from './i18n.ts';

// Site administration (docs/admin.md): the organisation's sites, workstations and their pairing, the
// audit log, and the admin-edited site data (app settings, brand). The calls are spread into `calls`
// of api.ts (types only from it).

export const workstationRowSchema = z.object({
  id: z.string(),
  timeclock: z.boolean(),
  kiosk: z.boolean(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  lastUserName: z.string().nullable(),
});
export type WorkstationRow = z.infer<typeof workstationRowSchema>;
export const workstationIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38}[A-Za-z0-9])?$/, 'must be 1 to 40 letters, digits, - or _');
/** A one-time pairing code a device shows: six letters and digits without look-alikes (0/O, 1/I/L). */
export const PAIR_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIR_CODE_LENGTH = 6;
/** How long a pairing code can be entered by an admin and claimed by its device. */
export const PAIR_CODE_TTL_SECS = 600;
export const pairCodeSchema = z
  .string()
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .regex(
        new RegExp(`^[${PAIR_CODE_ALPHABET}]{${PAIR_CODE_LENGTH}}$`),
        `must be the ${PAIR_CODE_LENGTH} letters and digits the device shows`,
      ),
  );
/** The secret a paired device holds and sends with its workstation id (base64url of 32 random bytes). */
export const workstationSecretSchema = z.string().min(16).max(100);

/** A site of the organisation, as the account editor offers it. */
export const siteSummarySchema = z.object({ id: z.string(), name: z.string(), hosts: z.array(z.string()) });
export type SiteSummary = z.infer<typeof siteSummarySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  ts: z.string(),
  siteId: z.string().nullable(),
  accountId: z.string(),
  userName: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

type AuditFacts = Pick<AuditEntry, 'action' | 'entity' | 'entityId' | 'before' | 'after'>;
const fieldOf = (v: unknown, key: string): string | undefined =>
  v && typeof v === 'object' && Object.hasOwn(v, key) && typeof (v as Record<string, unknown>)[key] === 'string'
    ? ((v as Record<string, string>)[key] as string)
    : undefined;
/** Who or what an entry is about: the account's name where it holds one, else the entity's id. */
const subjectOf = (e: AuditFacts): string => fieldOf(e.after, 'userName') ?? fieldOf(e.before, 'userName') ?? e.entityId;

/** A pairing that replaced an authorised device (admin/workstation/pair with `replace`). */
const isReplacement = (e: AuditFacts): boolean =>
  !!e.after && typeof e.after === 'object' && Object.hasOwn(e.after, 'replaced') && (e.after as { replaced: unknown }).replaced === true;

/**
 * The `detail` (JSON) of admin/workstation/pair's refusal for a code whose workstation id holds a
 * secret: the device that would lose its authorisation, for the admin to recognise before replacing it.
 */
export interface PairReplaceDetail {
  workstationId: string;
  /** The account last logged in on the authorised device (with its secret); null if none. */
  lastUserName: string | null;
  /** When the authorised device was last seen (ISO). */
  lastSeen: string;
}

/** What each audited call did, in words (a Map: an action named like an Object member is unknown). */
const AUDIT_SENTENCES = new Map<string, (e: AuditFacts, t: Translate) => string>([
  ['admin/account/create', (e, t) => t('Created account {{name}}', { name: subjectOf(e) })],
  ['admin/account/update', (e, t) => t('Changed account {{name}}', { name: subjectOf(e) })],
  ['admin/account/setPassword', (e, t) => t('Set a temporary password for {{name}}', { name: subjectOf(e) })],
  ['admin/account/resetPassword', (e, t) => t('Reset the password of {{name}}', { name: subjectOf(e) })],
  ['admin/account/issueApiKey', (e, t) => t('Issued an API key to {{name}}', { name: subjectOf(e) })],
  ['admin/account/revokeApiKey', (e, t) => t('Revoked the API key of {{name}}', { name: subjectOf(e) })],
  ['label/agent/create', (e, t) => t('Added print agent {{id}}', { id: e.entityId })],
  ['label/agent/revoke', (e, t) => t('Revoked print agent {{id}}', { id: e.entityId })],
  ['account/me/update', (_, t) => t('Changed their own name or e-mail')],
  ['account/me/changePassword', (_, t) => t('Changed their own password')],
  ['admin/role/create', (e, t) => t('Created role {{name}}', { name: subjectOf(e) })],
  [
    'admin/role/rename',
    (e, t) => {
      const [from, to] = [fieldOf(e.before, 'name'), fieldOf(e.after, 'name')];
      return from && to && from !== to
        ? t('Renamed role {{from}} to {{to}}', { from, to })
        : t('Changed role {{name}}', { name: subjectOf(e) });
    },
  ],
  ['admin/role/remove', (e, t) => t('Removed role {{name}}', { name: subjectOf(e) })],
  ['admin/featureAccess/put', (_, t) => t('Changed feature access')],
  ['admin/workstation/update', (e, t) => t('Changed workstation {{name}}', { name: subjectOf(e) })],
  ['admin/workstation/remove', (e, t) => t('Removed workstation {{name}}', { name: subjectOf(e) })],
  [
    'admin/workstation/pair',
    (e, t) =>
      isReplacement(e)
        ? t('Paired workstation {{name}}, replacing the device that held it', { name: subjectOf(e) })
        : t('Paired workstation {{name}}', { name: subjectOf(e) }),
  ],
  [
    'site/putData',
    (e, t) =>
      e.entity === 'siteData.brand'
        ? t('Changed the brand')
        : e.entityId === 'app_settings'
          ? t('Changed the app settings')
          : t('Changed site data {{id}}', { id: e.entityId }),
  ],
  ['record/insert', (e, t) => t('Created {{entity}} {{id}}', { entity: e.entity, id: e.entityId })],
  ['record/update', (e, t) => t('Changed {{entity}} {{id}}', { entity: e.entity, id: e.entityId })],
  ['record/delete', (e, t) => t('Deleted {{entity}} {{id}}', { entity: e.entity, id: e.entityId })],
]);

/** An audit entry in words ("Created account jdoe"); an action without a sentence shows as itself. */
export function describeAudit(e: AuditFacts, t: Translate = english): string {
  return AUDIT_SENTENCES.get(e.action)?.(e, t) ?? `${e.action} ${subjectOf(e)}`;
}

// App settings (site data conf/app_settings, spec sections 3 and 9).
export const ORDER_TYPES = ['sos', 'sms', 'rst', 'wos', 'mos'] as const;
const code = z.string().trim().min(1).max(40);
const statusList = z.array(code).max(50);
/**
 * What a short pick does with the rest of the line (docs/orders.md, "Short picks and backorders"):
 * `close` closes it short on the order (the order can be shipped without it); `open` leaves it open on
 * the order (walked last, the reason kept) for a later pick; `backorder` closes it short and puts the
 * rest on a backorder: a new order of the same type numbered `<number>-BO<n>`.
 */
export const SHORT_PICK_MODES = ['close', 'open', 'backorder'] as const;
export type ShortPickMode = (typeof SHORT_PICK_MODES)[number];
/** A short pick when the settings say nothing: the rest is closed short. */
export const SHORT_PICK_DEFAULT: ShortPickMode = 'close';
/** include: statuses that make an order pickable; assign and picked: the first is set, any of them counts; short: what a short pick does (absent: close). */
export const pickStatusesSchema = z.strictObject({
  include: statusList,
  assign: statusList,
  picked: statusList,
  short: z.enum(SHORT_PICK_MODES).optional(),
});
const nameList = z.array(z.string().trim().min(1).max(60)).max(200);
export const appSettingsSchema = z.looseObject({
  labor: z.strictObject({
    displayScale: z.number().int().min(0).max(4),
    roundToMinutes: z.number().int().min(0).max(60),
    batchGraceTimeSecs: z.number().int().min(0).max(3600),
    /** Labor may be booked by a worker who is not clocked in (docs/labor.md); absent: false. */
    allowWithoutClockIn: z.boolean().optional(),
  }),
  stockPick: z.strictObject({
    sos: pickStatusesSchema,
    sms: pickStatusesSchema,
    rst: pickStatusesSchema,
    wos: pickStatusesSchema,
    mos: pickStatusesSchema,
  }),
  stockAdjust: z.strictObject({ clearDstLoc: z.boolean(), reasons: nameList.min(1) }),
  custom: z.looseObject({ certSource: nameList }),
  labels: z.strictObject({
    stockLabels: nameList,
    pickLabels: nameList,
    orderTravellerLabels: nameList,
    locLabel: nameList,
    staffLabel: nameList,
  }),
  /** The missed-punch rule (docs/timeclock.md); absent: TIMECLOCK_SETTINGS_DEFAULTS. */
  timeclock: timeclockSettingsSchema.optional(),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;
export const LABEL_TEMPLATE_LISTS = ['stockLabels', 'pickLabels', 'orderTravellerLabels', 'locLabel', 'staffLabel'] as const;

const pickDefaults = { include: ['open', 'released'], assign: ['picking'], picked: ['picked'] };
/** App settings before an admin saves any (spec section 9). */
export const APP_SETTINGS_DEFAULTS: AppSettings = {
  labor: { ...LABOR_DEFAULTS },
  stockPick: { sos: pickDefaults, sms: pickDefaults, rst: pickDefaults, wos: pickDefaults, mos: pickDefaults },
  stockAdjust: { clearDstLoc: STOCK_ADJUST_CLEAR_DST_LOC_DEFAULT, reasons: ['Damaged', 'Found', 'Lost', 'Correction'] },
  custom: { certSource: [] },
  labels: { stockLabels: [], pickLabels: [], orderTravellerLabels: [], locLabel: [], staffLabel: [] },
};

// Brand (site data brand/brand).
export const BRAND_COLORS = [
  'primary',
  'secondary',
  'accent',
  'dark',
  'positive',
  'negative',
  'info',
  'warning',
  'headFg',
  'headBg',
  'clickPrimary',
  'clickSecondary',
] as const;
export type BrandColor = (typeof BRAND_COLORS)[number];
/** The favicon sizes (px, square) the brand keeps: browser tabs 16-64, shortcuts and home screens 128 and 192. */
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, tk('must be a colour like #1f6f8b'));
const mediaRef = z.strictObject({ mediaId: z.string().min(1).max(40) });
export const brandSchema = z.strictObject({
  siteName: z.string().trim().min(1).max(60),
  title: z.string().trim().min(1).max(60),
  logo: mediaRef.optional(),
  favIcon: z
    .strictObject(
      Object.fromEntries(FAVICON_SIZES.map((s) => [String(s), mediaRef.optional()])) as Record<
        `${(typeof FAVICON_SIZES)[number]}`,
        z.ZodOptional<typeof mediaRef>
      >,
    )
    .optional(),
  colors: z.strictObject(Object.fromEntries(BRAND_COLORS.map((c) => [c, hexColor])) as Record<BrandColor, typeof hexColor>),
});
export type BrandData = z.infer<typeof brandSchema>;

/** The brand before an admin saves one. */
export const BRAND_DEFAULTS: BrandData = {
  siteName: 'Floorhand',
  title: 'Floorhand',
  colors: {
    primary: '#1f6f8b',
    secondary: '#26a69a',
    accent: '#9c27b0',
    dark: '#1d1d1d',
    positive: '#21ba45',
    negative: '#c10015',
    info: '#31ccec',
    warning: '#f2c037',
    headFg: '#ffffff',
    headBg: '#1f6f8b',
    clickPrimary: '#1f6f8b',
    clickSecondary: '#26a69a',
  },
};

const siteDataOut = z.object({
  _id: z.string().optional(),
  _rev: z.number().int().optional(),
  dataId: z.string(),
  data: z.record(z.string(), z.unknown()),
});

const page = { offset: z.number().int().min(0).max(100_000).default(0), limit: z.number().int().min(1).max(100).default(50) };

/** The site administration calls, built on common.ts's callBase. */
export function siteAdminCalls(base: typeof callBase) {
  return {
    'admin/site/list': {
      locId: undefined,
      auth: 'required',
      /** The sites whose account perms the caller manages: every site of the organisation for an organisation admin, its own for a site admin. */
      body: base,
      response: withErr({ sites: z.array(siteSummarySchema).optional() }),
    },
    'admin/workstation/list': {
      locId: undefined,
      auth: 'required',
      body: base,
      response: withErr({ workstations: z.array(workstationRowSchema).optional() }),
    },
    'admin/workstation/update': {
      locId: undefined,
      auth: 'required',
      /**
       * Authorises (or revokes) a workstation as time clock and kiosk; an id not seen yet is added.
       * `thisDevice`: the admin is on that device; the answer carries a new secret for it to keep.
       * Other devices get theirs by pairing (workstation/pair/start, admin/workstation/pair).
       */
      body: base.extend({ id: workstationIdSchema, timeclock: z.boolean(), kiosk: z.boolean(), thisDevice: z.boolean().default(false) }),
      response: withErr({ workstation: workstationRowSchema.optional(), secret: z.string().optional() }),
    },
    'admin/workstation/remove': {
      locId: undefined,
      auth: 'required',
      /** Forgets a workstation id (a stale one); the device, if it comes back, is seen anew, unauthorised. */
      body: base.extend({ id: workstationIdSchema }),
      response: withErr({ removed: z.boolean().optional() }),
    },
    'admin/workstation/pair': {
      locId: undefined,
      auth: 'required',
      /**
       * Approves the device showing `code`, with these authorisations; the device then claims its
       * secret. When the code's workstation id already holds a secret (an authorised device), the
       * answer is 409 ERR_CONFLICT naming that device's last account and last seen (`detail`, JSON
       * `PairReplaceDetail`) unless `replace` says to replace that device (audited as a replacement).
       */
      body: base.extend({ code: pairCodeSchema, timeclock: z.boolean(), kiosk: z.boolean(), replace: z.boolean().default(false) }),
      response: withErr({ workstation: workstationRowSchema.optional() }),
    },
    'workstation/pair/start': {
      locId: undefined,
      auth: 'required',
      /** This device asks for a one-time code to show, for an admin to enter (PAIR_CODE_TTL_SECS). */
      body: base.extend({ workstationId: workstationIdSchema }),
      response: withErr({ code: z.string().optional(), expiresAt: z.string().optional() }),
    },
    'workstation/pair/claim': {
      locId: undefined,
      auth: 'required',
      /** Once an admin entered the code: the device's secret, answered once. Before that: `pending`. */
      body: base.extend({ workstationId: workstationIdSchema, code: pairCodeSchema }),
      response: withErr({ pending: z.boolean().optional(), secret: z.string().optional(), workstation: workstationRowSchema.optional() }),
    },
    'admin/audit/list': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ entity: z.string().max(80).optional(), ...page }),
      response: withErr({ entries: z.array(auditEntrySchema).optional(), more: z.boolean().optional() }),
    },
    'admin/appSettings/put': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ siteData: z.object({ _rev: z.number().int().optional(), data: appSettingsSchema }) }),
      response: withErr({ siteData: siteDataOut.optional() }),
    },
    'admin/brand/put': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ siteData: z.object({ _rev: z.number().int().optional(), data: brandSchema }) }),
      response: withErr({ siteData: siteDataOut.optional() }),
    },
  } as const;
}
