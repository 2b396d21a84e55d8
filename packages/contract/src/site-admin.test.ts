import { describe, expect, it } from 'vitest';

describe('describeAudit', () => {
  it('says what happened in words, with a fallback for unknown actions', async () => {
    const { describeAudit } = await import('./site-admin.ts');
    const e = (action: string, before: unknown, after: unknown, entity = 'account', entityId = 'id1') => ({
      action,
      entity,
      entityId,
      before,
      after,
    });
    expect(describeAudit(e('admin/account/create', null, { userName: 'jdoe' }))).toBe('Created account jdoe');
    expect(describeAudit(e('admin/role/rename', { name: 'packer' }, { name: 'shipper' }, 'role', 'packer'))).toBe(
      'Renamed role packer to shipper',
    );
    expect(describeAudit(e('site/putData', {}, {}, 'siteData.conf', 'app_settings'))).toBe('Changed the app settings');
    expect(describeAudit(e('admin/featureAccess/put', {}, {}, 'featureAccess', 'demo-main'))).toBe('Changed feature access');
    expect(describeAudit(e('constructor', null, null, 'x', 'y'))).toBe('constructor y');
    expect(describeAudit(e('some/new/call', null, null, 'x', 'y'))).toBe('some/new/call y');
  });
  it("takes the screen's t: each sentence is a key with named holes", async () => {
    const { describeAudit } = await import('./site-admin.ts');
    const calls: Array<[string, unknown]> = [];
    const t = (key: string, params?: unknown) => (calls.push([key, params]), `<${key}>`);
    const rename = {
      action: 'admin/role/rename',
      entity: 'role',
      entityId: 'packer',
      before: { name: 'packer' },
      after: { name: 'shipper' },
    };
    expect(describeAudit(rename, t)).toBe('<Renamed role {{from}} to {{to}}>');
    expect(calls).toEqual([['Renamed role {{from}} to {{to}}', { from: 'packer', to: 'shipper' }]]);
  });
});
