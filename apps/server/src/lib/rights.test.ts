import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, type CallPath } from '@floorhand/contract/api';
import { ERR } from '@floorhand/contract/errors';
import { HEADERS } from '@floorhand/contract/constants';
import {
  ACCOUNT_KINDS,
  CALL_RIGHTS,
  DEVICE_REFUSAL,
  mayCall,
  mayCallThrough,
  refusalFor,
  type AccountKind,
} from '@floorhand/contract/rights';
import { KIOSK_OWN_CALLS } from './human-token.ts';
import { movements } from '../db/schema.ts';
import { call, createTestApp, type TestApp } from '../test/harness.ts';
import { serviceApiKey, tokenFor } from '../test/logins.ts';

// The rights table of the contract (contract/rights.ts), enforced by registerCall for every call:
// each call is made by an account of each kind, and what the table refuses is refused, before the
// body is even read; what it allows is never refused for the account's kind. A fifth column: a person
// (the admin, who may do everything) through a kiosk, with the human token of their badge: the
// table's device ceiling (`devices`) refuses what a kiosk may not pass on, whoever's badge it read.

let t: TestApp;
const tokenOf = new Map<AccountKind, string>();
/** The human token of the admin's badge read at the demo kiosk (kiosk/start, no PIN). */
let adminAtKiosk = '';

beforeAll(async () => {
  t = await createTestApp();
  tokenOf.set('person', await tokenFor(t.app, 'clerk'));
  tokenOf.set('kiosk', await tokenFor(t.app, 'kiosk'));
  tokenOf.set('timeclock', await tokenFor(t.app, 'clock'));
  tokenOf.set('service', (await serviceApiKey(t, await tokenFor(t.app, 'admin'))).key);
  const started = await call(t.app, 'kiosk/start', { badge: 'B-ADMIN' }, tokenOf.get('kiosk'));
  adminAtKiosk = String(started.headers[HEADERS.humanToken] ?? '');
  if (started.status !== 200 || !adminAtKiosk) throw new Error(`kiosk/start failed: ${JSON.stringify(started.body)}`);
});
afterAll(() => t?.close());

// auth/logout (allowed to every kind) would end the token the walk goes on with.
const required = (Object.keys(calls) as CallPath[]).filter((p) => calls[p].auth === 'required' && p !== 'auth/logout');
const refusals = new Set([...ACCOUNT_KINDS.map((k) => refusalFor(k).message), DEVICE_REFUSAL.message]);

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

describe("a person through a kiosk (the admin's badge, human token)", () => {
  // kiosk/end would end the session the walk goes on with (kiosk.test.ts has its own tests).
  const through = required.filter((p) => p !== 'kiosk/end');
  it.each(through)('%s: as the rights table says', async (path) => {
    const res = await call(t.app, path, {}, tokenOf.get('kiosk'), { headers: { [HEADERS.humanToken]: adminAtKiosk } });
    // The kiosk's own calls (login, refresh, kiosk/start) are the kiosk account's whatever the header.
    const allowed = KIOSK_OWN_CALLS.has(path) ? mayCall(path, 'kiosk') : mayCall(path, 'person') && mayCallThrough(path, 'kiosk');
    if (allowed) {
      expect(refusals.has(res.body.err?.message ?? ''), JSON.stringify(res.body)).toBe(false);
      expect(res.status, JSON.stringify(res.body)).not.toBe(401);
    } else {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.err).toMatchObject({ code: ERR.forbidden, message: DEVICE_REFUSAL.message });
    }
  });

  it("the same calls with the admin's own login are never refused for a device", async () => {
    const admin = await tokenFor(t.app, 'admin');
    for (const path of through) {
      const res = await call(t.app, path, {}, admin);
      expect(res.body.err?.message, path).not.toBe(DEVICE_REFUSAL.message);
      expect(res.status, path).not.toBe(401);
    }
  });

  it('the table refuses administration, the own account and the timekeepers through a kiosk, and lets work areas through', () => {
    for (const path of Object.keys(CALL_RIGHTS)) {
      if (
        path.startsWith('admin/') ||
        path.startsWith('timeclock/') ||
        (path.startsWith('account/me/') && path !== 'account/me/get') ||
        path === 'site/putData'
      ) {
        expect(mayCallThrough(path, 'kiosk'), path).toBe(false);
      }
    }
    for (const path of [
      'stock/adjust',
      'pick/confirm',
      'ship/confirm',
      'counts/record',
      'labor/start',
      'label/print',
      'task/list',
      'kiosk/current',
      'kiosk/end',
      'account/me/get',
    ]) {
      expect(mayCallThrough(path, 'kiosk'), path).toBe(true);
    }
  });
});

describe('shared devices and stock', () => {
  it.each(['kiosk', 'timeclock'] as const)(
    'a %s account cannot adjust stock with a valid body, and no movement is written',
    async (kind) => {
      const before = (await t.db.select().from(movements)).length;
      const res = await call(
        t.app,
        'stock/adjust',
        { idempotencyKey: `k-${kind}-${Date.now()}`, stockId: 'S000000001', deltaType: 'delta', qty: 1, reason: 'Found' },
        tokenOf.get(kind),
      );
      expect(res.status).toBe(403);
      expect(res.body.err?.code).toBe(ERR.forbidden);
      expect((await t.db.select().from(movements)).length).toBe(before);
    },
  );

  it.each(['kiosk', 'timeclock'] as const)('a %s account cannot download a CSV export by GET either', async (kind) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/export/csv?entity=stock',
      headers: { authorization: `Bearer ${tokenOf.get(kind)}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().err.code).toBe(ERR.forbidden);
  });

  it('a person with the feature still adjusts stock', async () => {
    const admin = await tokenFor(t.app, 'admin');
    const res = await call(
      t.app,
      'stock/adjust',
      { idempotencyKey: `k-admin-${Date.now()}`, stockId: 'S000000001', deltaType: 'delta', qty: 1, reason: 'Found' },
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
