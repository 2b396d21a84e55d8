import { describe, expect, it } from 'vitest';
import { ROLE } from '@floorhand/contract/perms';
import { call } from '../../test/harness.ts';
import { login, newAccount, newRole, perms, t, tokens, useAdminFixture } from '../../test/admin-fixture.ts';

useAdminFixture();

describe('roles', () => {
  it('lists built-in roles and holders, refuses to rename or remove built-ins', async () => {
    const res = await call(t.app, 'admin/role/list', {}, tokens.admin);
    const orgAdmin = res.body.roles?.find((r) => r.name === ROLE.orgAdmin);
    expect(orgAdmin).toMatchObject({ builtIn: true });
    expect(orgAdmin?.holders.map((h) => h.userName)).toContain('admin');
    for (const name of [ROLE.siteAdmin, ROLE.orgAdmin, ROLE.timeclockAdmin]) {
      expect((await call(t.app, 'admin/role/rename', { name, newName: `${name}2` }, tokens.admin)).status).toBe(403);
      expect((await call(t.app, 'admin/role/remove', { name }, tokens.admin)).status).toBe(403);
    }
    expect((await call(t.app, 'admin/role/create', { name: 'SITEADMIN' }, tokens.admin)).status).toBe(409);
    expect((await call(t.app, 'admin/role/create', { name: '*' }, tokens.admin)).status).toBe(400);
  });

  it('rename moves holders and feature access; remove takes it off every account', async () => {
    await newRole('packer');
    const id = await newAccount('pat', ['packer']);
    await call(t.app, 'admin/featureAccess/put', { levels: { packer: { shipping: 1 } } }, tokens.admin);
    const renamed = await call(t.app, 'admin/role/rename', { name: 'packer', newName: 'shipper' }, tokens.admin);
    expect(renamed.body.role?.holders.map((h) => h.accountId)).toEqual([id]);
    expect((await call(t.app, 'admin/account/get', { accountId: id }, tokens.admin)).body.account?.perms[0]?.roles).toEqual(['shipper']);
    expect((await call(t.app, 'admin/featureAccess/get', {}, tokens.admin)).body.grid?.levels).toMatchObject({ shipper: { shipping: 1 } });

    const removed = await call(t.app, 'admin/role/remove', { name: 'shipper' }, tokens.admin);
    expect(removed.body.removedFrom).toBe(1);
    expect((await call(t.app, 'admin/account/get', { accountId: id }, tokens.admin)).body.account?.perms[0]?.roles).toEqual([]);
    const grid = (await call(t.app, 'admin/featureAccess/get', {}, tokens.admin)).body.grid;
    expect(grid?.roles).not.toContain('shipper');
    expect(grid?.levels.shipper).toBeUndefined();
  });
});

describe('feature access', () => {
  const visible = async (token: string | undefined) => {
    const s = await call(t.app, 'capture/session/genSessionToken', {}, token);
    return (await call(t.app, 'site/access/getVisibleFeatures', { sessionToken: s.body.sessionToken }, token)).body.visibleFeatures ?? {};
  };

  it('saving changes getVisibleFeatures for existing sessions at once', async () => {
    await newRole('counter');
    const id = await newAccount('cory');
    const token = await login('cory', 'secret-pass-1');
    expect((await visible(token)).physicalInventory).toBe(true);

    const put = await call(
      t.app,
      'admin/featureAccess/put',
      { levels: { '*': { physicalInventory: 0, stockAdjust: 'W' }, counter: { physicalInventory: 'R' } } },
      tokens.admin,
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.grid?.levels).toEqual({ '*': { physicalInventory: 0, stockAdjust: 1 }, counter: { physicalInventory: 1 } });
    expect((await visible(token)).physicalInventory).toBe(false);
    expect((await visible(tokens.clerk)).physicalInventory).toBe(false);

    await call(t.app, 'admin/account/update', { accountId: id, perms: [perms(['counter'])] }, tokens.admin);
    expect((await visible(token)).physicalInventory).toBe(true);

    await call(t.app, 'admin/featureAccess/put', { levels: {} }, tokens.admin);
    expect((await visible(tokens.clerk)).physicalInventory).toBe(true);
  });

  it('refuses unknown roles, features and levels', async () => {
    expect((await call(t.app, 'admin/featureAccess/put', { levels: { ghost: { stockPick: 1 } } }, tokens.admin)).status).toBe(400);
    expect((await call(t.app, 'admin/featureAccess/put', { levels: { '*': { teleport: 1 } } }, tokens.admin)).status).toBe(400);
    expect((await call(t.app, 'admin/featureAccess/put', { levels: { '*': { stockPick: 2 } } }, tokens.admin)).status).toBe(400);
  });
});
