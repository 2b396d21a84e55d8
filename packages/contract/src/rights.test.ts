import { describe, expect, it } from 'vitest';
import { calls } from './api.ts';
import { ACCOUNT_KINDS, accountKindOf, CALL_RIGHTS, mayCall, mayCallThrough, rightsOf } from './rights.ts';
import { NO_PERMS } from './perms.ts';

describe('call rights', () => {
  it('declares every call of the contract, and nothing else', () => {
    expect(Object.keys(CALL_RIGHTS).sort()).toEqual(Object.keys(calls).sort());
  });

  it('looks up own keys only', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(rightsOf(name)).toBeUndefined();
      for (const kind of ACCOUNT_KINDS) expect(mayCall(name, kind)).toBe(false);
      expect(mayCallThrough(name, 'kiosk')).toBe(false);
    }
  });

  it('never lets a shared device change stock, master data or records, import or export', () => {
    const guarded = Object.keys(calls).filter((p) => /^(stock|warehouse|location|item|import|export|record)\//.test(p));
    expect(guarded.length).toBeGreaterThan(15);
    for (const path of guarded) {
      expect(mayCall(path, 'kiosk'), path).toBe(false);
      expect(mayCall(path, 'timeclock'), path).toBe(false);
      expect(mayCall(path, 'person'), path).toBe(true);
    }
  });

  it('lets no administration, site setting, own-account change or timekeeper call through a kiosk (a badge session)', () => {
    const own = Object.keys(calls).filter(
      (p) =>
        /^(admin|timeclock|workstation|label\/agent\/(create|revoke))\b/.test(p) ||
        ['site/putData', 'account/me/update', 'account/me/changePassword'].includes(p),
    );
    // Print agents' credentials are machine keys, like API keys.
    expect(own).toEqual(expect.arrayContaining(['label/agent/create', 'label/agent/revoke']));
    expect(own.length).toBeGreaterThan(30);
    for (const path of own) expect(mayCallThrough(path, 'kiosk'), path).toBe(false);
    // Work areas and the session pass, within the worker's own rights.
    for (const path of ['stock/adjust', 'pick/confirm', 'counts/record', 'labor/start', 'order/list', 'kiosk/current', 'account/me/get'])
      expect(mayCallThrough(path, 'kiosk'), path).toBe(true);
  });

  it('names the feature of every stock and master-data write', () => {
    for (const path of [
      'stock/receive',
      'stock/adjust',
      'stock/move',
      'stock/split',
      'warehouse/save',
      'location/save',
      'location/deactivate',
      'item/save',
    ] as const) {
      expect(rightsOf(path)?.features?.length, path).toBe(2);
    }
  });

  it('tells the account kind from the perms, the device flags before roles', () => {
    expect(accountKindOf(NO_PERMS)).toBe('person');
    expect(accountKindOf({ ...NO_PERMS, roles: ['siteAdmin'], kioskAcct: true })).toBe('kiosk');
    expect(accountKindOf({ ...NO_PERMS, timeclockAcct: true })).toBe('timeclock');
    expect(accountKindOf({ ...NO_PERMS, serviceAcct: true, kioskAcct: true })).toBe('service');
  });
});
