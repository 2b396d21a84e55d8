import { isAdmin, mayUseTimeclock, TIMECLOCK_REFUSAL, type UserPerms } from '@floorhand/contract/perms';
import { featureGiven, type Feature, type VisibleFeatures } from '@floorhand/contract/features';
import { tk } from '@floorhand/contract/i18n';
import { mayAdminister, mayCorrectPunches } from '@floorhand/contract/rights';

// The route guards and the home redirect rules (spec section 2) as plain functions of their inputs.

export interface GuardInput {
  authenticated: boolean;
  /** The login account's rights (from the token). */
  loginPerms: UserPerms | null;
  /** The session's rights: the login account's, or the worker's once a kiosk session is opened. */
  sessionPerms: UserPerms | null;
  workstation: { timeclockOnly: boolean; kioskOnly: boolean };
  /** What the server says this workstation is authorised for. */
  workstationAuth: { timeclock: boolean; kiosk: boolean } | null;
  featureAccess: VisibleFeatures | null;
}

export type RestrictionTitle = 'Device Restricted' | 'Account Restricted' | 'Access Denied' | 'Access Restricted';

export type GuardResult =
  | { kind: 'allow' }
  /** Not logged in: remember the path as the pending route and go to landing. */
  | { kind: 'login' }
  | { kind: 'redirect'; to: string; dialog?: { title: RestrictionTitle; message: string }; logout?: boolean }
  /** Stay where the user was, after the dialog. */
  | { kind: 'block'; dialog: { title: RestrictionTitle; message: string } };

const allow: GuardResult = { kind: 'allow' };

export const isKioskSession = (g: GuardInput): boolean => !!g.sessionPerms?.kioskAcct;
/** Opened by kiosk: the login account is a kiosk account but the session is not (a worker took it over). */
export const openedByKiosk = (g: GuardInput): boolean => !!g.loginPerms?.kioskAcct && !!g.sessionPerms && !g.sessionPerms.kioskAcct;

const deviceRestricted = (message: string): GuardResult => ({
  kind: 'redirect',
  to: '/',
  logout: true,
  dialog: { title: tk('Device Restricted'), message },
});

/**
 * A time-clock-only device: the login is a time-clock account, or the workstation is marked
 * timeclockOnly (machine settings) and the login is no admin (an admin sets the device up there).
 */
export const clockOnly = (g: GuardInput): boolean =>
  g.authenticated && !!g.loginPerms && (g.loginPerms.timeclockAcct || (g.workstation.timeclockOnly && !isAdmin(g.loginPerms)));

/** What a time-clock-only device opens: the clock, App Settings for its camera, and home (its own rules: device checks). */
const CLOCK_ONLY_PATHS: ReadonlySet<string> = new Set(['/timeclock', '/appSettings', '/home']);

/**
 * Checked before every route's own guard: on a time-clock-only device every page but the clock (and
 * its settings) goes to /timeclock, whatever is typed into the address bar (/tasks, /userAcct, …).
 * Null: the route's own guard decides.
 */
export function clockOnlyRedirect(g: GuardInput, pathname: string): GuardResult | null {
  if (!clockOnly(g)) return null;
  const path = pathname.replace(/\/+$/, '') || '/';
  return CLOCK_ONLY_PATHS.has(path) ? null : { kind: 'redirect', to: '/timeclock' };
}

/** Rules of the home redirect, in order. */
export function homeRedirect(g: GuardInput): GuardResult {
  if (!g.authenticated || !g.loginPerms) return { kind: 'login' };
  const p = g.loginPerms;
  const admin = isAdmin(p);
  if (g.workstation.timeclockOnly && !admin && !p.timeclockAcct)
    return deviceRestricted(tk('This device allows logins only for timeclock accounts.'));
  if (g.workstation.kioskOnly && !admin && !p.kioskAcct) return deviceRestricted(tk('This device allows logins only for kiosk accounts.'));
  if (p.serviceAcct) {
    return {
      kind: 'redirect',
      to: '/',
      logout: true,
      dialog: { title: tk('Account Restricted'), message: tk('Service accounts cannot be used interactively.') },
    };
  }
  if (p.timeclockAcct && !g.workstationAuth?.timeclock) return deviceRestricted(tk('This device is not authorised as a timeclock.'));
  if (p.kioskAcct && !g.workstationAuth?.kiosk) return deviceRestricted(tk('This device is not authorised as a kiosk.'));
  if (p.timeclockAcct) return { kind: 'redirect', to: '/timeclock' };
  if (isKioskSession(g)) return { kind: 'redirect', to: '/kiosk' };
  return { kind: 'redirect', to: '/tasks' };
}

/** Work pages (tasks through labelPrinter): login; kiosk sessions go to kiosk; a hidden feature goes to tasks. */
export function workPageGuard(g: GuardInput, feature?: Feature): GuardResult {
  if (!g.authenticated) return { kind: 'login' };
  if (isKioskSession(g)) return { kind: 'redirect', to: '/kiosk' };
  if (feature && !featureGiven(g.featureAccess, feature)) return { kind: 'redirect', to: '/tasks' };
  return allow;
}

export function timeclockGuard(g: GuardInput): GuardResult {
  if (!g.authenticated) return { kind: 'login' };
  const p = g.loginPerms;
  if (p && mayUseTimeclock(p)) return allow;
  return { kind: 'redirect', to: '/home', dialog: { title: tk('Access Denied'), message: TIMECLOCK_REFUSAL } };
}

export function kioskGuard(g: GuardInput): GuardResult {
  if (!g.authenticated) return { kind: 'login' };
  return g.loginPerms?.kioskAcct ? allow : { kind: 'redirect', to: '/home' };
}

export function userAcctGuard(g: GuardInput): GuardResult {
  if (!g.authenticated) return { kind: 'login' };
  const p = g.loginPerms;
  if (p && (p.kioskAcct || p.timeclockAcct)) {
    return {
      kind: 'block',
      dialog: { title: tk('Access Restricted'), message: tk('The Accounts page is restricted from shared (kiosk) and timeclock devices.') },
    };
  }
  return allow;
}

export function adminGuard(g: GuardInput): GuardResult {
  if (!g.authenticated) return { kind: 'login' };
  return g.sessionPerms && mayAdminister(g.sessionPerms, openedByKiosk(g)) ? allow : { kind: 'redirect', to: '/' };
}

export function appSettingsGuard(g: GuardInput): GuardResult {
  if (!g.authenticated) return { kind: 'login' };
  if (g.loginPerms?.kioskAcct) {
    return {
      kind: 'block',
      dialog: { title: tk('Access Restricted'), message: tk('App Settings cannot be opened from a kiosk account.') },
    };
  }
  return allow;
}

/** Punch corrections (/punches): a timekeeper with their own login (the contract's mayCorrectPunches). */
export function timekeeperGuard(g: GuardInput): GuardResult {
  if (!g.authenticated) return { kind: 'login' };
  const p = g.sessionPerms;
  if (p && mayCorrectPunches(p, openedByKiosk(g))) return allow;
  return {
    kind: 'redirect',
    to: '/home',
    dialog: { title: tk('Access Denied'), message: tk('Punch corrections are for timekeepers (timeclockAdmin) and administrators.') },
  };
}
