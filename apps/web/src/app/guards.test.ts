import { describe, expect, it } from 'vitest';
import { NO_PERMS, type UserPerms } from '@floorhand/contract/perms';
import {
  adminGuard,
  appSettingsGuard,
  clockOnly,
  clockOnlyRedirect,
  homeRedirect,
  kioskGuard,
  openedByKiosk,
  timeclockGuard,
  timekeeperGuard,
  userAcctGuard,
  workPageGuard,
  type GuardInput,
} from './guards.ts';

const perms = (p: Partial<UserPerms> = {}): UserPerms => ({ ...NO_PERMS, ...p });
const input = (p: Partial<UserPerms> = {}, over: Partial<GuardInput> = {}): GuardInput => ({
  authenticated: true,
  loginPerms: perms(p),
  sessionPerms: perms(p),
  workstation: { timeclockOnly: false, kioskOnly: false },
  workstationAuth: { timeclock: true, kiosk: true },
  featureAccess: null,
  ...over,
});
const admin = { roles: ['siteAdmin'] };
const orgAdmin = { roles: ['orgAdmin'] };

describe('home redirect rules, in order', () => {
  it('is login when not authenticated', () => {
    expect(homeRedirect(input({}, { authenticated: false }))).toEqual({ kind: 'login' });
  });
  it('1: a timeclock-only device refuses non-admin, non-timeclock accounts', () => {
    const r = homeRedirect(input({}, { workstation: { timeclockOnly: true, kioskOnly: false } }));
    expect(r).toMatchObject({ kind: 'redirect', to: '/', logout: true, dialog: { title: 'Device Restricted' } });
    expect(homeRedirect(input(admin, { workstation: { timeclockOnly: true, kioskOnly: false } }))).toMatchObject({ to: '/tasks' });
    expect(homeRedirect(input({ timeclockAcct: true }, { workstation: { timeclockOnly: true, kioskOnly: false } }))).toMatchObject({
      to: '/timeclock',
    });
  });
  it('2: a kiosk-only device refuses non-kiosk accounts, admins exempt', () => {
    const w = { workstation: { timeclockOnly: false, kioskOnly: true } };
    expect(homeRedirect(input({}, w))).toMatchObject({
      dialog: { title: 'Device Restricted', message: 'This device allows logins only for kiosk accounts.' },
    });
    expect(homeRedirect(input(orgAdmin, w))).toMatchObject({ to: '/tasks' });
    expect(homeRedirect(input({ kioskAcct: true }, w))).toMatchObject({ to: '/kiosk' });
  });
  it('1 comes before 3: a service account on a timeclock-only device gets Device Restricted', () => {
    expect(homeRedirect(input({ serviceAcct: true }, { workstation: { timeclockOnly: true, kioskOnly: false } }))).toMatchObject({
      dialog: { title: 'Device Restricted' },
    });
  });
  it('3: a service account gets Account Restricted and is logged out', () => {
    expect(homeRedirect(input({ serviceAcct: true }))).toMatchObject({
      kind: 'redirect',
      to: '/',
      logout: true,
      dialog: { title: 'Account Restricted' },
    });
  });
  it('4: timeclock and kiosk accounts need a workstation authorised for that use', () => {
    expect(homeRedirect(input({ timeclockAcct: true }, { workstationAuth: { timeclock: false, kiosk: true } }))).toMatchObject({
      dialog: { title: 'Device Restricted', message: 'This device is not authorised as a timeclock.' },
    });
    expect(homeRedirect(input({ kioskAcct: true }, { workstationAuth: { timeclock: true, kiosk: false } }))).toMatchObject({
      dialog: { message: 'This device is not authorised as a kiosk.' },
    });
    expect(homeRedirect(input({ kioskAcct: true }, { workstationAuth: null }))).toMatchObject({ dialog: { title: 'Device Restricted' } });
  });
  it('5: timeclock account to timeclock, kiosk session to kiosk, everyone else to tasks', () => {
    expect(homeRedirect(input({ timeclockAcct: true }))).toEqual({ kind: 'redirect', to: '/timeclock' });
    expect(homeRedirect(input({ kioskAcct: true }))).toEqual({ kind: 'redirect', to: '/kiosk' });
    expect(homeRedirect(input(admin))).toEqual({ kind: 'redirect', to: '/tasks' });
    expect(homeRedirect(input({ roles: ['timeclockAdmin'] }))).toEqual({ kind: 'redirect', to: '/tasks' });
  });
  it('a kiosk account whose session a worker opened goes to tasks', () => {
    const g = input({ kioskAcct: true }, { sessionPerms: perms() });
    expect(openedByKiosk(g)).toBe(true);
    expect(homeRedirect(g)).toEqual({ kind: 'redirect', to: '/tasks' });
  });
});

