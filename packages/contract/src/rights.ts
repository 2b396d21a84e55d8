// Who may make each call: one table for every call of the contract (docs/api.md, Rights). The server's
// registerCall enforces it before the handler runs, so no route checks account types or these
// features itself; the web reads the same table to hide what would be refused.
import type { CallPath } from './api.ts';
import type { Feature } from './features.ts';
import { isAdmin, isTimekeeper, type UserPerms } from './perms.ts';
import { tk } from './i18n.ts';

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

/**
 * The shared devices a person's call may be made through. 'kiosk': a worker's call with the human
 * token of a badge session (lib/human-token.ts), which a badge alone (no password, often no PIN)
 * opens on a device anybody can walk up to. The time clock opens no person's session (a punch names
 * its badge in the body): its account kind ('timeclock' in `accounts`) is its whole ceiling.
 */
export const DEVICE_KINDS = ['kiosk'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export interface CallRights {
  /** The account kinds that may make the call (calls without login: who may, once logged in, too). */
  readonly accounts: readonly AccountKind[];
  /**
   * The shared devices the call may be made through (docs/kiosk.md, the device ceiling): a call
   * through a kiosk has the worker's rights AND the kiosk's, so an admin's badge lends a kiosk no
   * administration. Work areas and the session's own calls may; administration, the site's settings,
   * the caller's own account and password, the timekeepers' calls and pairing may not.
   */
  readonly devices: readonly DeviceKind[];
  /**
   * Features (spec section 8, `feature` or `feature.action`) the caller's roles must all give; what
   * the menus hide cannot be called directly. Calls whose feature depends on the body (import/csv)
   * check it in their route.
   */
  readonly features?: readonly Feature[];
}

const EVERYONE: readonly AccountKind[] = ACCOUNT_KINDS;
/** Accounts someone answers for: a person, or an integration acting under its own name. */
const ACCOUNTABLE: readonly AccountKind[] = ['person', 'service'];
const PEOPLE: readonly AccountKind[] = ['person'];
/** The time clock takes a photo with each punch. */
const PEOPLE_AND_TIMECLOCK: readonly AccountKind[] = ['person', 'service', 'timeclock'];

const rights = (accounts: readonly AccountKind[], ...features: Feature[]): CallRights =>
  features.length ? { accounts, features, devices: DEVICE_KINDS } : { accounts, devices: DEVICE_KINDS };
/** A call made only with the caller's own login, never through a shared device (a badge session). */
const ownLogin = (accounts: readonly AccountKind[], ...features: Feature[]): CallRights => ({
  ...rights(accounts, ...features),
  devices: [],
});

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
  // The service answers Access Restricted itself for the others (spec: own account). Not through a
  // kiosk: a badge alone must not change a person's e-mail or password (docs/kiosk.md).
  'account/me/update': ownLogin(EVERYONE),
  'account/me/changePassword': ownLogin(EVERYONE),
  'media/upload': rights(PEOPLE_AND_TIMECLOCK),
  'docIo/zplPrinter/getAttachedPrinters': rights(ACCOUNTABLE),
  'site/putData': ownLogin(ACCOUNTABLE),

  // Administration (the service also checks the admin roles); never through a kiosk, whoever's badge.
  'admin/account/list': ownLogin(ACCOUNTABLE),
  'admin/account/get': ownLogin(ACCOUNTABLE),
  'admin/account/create': ownLogin(ACCOUNTABLE),
  'admin/account/update': ownLogin(ACCOUNTABLE),
  'admin/account/setPassword': ownLogin(ACCOUNTABLE),
  'admin/account/resetPassword': ownLogin(ACCOUNTABLE),
  'admin/account/issueApiKey': ownLogin(ACCOUNTABLE),
  'admin/account/revokeApiKey': ownLogin(ACCOUNTABLE),
  'admin/role/list': ownLogin(ACCOUNTABLE),
  'admin/role/create': ownLogin(ACCOUNTABLE),
  'admin/role/rename': ownLogin(ACCOUNTABLE),
  'admin/role/remove': ownLogin(ACCOUNTABLE),
  'admin/featureAccess/get': ownLogin(ACCOUNTABLE),
  'admin/featureAccess/put': ownLogin(ACCOUNTABLE),
  'admin/site/list': ownLogin(ACCOUNTABLE),
  'admin/workstation/list': ownLogin(PEOPLE),
  'admin/workstation/update': ownLogin(PEOPLE),
  'admin/workstation/remove': ownLogin(PEOPLE),
  'admin/workstation/pair': ownLogin(PEOPLE),
  // The device being paired may be a kiosk or a time clock with its shared account signed in.
  'workstation/pair/start': ownLogin(EVERYONE),
  'workstation/pair/claim': ownLogin(EVERYONE),
  'admin/audit/list': ownLogin(ACCOUNTABLE),
  'admin/appSettings/put': ownLogin(ACCOUNTABLE),
  'admin/brand/put': ownLogin(ACCOUNTABLE),

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
  // A picker usually lacks physicalInventory: the count request is made by the picking module for them.
  'pick/reportDiscrepancy': rights(PEOPLE, 'stockPick'),
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
  // render, print and reprint: another person's staff badge only for admins and timeclockAdmin (mayPrintAnyBadge, checked by the service: it depends on the accounts named).
  'label/render': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/print': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/job/list': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/job/reprint': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/job/printRest': rights(ACCOUNTABLE, 'labelPrinter'),
  'label/agent/list': rights(ACCOUNTABLE, 'labelPrinter'),
  // Administrators only (checked by the labels service, like template saves), and, like API keys,
  // never through a kiosk; an agent's own credential never makes an HTTP call (docs/labels.md, Agent
  // credentials).
  'label/agent/create': ownLogin(ACCOUNTABLE, 'labelPrinter'),
  'label/agent/revoke': ownLogin(ACCOUNTABLE, 'labelPrinter'),
  // Time clock: punches from a time-clock account, or an admin (the spec admits both to the clock;
  // the service refuses other people and checks the device); the
  // corrections, PINs and export for people whose roles are timeclockAdmin or an admin role (checked by the service).
  // None through a kiosk: the clock is its own device, and timekeeping is done with one's own login.
  'timeclock/punch': ownLogin(['person', 'timeclock']),
  'timeclock/setPin': ownLogin(PEOPLE),
  'timeclock/punches/list': ownLogin(PEOPLE),
  'timeclock/correct': ownLogin(PEOPLE),
  'timeclock/punches/export': ownLogin(PEOPLE),
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

/** Whether a person's call may be made through a shared `device` (a worker's badge session at a kiosk). */
export const mayCallThrough = (path: string, device: DeviceKind): boolean => rightsOf(path)?.devices.includes(device) ?? false;

/**
 * Whether a session may open the pages of a call: its account kind may make the call and, for a
 * worker's session opened by a kiosk (`throughKiosk`), the call passes the kiosk's device ceiling.
 */
export const maySessionCall = (path: CallPath, perms: UserPerms, throughKiosk: boolean): boolean =>
  mayCall(path, accountKindOf(perms)) && (!throughKiosk || mayCallThrough(path, 'kiosk'));

/**
 * Administration (account roles, feature access): an admin role, never through a kiosk. The server
 * refuses the admin calls to others (lib/admins.ts, with the same isAdmin); the web hides their pages and menus.
 */
export const mayAdminister = (perms: UserPerms, throughKiosk: boolean): boolean =>
  isAdmin(perms) && (!throughKiosk || mayCallThrough('admin/featureAccess/get', 'kiosk'));

/**
 * Punch corrections (the timekeepers' calls and their page): a person (no shared-device or service
 * account), with their own login, who is a timekeeper (isTimekeeper, which the timeclock service checks).
 */
export const mayCorrectPunches = (perms: UserPerms, throughKiosk: boolean): boolean =>
  maySessionCall('timeclock/punches/list', perms, throughKiosk) && isTimekeeper(perms);

/** The answer to a call that a shared device may not pass on, whoever's badge opened the session. */
export const DEVICE_REFUSAL = {
  code: 'ERR_FORBIDDEN',
  message: tk('This cannot be done through a kiosk, whoever signed in: log in with your own account and password on your own device.'),
} as const;

/** The answer to a call an account kind may not make. */
export function refusalFor(kind: AccountKind): { code: 'ERR_FORBIDDEN'; message: string } {
  const message =
    kind === 'kiosk' || kind === 'timeclock'
      ? tk('A shared device account cannot do this: a person has to sign in')
      : kind === 'service'
        ? tk('A service account cannot do this')
        : tk('Your account cannot do this');
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
