// Who may make each call: one table for every call of the contract (docs/api.md, Rights). The server's
// registerCall enforces it before the handler runs, so no route checks account types or these
// features itself; the web reads the same table to hide what would be refused.
import type { CallPath } from './api.ts';
import type { UserPerms } from './perms.ts';

/**
 * The kinds of account. Kiosk and time-clock accounts are shared devices: nobody in particular is
 * behind them, so they never change stock or master data and read only what their own pages need,
 * until a person signs in on them (the kiosk's badge, a later issue). Service accounts are
 * integrations, with API keys only.
 */
export const ACCOUNT_KINDS = ['person', 'service', 'kiosk', 'timeclock'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** The kind of the account behind perms on one site: the shared-device and service flags win over roles. */
export function accountKindOf(perms: UserPerms): AccountKind {
  if (perms.serviceAcct) return 'service';
  if (perms.kioskAcct) return 'kiosk';
  if (perms.timeclockAcct) return 'timeclock';
  return 'person';
}

export interface CallRights {
  /** The account kinds that may make the call (calls without login: who may, once logged in, too). */
  readonly accounts: readonly AccountKind[];
  /**
   * Features (spec section 8, `feature` or `feature.action`) the caller's roles must all give; what
   * the menus hide cannot be called directly. Calls whose feature depends on the body (import/csv)
   * check it in their route.
   */
  readonly features?: readonly string[];
}

const EVERYONE: readonly AccountKind[] = ACCOUNT_KINDS;
/** Accounts someone answers for: a person, or an integration acting under its own name. */
const ACCOUNTABLE: readonly AccountKind[] = ['person', 'service'];
const PEOPLE: readonly AccountKind[] = ['person'];
/** The time clock takes a photo with each punch. */
const PEOPLE_AND_TIMECLOCK: readonly AccountKind[] = ['person', 'service', 'timeclock'];

const rights = (accounts: readonly AccountKind[], ...features: string[]): CallRights => (features.length ? { accounts, features } : { accounts });

export const CALL_RIGHTS = {
  // Session and site: what every page, the kiosk's and the time clock's included, needs.
  'site/resolve': rights(EVERYONE),
  'site/getData': rights(EVERYONE),
  'auth/login': rights(EVERYONE),
  'auth/logout': rights(EVERYONE),
  'auth/refresh': rights(EVERYONE),
  'capture/session/genSessionToken': rights(EVERYONE),
  'capture/session/getSession': rights(EVERYONE),
  'capture/session/putSession': rights(EVERYONE),
  'site/access/getVisibleFeatures': rights(EVERYONE),
  'account/me/get': rights(EVERYONE),
  // The service answers Access Restricted itself for the others (spec: own account).
  'account/me/update': rights(EVERYONE),
  'account/me/changePassword': rights(EVERYONE),
  'media/upload': rights(PEOPLE_AND_TIMECLOCK),
  'docIo/zplPrinter/getAttachedPrinters': rights(ACCOUNTABLE),
  'site/putData': rights(ACCOUNTABLE),

  // Administration (the service also checks the admin roles).
  'admin/account/list': rights(ACCOUNTABLE),
  'admin/account/get': rights(ACCOUNTABLE),
  'admin/account/create': rights(ACCOUNTABLE),
  'admin/account/update': rights(ACCOUNTABLE),
  'admin/account/setPassword': rights(ACCOUNTABLE),
  'admin/account/resetPassword': rights(ACCOUNTABLE),
  'admin/account/issueApiKey': rights(ACCOUNTABLE),
  'admin/account/revokeApiKey': rights(ACCOUNTABLE),
  'admin/role/list': rights(ACCOUNTABLE),
  'admin/role/create': rights(ACCOUNTABLE),
  'admin/role/rename': rights(ACCOUNTABLE),
  'admin/role/remove': rights(ACCOUNTABLE),
  'admin/featureAccess/get': rights(ACCOUNTABLE),
  'admin/featureAccess/put': rights(ACCOUNTABLE),
  'admin/site/list': rights(ACCOUNTABLE),
  'admin/workstation/list': rights(PEOPLE),
  'admin/workstation/update': rights(PEOPLE),
  'admin/workstation/remove': rights(PEOPLE),
  'admin/workstation/pair': rights(PEOPLE),
  // The device being paired may be a kiosk or a time clock with its shared account signed in.
  'workstation/pair/start': rights(EVERYONE),
  'workstation/pair/claim': rights(EVERYONE),
  'admin/audit/list': rights(ACCOUNTABLE),
  'admin/appSettings/put': rights(ACCOUNTABLE),
  'admin/brand/put': rights(ACCOUNTABLE),

  // Inventory: reads for accountable accounts; every write also needs its action's feature.
  'stock/lookup': rights(ACCOUNTABLE),
  'stock/get': rights(ACCOUNTABLE),
  'stock/receive': rights(ACCOUNTABLE, 'stockAdjust', 'stockAdjust.receive'),
  'stock/adjust': rights(ACCOUNTABLE, 'stockAdjust', 'stockAdjust.adjust'),
  'stock/move': rights(ACCOUNTABLE, 'stockAdjust', 'stockAdjust.move'),
  'stock/split': rights(ACCOUNTABLE, 'stockAdjust', 'stockAdjust.split'),
  'warehouse/list': rights(ACCOUNTABLE),
  'warehouse/save': rights(ACCOUNTABLE, 'location', 'location.edit'),
  'location/list': rights(ACCOUNTABLE),
  'location/get': rights(ACCOUNTABLE),
  'location/save': rights(ACCOUNTABLE, 'location', 'location.edit'),
  'location/deactivate': rights(ACCOUNTABLE, 'location', 'location.edit'),
  'item/list': rights(ACCOUNTABLE),
  'item/get': rights(ACCOUNTABLE),
  'item/save': rights(ACCOUNTABLE, 'stockLookup', 'stockLookup.items'),
  'import/csv': rights(ACCOUNTABLE),
  'export/csv': rights(ACCOUNTABLE),

  // Physical inventory: counting needs the work area; creating, reviewing and posting need its post action.
  'counts/sheet/list': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/sheet/create': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  'counts/sheet/import': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  'counts/sheet/pdf': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/sheet/get': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/sheet/start': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/sheet/submit': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/sheet/cancel': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  'counts/scanLocation': rights(PEOPLE, 'physicalInventory'),
  'counts/record': rights(PEOPLE, 'physicalInventory'),
  'counts/review': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  'counts/decide': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  'counts/post': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  'counts/export': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/threshold/get': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/threshold/put': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  'counts/frequency/get': rights(ACCOUNTABLE, 'physicalInventory'),
  'counts/frequency/put': rights(ACCOUNTABLE, 'physicalInventory', 'physicalInventory.post'),
  // Orders and picking: reads for accountable accounts; orders are kept with stockPick.orders, picks need stockPick.
  'order/save': rights(ACCOUNTABLE, 'stockPick.orders'),
  'order/get': rights(ACCOUNTABLE),
  'order/list': rights(ACCOUNTABLE),
  'order/cancel': rights(ACCOUNTABLE, 'stockPick.orders'),
  'pick/list': rights(ACCOUNTABLE, 'stockPick'),
  'pick/order': rights(ACCOUNTABLE, 'stockPick'),
  'pick/claim': rights(PEOPLE, 'stockPick'),
  'pick/release': rights(PEOPLE, 'stockPick'),
  'pick/confirm': rights(PEOPLE, 'stockPick'),
  'pick/short': rights(PEOPLE, 'stockPick'),
  'pick/skip': rights(PEOPLE, 'stockPick'),
  'pick/unpick': rights(PEOPLE, 'stockPick'),
  'ship/board': rights(ACCOUNTABLE, 'shipping'),
  'ship/order': rights(ACCOUNTABLE, 'shipping'),
  'package/save': rights(PEOPLE, 'shipping'),
  'package/pack': rights(PEOPLE, 'shipping'),
  'package/unpack': rights(PEOPLE, 'shipping'),
  'ship/confirm': rights(ACCOUNTABLE, 'shipping'),
  'package/packingList': rights(ACCOUNTABLE, 'shipping'),
  'order/issue': rights(ACCOUNTABLE, 'stockPick'),

  // The record layer: generic records and their schemas.
  'record/insert': rights(ACCOUNTABLE),
  'record/update': rights(ACCOUNTABLE),
  'record/get': rights(ACCOUNTABLE),
  'record/list': rights(ACCOUNTABLE),
  'record/getSchema': rights(ACCOUNTABLE),

  // Task labor: tasks are read by whoever books labor; writing them needs singleTask.tasks. Labor is
  // booked by a person (the kiosk's human token, a later issue, makes the worker the caller); the
  // service checks singleTask or batchTask by mode, and the report roles (mayReadLaborReports).
  'task/list': rights(ACCOUNTABLE),
  'task/get': rights(ACCOUNTABLE),
  'task/upsert': rights(ACCOUNTABLE, 'singleTask.tasks'),
  'task/import': rights(ACCOUNTABLE, 'singleTask.tasks'),
  'labor/current': rights(PEOPLE),
  'labor/start': rights(PEOPLE),
  'labor/stop': rights(PEOPLE),
  'labor/report': rights(ACCOUNTABLE),
  'labor/export': rights(ACCOUNTABLE),
  // Labels and printers: printing needs the Label Printers feature; saving a template also an admin role (service).
  'label/template/list': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/template/save': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/preview': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/render': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/print': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/job/list': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/job/reprint': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/agent/list': rights(ACCOUNTABLE, 'labelPrinter'),
  // Administrators only (checked by the labels service, like template saves); an agent's own
  // credential never makes an HTTP call (docs/labels.md, Agent credentials).
  'label/agent/create': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/agent/revoke': rights(ACCOUNTABLE, 'labelPrinter'),
  // Time clock: punches from a time-clock account, or an admin (the spec admits both to the clock;
  // the service refuses other people and checks the device); the
  // corrections, PINs and export for people whose roles are timeclockAdmin or an admin role (checked by the service).
  'timeclock/punch': rights(['person', 'timeclock']),
  'timeclock/setPin': rights(PEOPLE),
  'timeclock/punches/list': rights(PEOPLE),
  'timeclock/correct': rights(PEOPLE),
  'timeclock/punches/export': rights(PEOPLE),
  // Kiosk: a kiosk account opens a person's session (the service refuses anyone else); done is said
  // with the human token (as the person).
  'kiosk/start': rights(['person', 'kiosk']),
  'kiosk/end': rights(['kiosk', 'person']),
  // With a human token the caller is the worker (a person); the kiosk account alone has no session to show.
  'kiosk/current': rights(['person', 'kiosk']),
} as const satisfies Record<CallPath, CallRights>;

const byPath = new Map<string, CallRights>(Object.entries(CALL_RIGHTS));

/** The rights of a call; undefined for a path that is not a call (looked up in a Map: own keys only). */
export const rightsOf = (path: string): CallRights | undefined => byPath.get(path);

/** Whether an account of `kind` may make the call at all. */
export const mayCall = (path: string, kind: AccountKind): boolean => rightsOf(path)?.accounts.includes(kind) ?? false;

/** The answer to a call an account kind may not make. */
export function refusalFor(kind: AccountKind): { code: 'ERR_FORBIDDEN'; message: string } {
  const message =
    kind === 'kiosk' || kind === 'timeclock'
      ? 'A shared device account cannot do this: a person has to sign in'
      : kind === 'service'
        ? 'A service account cannot do this'
        : 'Your account cannot do this';
  return { code: 'ERR_FORBIDDEN', message };
}

/**
 * The calls an account whose password an administrator set (temporary: mustChangePassword) may make
 * before it chooses its own: enough to show the change-password form and to leave. Everything else
 * answers 403 until account/me/changePassword succeeds.
 */
export const WHILE_PASSWORD_TEMPORARY: ReadonlySet<string> = new Set([
  'site/resolve',
  'site/getData',
  'auth/login',
  'auth/logout',
  'auth/refresh',
  'capture/session/genSessionToken',
  'capture/session/getSession',
  'capture/session/putSession',
  'site/access/getVisibleFeatures',
  'account/me/get',
  'account/me/changePassword',
]);
