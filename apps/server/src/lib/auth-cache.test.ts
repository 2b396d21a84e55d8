import { describe, expect, it, vi } from 'vitest';
import { NO_PERMS } from '@floorhand/contract/perms';
import type { AuthContext } from './auth-context.ts';
import { changesAuth, createAuthCache } from './auth-cache.ts';

const auth = (exp: number): AuthContext => ({
  accountId: 'a1',
  userName: 'clerk',
  orgId: 'demo',
  siteId: 'demo-main',
  appId: 'floorhand',
  perms: NO_PERMS,
  claims: { exp } as AuthContext['claims'],
  mustChangePassword: false,
});

describe('auth cache', () => {
  it('answers for the time to live, then forgets', () => {
    let now = 1_000_000;
    const cache = createAuthCache(2000, () => now);
    cache.set('t', auth(2_000));
    expect(cache.get('t')?.userName).toBe('clerk');
    now += 1999;
    expect(cache.get('t')).toBeDefined();
    now += 1;
    expect(cache.get('t')).toBeUndefined();
  });

  it('never answers for a token past its expiry', () => {
    let now = 1_000_000;
    const cache = createAuthCache(2000, () => now);
    cache.set('t', auth(1_000.5)); // expires 500 ms from now
    now += 499;
    expect(cache.get('t')).toBeDefined();
    now += 1;
    expect(cache.get('t')).toBeUndefined();
  });

  it('clear empties it and tells the other nodes; clearLocal only empties it', () => {
    const cache = createAuthCache(2000, () => 0);
    const told = vi.fn();
    cache.onClear(told);
    cache.set('t', auth(10));
    cache.clearLocal();
    expect(cache.get('t')).toBeUndefined();
    expect(told).not.toHaveBeenCalled();
    cache.set('t', auth(10));
    cache.clear();
    expect(cache.get('t')).toBeUndefined();
    expect(told).toHaveBeenCalledOnce();
  });

  it('keeps nothing with a time to live of 0, and drops the oldest when full', () => {
    const off = createAuthCache(0, () => 0);
    off.set('t', auth(10));
    expect(off.get('t')).toBeUndefined();
    const cache = createAuthCache(2000, () => 0);
    for (let i = 0; i <= 10_000; i++) cache.set(`t${i}`, auth(10));
    expect(cache.get('t0')).toBeUndefined();
    expect(cache.get('t1')).toBeDefined();
    expect(cache.get('t10000')).toBeDefined();
  });

  it('is emptied by the calls that change accounts, perms, roles, keys, feature access or revocations', () => {
    for (const path of [
      'auth/logout',
      'admin/account/update',
      'admin/account/revokeApiKey',
      'admin/role/remove',
      'admin/role/rename',
      'admin/featureAccess/put',
    ]) {
      expect(changesAuth(path)).toBe(true);
    }
    for (const path of ['stock/lookup', 'auth/refresh', 'admin/featureAccess/get', 'account/me/update'])
      expect(changesAuth(path)).toBe(false);
  });
});
