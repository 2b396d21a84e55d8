import { z } from 'zod';
import { PACK_PICK_MAX_ROWS, SITE_DATA_ID_MAX } from './constants.ts';
import { SPEC_LOC_IDS } from './loc-ids.ts';
import { entityDefSchema } from './records/schema-model.ts';
import { accountsCalls } from './accounts.ts';
import { auditStampSchema, callBase, recordInputSchema, withErr } from './common.ts';
import { countCalls } from './counts.ts';
import { csvTransferCalls } from './csv-transfer.ts';
import { itemCalls } from './items.ts';
import { laborCalls } from './labor.ts';
import { labelCalls } from './labels.ts';
import { locationCalls } from './locations.ts';
import { orderCalls } from './orders.ts';
import { shippingCalls } from './shipping.ts';
import { rolesCalls } from './roles.ts';
import { siteAdminCalls } from './site-admin.ts';
import { stockCalls } from './stock.ts';
import { timeclockCalls } from './timeclock.ts';
import { kioskCalls } from './kiosk.ts';
import { tk } from './i18n.ts';

// The schema of every call: request body and response, used for validation on the server, the
// OpenAPI document and the web app's types. Paths are joined under /api (spec section 7).

export const siteInfo = z.object({ siteId: z.string(), orgId: z.string(), trustedDomains: z.array(z.string()) });

export const permsSchema = z.object({
  roles: z.array(z.string()),
  kioskAcct: z.boolean(),
  timeclockAcct: z.boolean(),
  serviceAcct: z.boolean(),
});
export const orgSchema = z.object({ id: z.string(), name: z.string() });
export const userSchema = z.object({ id: z.string(), userName: z.string(), firstName: z.string(), surnames: z.string() });
export const workstationSchema = z.object({ id: z.string(), timeclock: z.boolean(), kiosk: z.boolean() });

export const siteDataSection = z.enum(['conf', 'brand']);
export const dataIdSchema = z
  .string()
  .min(1)
  .max(SITE_DATA_ID_MAX)
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9_]*[A-Za-z0-9])?$/,
    'must start with a letter or digit, may only contain letters (upper or lowercase), digits (0-9), underscores (_), and must end in a letter or digit.',
  );
export const siteDataSchema = z.object({
  _id: z.string().optional(),
  _rev: z.number().int().optional(),
  dataId: dataIdSchema,
  data: z.record(z.string(), z.unknown()),
});

export const sessionPrefs = z.record(z.string(), z.unknown());
export const sessionSchema = z.object({
  sessionId: z.string(),
  prefs: sessionPrefs,
  audit: z.object({ modify: z.object({ user: z.string(), ts: z.string() }).optional() }).optional(),
});

/**
 * site/putData's siteData as sent: dataId and data are checked by the record layer (siteDataEntity),
 * so a bad value gets the spec's validation messages rather than zod's.
 */
export const siteDataInput = z.looseObject({
  _id: z.string().optional(),
  _rev: z.number().int().optional(),
  // Optional to zod only: a missing value gets the record layer's "must be provided".
  dataId: z.unknown().optional().describe('Required, 1 to 35 characters, a general id'),
  data: z.unknown().optional().describe('Required, an object'),
});

// The record layer (docs/records.md): generic records of a registered entity type.
export const recordTypeSchema = z.string().min(1).max(60);
/** The longest record id (the records table's _id column). */
export const RECORD_ID_MAX = 120;
export const recordIdSchema = z.string().min(1).max(RECORD_ID_MAX);
/** The most records one record/list answer holds. */
export const RECORD_LIST_MAX = PACK_PICK_MAX_ROWS;
/** A record as stored and answered: its fields plus the control fields, all set by the server. */
export const storedRecordSchema = z.looseObject({
  _id: z.string(),
  _rev: z.number().int(),
  x$type: z.string(),
  x$audit: auditStampSchema,
});
/**
 * `detail` of an ERR_BAD_INPUT validation failure is this object as JSON: every message per field
 * name ('_record' for the record as a whole), and the calculation script's error if it failed.
 */
export const validationDetailSchema = z.object({
  errors: z.record(z.string(), z.array(z.string())),
  calcError: z.string().optional(),
});
export type ValidationDetail = z.infer<typeof validationDetailSchema>;

/** Pictures accepted by media/upload (no SVG: it can carry script), at most 2 MiB once decoded. */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const MEDIA_MAX_BYTES = 2 * 1024 * 1024;
/** A base64 data URL of MEDIA_MAX_BYTES: 4 characters per 3 bytes, plus the prefix. */
export const MEDIA_MAX_DATA_URL_CHARS = Math.ceil(MEDIA_MAX_BYTES / 3) * 4 + 32;
/** clockPhoto: taken by the time clock at a scan; deleted when the scan ends in no punch (docs/timeclock.md). */
export const mediaPurpose = z.enum(['photo', 'logo', 'icon', 'clockPhoto']);