describe("an admin's badge at a kiosk (the session opened by kiosk)", () => {
  it('opens no administration page: the rights table lets no admin or timekeeper call through a kiosk', () => {
    const atKiosk = input({ kioskAcct: true }, { sessionPerms: perms({ roles: ['orgAdmin', 'siteAdmin', 'timeclockAdmin'] }) });
    expect(openedByKiosk(atKiosk)).toBe(true);
    expect(adminGuard(atKiosk)).toEqual({ kind: 'redirect', to: '/' });
    expect(timekeeperGuard(atKiosk)).toMatchObject({ kind: 'redirect', to: '/home' });
    expect(userAcctGuard(atKiosk)).toMatchObject({ kind: 'block' });
    expect(appSettingsGuard(atKiosk)).toMatchObject({ kind: 'block' });
    // The same admin with their own login does.
    expect(adminGuard(input(orgAdmin))).toEqual({ kind: 'allow' });
    expect(timekeeperGuard(input(orgAdmin))).toEqual({ kind: 'allow' });
  });
});

describe('route guards', () => {
  it('work pages need login, push kiosk sessions to kiosk and follow feature access', () => {
    expect(workPageGuard(input({}, { authenticated: false }))).toEqual({ kind: 'login' });
    expect(workPageGuard(input({ kioskAcct: true }))).toEqual({ kind: 'redirect', to: '/kiosk' });
    expect(workPageGuard(input({}, { featureAccess: { stockLookup: false } }), 'stockLookup')).toEqual({ kind: 'redirect', to: '/tasks' });
    expect(workPageGuard(input({}, { featureAccess: { stockLookup: true } }), 'stockLookup')).toEqual({ kind: 'allow' });
    expect(workPageGuard(input(), 'stockLookup')).toEqual({ kind: 'allow' });
  });
  it('timeclock: timeclock accounts or admins, else Access Denied and home', () => {
    expect(timeclockGuard(input({ timeclockAcct: true }))).toEqual({ kind: 'allow' });
    expect(timeclockGuard(input(admin))).toEqual({ kind: 'allow' });
    expect(timeclockGuard(input())).toMatchObject({ kind: 'redirect', to: '/home', dialog: { title: 'Access Denied' } });
  });
  it('kiosk: kiosk accounts only, else home', () => {
    expect(kioskGuard(input({ kioskAcct: true }))).toEqual({ kind: 'allow' });
    expect(kioskGuard(input(admin))).toEqual({ kind: 'redirect', to: '/home' });
  });
  it('accounts: kiosk and timeclock accounts get Access Restricted and stay', () => {
    expect(userAcctGuard(input({ kioskAcct: true }))).toMatchObject({ kind: 'block', dialog: { title: 'Access Restricted' } });
    expect(userAcctGuard(input({ timeclockAcct: true }))).toMatchObject({ kind: 'block' });
    expect(userAcctGuard(input())).toEqual({ kind: 'allow' });
  });
  it('userRoles and featureAccess: admins only, others to entrance', () => {
    expect(adminGuard(input(admin))).toEqual({ kind: 'allow' });
    expect(adminGuard(input(orgAdmin))).toEqual({ kind: 'allow' });
    expect(adminGuard(input({ roles: ['timeclockAdmin'] }))).toEqual({ kind: 'redirect', to: '/' });
    expect(adminGuard(input({}, { authenticated: false }))).toEqual({ kind: 'login' });
  });
  it('app settings: blocked for kiosk accounts', () => {
    expect(appSettingsGuard(input({ kioskAcct: true }))).toMatchObject({ kind: 'block' });
    expect(appSettingsGuard(input({ timeclockAcct: true }))).toEqual({ kind: 'allow' });
  });
});

describe('a time-clock-only device offers only the time clock', () => {
  const clockDevice = { workstation: { timeclockOnly: true, kioskOnly: false } };
  const paths = ['/tasks', '/tasks/', '/stockLookup/ABC', '/userAcct', '/userRoles', '/featureAccess', '/punches', '/kiosk', '/labor'];
  it('a time-clock account goes to /timeclock from every other page, on any device', () => {
    for (const over of [{}, clockDevice]) {
      const g = input({ timeclockAcct: true }, over);
      expect(clockOnly(g)).toBe(true);
      for (const path of paths) expect(clockOnlyRedirect(g, path), path).toEqual({ kind: 'redirect', to: '/timeclock' });
      // The clock itself, its camera settings and home (the device checks) are its own guards'.
      for (const path of ['/timeclock', '/appSettings', '/home']) expect(clockOnlyRedirect(g, path), path).toBeNull();
    }
  });
  it('a workstation marked timeclockOnly sends a non-admin to the clock; an admin setting it up is not held', () => {
    expect(clockOnlyRedirect(input({ roles: ['clerk'] }, clockDevice), '/tasks')).toEqual({ kind: 'redirect', to: '/timeclock' });
    expect(clockOnlyRedirect(input(admin, clockDevice), '/tasks')).toBeNull();
  });
  it('other devices and accounts are left to the route guards', () => {
    expect(clockOnlyRedirect(input({ roles: ['clerk'] }), '/tasks')).toBeNull();
    expect(clockOnlyRedirect(input({ kioskAcct: true }), '/tasks')).toBeNull();
    expect(clockOnlyRedirect(input({ timeclockAcct: true }, { authenticated: false }), '/tasks')).toBeNull();
  });
});
