import { describe, expect, it } from 'vitest';
import { isTimekeeper, mayUseTimeclock, NO_PERMS, ROLE, type UserPerms } from './perms.ts';
import { mayAdminister, mayCorrectPunches, maySessionCall } from './rights.ts';
import { mayReadLaborReports } from './labor.ts';
import { mayPrintAnyBadge } from './labels.ts';

const person = (...roles: string[]): UserPerms => ({ ...NO_PERMS, roles });
const worker = person('picker');
const timekeeper = person(ROLE.timeclockAdmin);
const siteAdmin = person(ROLE.siteAdmin);
const orgAdmin = person(ROLE.orgAdmin);
const clock: UserPerms = { ...NO_PERMS, timeclockAcct: true };
const kiosk: UserPerms = { ...NO_PERMS, kioskAcct: true };
const service: UserPerms = { ...NO_PERMS, serviceAcct: true };

describe('the timekeeper rule (isTimekeeper)', () => {
  it('is timeclockAdmin or an admin role', () => {
    for (const p of [timekeeper, siteAdmin, orgAdmin, person('picker', ROLE.timeclockAdmin)]) expect(isTimekeeper(p)).toBe(true);
    for (const p of [NO_PERMS, worker, clock, kiosk, person('timeclockadmin')]) expect(isTimekeeper(p)).toBe(false);
  });

  it('is the rule of the labor reports and of printing anyone’s badge', () => {
    for (const p of [NO_PERMS, worker, timekeeper, siteAdmin, orgAdmin, clock]) {
      expect(mayReadLaborReports(p)).toBe(isTimekeeper(p));
      expect(mayPrintAnyBadge(p)).toBe(isTimekeeper(p));
    }
  });
});

describe('time-clock access (mayUseTimeclock)', () => {
  it('admits time-clock accounts and admins, not timekeepers who are no admin', () => {
    expect(mayUseTimeclock(clock)).toBe(true);
    expect(mayUseTimeclock({ ...clock, roles: ['picker'] })).toBe(true);
    expect(mayUseTimeclock(siteAdmin)).toBe(true);
    expect(mayUseTimeclock(orgAdmin)).toBe(true);
    for (const p of [NO_PERMS, worker, timekeeper, kiosk, service]) expect(mayUseTimeclock(p)).toBe(false);
  });
});

describe('punch corrections (mayCorrectPunches)', () => {
  it('is for timekeepers with their own login: no shared device, service account or kiosk session', () => {
    expect(mayCorrectPunches(timekeeper, false)).toBe(true);
    expect(mayCorrectPunches(siteAdmin, false)).toBe(true);
    expect(mayCorrectPunches(worker, false)).toBe(false);
    // A worker's session opened by a kiosk: the badge lends no timekeeping, whoever's it is.
    expect(mayCorrectPunches(timekeeper, true)).toBe(false);
    expect(mayCorrectPunches(siteAdmin, true)).toBe(false);
    for (const flags of [{ kioskAcct: true }, { timeclockAcct: true }, { serviceAcct: true }])
      expect(mayCorrectPunches({ ...siteAdmin, ...flags }, false)).toBe(false);
  });
});

describe('administration (mayAdminister)', () => {
  it('is for admins, never through a kiosk', () => {
    expect(mayAdminister(siteAdmin, false)).toBe(true);
    expect(mayAdminister(orgAdmin, false)).toBe(true);
    expect(mayAdminister(siteAdmin, true)).toBe(false);
    expect(mayAdminister(timekeeper, false)).toBe(false);
    expect(mayAdminister(worker, false)).toBe(false);
  });
});

describe('a session’s calls (maySessionCall)', () => {
  it('checks the account kind and, for a kiosk session, the device ceiling', () => {
    expect(maySessionCall('stock/adjust', worker, false)).toBe(true);
    expect(maySessionCall('stock/adjust', worker, true)).toBe(true);
    expect(maySessionCall('stock/adjust', kiosk, false)).toBe(false);
    expect(maySessionCall('admin/role/list', siteAdmin, true)).toBe(false);
    expect(maySessionCall('timeclock/punch', clock, false)).toBe(true);
  });
});