export const calls = {
  ...accountsCalls(callBase),
  ...rolesCalls(callBase),
  ...siteAdminCalls(callBase),
  ...stockCalls,
  ...locationCalls,
  ...itemCalls,
  ...csvTransferCalls,
  ...laborCalls,
  ...labelCalls,
  ...countCalls,
  ...orderCalls,
  ...shippingCalls,
  ...timeclockCalls,
  ...kioskCalls,
  'site/resolve': {
    locId: SPEC_LOC_IDS.get('site/resolve'),
    auth: 'none',
    body: callBase.extend({ hostname: z.string().min(1).max(253) }),
    response: withErr({ site: siteInfo.optional() }),
  },
  'site/getData': {
    locId: SPEC_LOC_IDS.get('site/getData'),
    auth: 'optional',
    body: callBase.extend({ section: siteDataSection, dataId: dataIdSchema }),
    response: withErr({ siteData: siteDataSchema.optional() }),
  },
  'site/putData': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ section: siteDataSection, siteData: siteDataInput }),
    response: withErr({ siteData: siteDataSchema.optional() }),
  },
  'auth/login': {
    locId: SPEC_LOC_IDS.get('auth/login'),
    auth: 'none',
    body: callBase.extend({
      userName: z.string().min(1).max(100),
      password: z.string().min(1).max(200),
      stayLoggedIn: z.boolean().default(false),
      workstationId: z.string().min(1).max(40),
      /** The secret this device got when it was authorised or paired; without it the id is not authorised. */
      workstationSecret: z.string().max(100).optional(),
      /** A shorter token lifetime than the server's, e.g. for shared devices; capped by the server. */
      lifetimeSecs: z.number().int().min(5).max(31_536_000).optional(),
    }),
    response: withErr({
      authToken: z.string().optional(),
      org: orgSchema.optional(),
      user: userSchema.optional(),
      perms: permsSchema.optional(),
      workstation: workstationSchema.optional(),
      /** The password was set by an admin: the account must choose its own before anything else. */
      mustChangePassword: z.boolean().optional(),
    }),
  },
  'auth/logout': {
    locId: SPEC_LOC_IDS.get('auth/logout'),
    auth: 'required',
    body: callBase,
    response: withErr({}),
  },
  'auth/refresh': {
    locId: SPEC_LOC_IDS.get('auth/refresh'),
    auth: 'required',
    body: callBase,
    response: withErr({ authToken: z.string().optional() }),
  },
  'capture/session/genSessionToken': {
    locId: SPEC_LOC_IDS.get('capture/session/genSessionToken'),
    auth: 'required',
    body: callBase.extend({ userId: z.string().optional(), roles: z.array(z.string()).optional() }),
    response: withErr({ sessionToken: z.string().optional() }),
  },
  'site/access/getVisibleFeatures': {
    locId: SPEC_LOC_IDS.get('site/access/getVisibleFeatures'),
    auth: 'required',
    body: callBase.extend({ sessionToken: z.string().min(1) }),
    response: withErr({ visibleFeatures: z.record(z.string(), z.boolean()).optional() }),
  },
  'capture/session/getSession': {
    locId: SPEC_LOC_IDS.get('capture/session/getSession'),
    auth: 'required',
    body: callBase.extend({ sessionToken: z.string().min(1) }),
    response: withErr({ session: sessionSchema.optional() }),
  },
  'capture/session/putSession': {
    locId: SPEC_LOC_IDS.get('capture/session/putSession'),
    auth: 'required',
    body: callBase.extend({ sessionToken: z.string().min(1), session: z.object({ prefs: sessionPrefs }) }),
    response: withErr({ session: sessionSchema.optional() }),
  },
  'docIo/zplPrinter/getAttachedPrinters': {
    locId: SPEC_LOC_IDS.get('docIo/zplPrinter/getAttachedPrinters'),
    auth: 'required',
    body: callBase,
    response: withErr({ printers: z.array(z.object({ id: z.string(), name: z.string(), agent: z.string() })).optional() }),
  },
  'record/insert': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ type: recordTypeSchema, record: recordInputSchema }),
    response: withErr({ record: storedRecordSchema.optional() }),
  },
  'record/update': {
    locId: undefined,
    auth: 'required',
    /** The whole record (it replaces the stored one) with the `_rev` it was read at. */
    body: callBase.extend({ type: recordTypeSchema, record: recordInputSchema }),
    response: withErr({ record: storedRecordSchema.optional() }),
  },
  'record/get': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ type: recordTypeSchema, id: recordIdSchema }),
    response: withErr({ record: storedRecordSchema.optional() }),
  },
  'record/list': {
    locId: undefined,
    auth: 'required',
    /** Ordered by _id; the next page starts after the last _id of this one. */
    body: callBase.extend({
      type: recordTypeSchema,
      after: recordIdSchema.optional(),
      limit: z.number().int().min(1).max(RECORD_LIST_MAX).default(100),
    }),
    response: withErr({ records: z.array(storedRecordSchema).optional(), more: z.boolean().optional() }),
  },
  'record/getSchema': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ type: recordTypeSchema }),
    response: withErr({ entity: entityDefSchema.optional() }),
  },
  'media/upload': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({
      dataUrl: z
        .string()
        .max(MEDIA_MAX_DATA_URL_CHARS, tk('must be a picture of at most 2 MB'))
        .regex(
          /^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/]*={0,2}$/,
          'must be a base64 data URL of image/jpeg, image/png or image/webp',
        ),
      purpose: mediaPurpose.default('photo'),
    }),
    response: withErr({ mediaId: z.string().optional() }),
  },
} as const;

export type CallPath = keyof typeof calls;
export type CallBody<P extends CallPath> = z.input<(typeof calls)[P]['body']>;
export type CallResponse<P extends CallPath> = z.output<(typeof calls)[P]['response']>;
/** What a caller passes: the body less the fields the request helper fills in. */
export type CallArgs<P extends CallPath> = Omit<CallBody<P>, 'locId' | 'siteId' | 'appId' | 'orgId'>;
