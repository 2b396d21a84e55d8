import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, type CallPath } from '@floorhand/contract/api';
import { ERR } from '@floorhand/contract/errors';
import { ACCOUNT_KINDS, mayCall, refusalFor, type AccountKind } from '@floorhand/contract/rights';
import { movements } from '../db/schema.ts';
import { call, createTestApp, type TestApp } from '../test/harness.ts';
import { serviceApiKey, tokenFor } from '../test/logins.ts';

// The rights table of the contract (contract/rights.ts), enforced by registerCall for every call:
// each call is made by an account of each kind, and what the table refuses is refused, before the
// body is even read; what it allows is never refused for the account's kind.

let t: TestApp;
const tokenOf = new Map<AccountKind, string>();

beforeAll(async () => {
  t = await createTestApp();
  tokenOf.set('person', await tokenFor(t.app, 'clerk'));
  tokenOf.set('kiosk', await tokenFor(t.app, 'kiosk'));
  tokenOf.set('timeclock', await tokenFor(t.app, 'clock'));
  tokenOf.set('service', (await serviceApiKey(t, await tokenFor(t.app, 'admin'))).key);
});
afterAll(() => t?.close());

// auth/logout (allowed to every kind) would end the token the walk goes on with.
const required = (Object.keys(calls) as CallPath[]).filter((p) => calls[p].auth === 'required' && p !== 'auth/logout');
const refusals = new Set(ACCOUNT_KINDS.map((k) => refusalFor(k).message));

describe.each(['person', 'service', 'kiosk', 'timeclock'] as const)('a %s account', (kind) => {
  it.each(required)(`%s: as the rights table says`, async (path) => {
    // An empty body: a refusal for the account's kind comes before the body's validation.
    const res = await call(t.app, path, {}, tokenOf.get(kind));
    if (mayCall(path, kind)) {
      expect(refusals.has(res.body.err?.message ?? ''), JSON.stringify(res.body)).toBe(false);
      expect(res.status, JSON.stringify(res.body)).not.toBe(401);
    } else {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.err).toMatchObject({ code: ERR.forbidden, message: expect.any(String) });
    }
  });
});

describe('shared devices and stock', () => {
  it.each(['kiosk', 'timeclock'] as const)('a %s account cannot adjust stock with a valid body, and no movement is written', async (kind) => {
    const before = (await t.db.select().from(movements)).length;
    const res = await call(t.app, 'stock/adjust', { idempotencyKey: `k-${kind}-${Date.now()}`, stockId: 'S000000001', deltaType: 'delta', qty: 1, reason: 'Found' }, tokenOf.get(kind));
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.forbidden);
    expect((await t.db.select().from(movements)).length).toBe(before);
  });

  it.each(['kiosk', 'timeclock'] as const)('a %s account cannot download a CSV export by GET either', async (kind) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/export/csv?entity=stock', headers: { authorization: `Bearer ${tokenOf.get(kind)}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().err.code).toBe(ERR.forbidden);
  });

  it('a person with the feature still adjusts stock', async () => {
    const admin = await tokenFor(t.app, 'admin');
    const res = await call(t.app, 'stock/adjust', { idempotencyKey: `k-admin-${Date.now()}`, stockId: 'S000000001', deltaType: 'delta', qty: 1, reason: 'Found' }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
