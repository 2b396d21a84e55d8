// Authentication and feature access in one statement (lib/auth-context.ts, lib/features.ts): a call
// whose token the node's auth cache does not hold yet asked the database who the caller is, then, in a
// statement and a pass through the pool's queue of their own, what the caller's roles give. At a
// scan every few seconds per worker (the auth cache keeps an answer 2 s) that was most calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../test/harness.ts';
import { demoLogin } from '../test/logins.ts';
import { statementsOf } from '../test/statements.ts';
import { authenticate } from './auth-context.ts';
import { loadVisibleFeatures, visibleFeaturesOf } from './features.ts';
import { createTokenService } from './tokens.ts';
import { DEMO_ORDER_ROLES } from '../seed/demo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('authentication and feature access', () => {
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'a token the node has not seen costs one statement, feature access included; one it has seen none',
    async () => {
      const { token } = await demoLogin(t.app, 'super');
      // pick/list needs the picking feature (contract/rights.ts).
      const pickList = () => call(t.app, 'pick/list', {}, token);
      let first: Awaited<ReturnType<typeof pickList>> | undefined;
      const unseen = await statementsOf(async () => (first = await pickList()));
      expect(first!.status, JSON.stringify(first!.body)).toBe(200);
      const seen = await statementsOf(pickList);
      // Who the caller is and what its roles give: one statement when the token is new, none after.
      const asksWho = (sent: string[]) => sent.filter((s) => /\b(revoked_tokens|feature_access)\b/.test(s));
      expect(asksWho(unseen)).toHaveLength(1);
      expect(asksWho(unseen)[0]).toMatch(/\bfeature_access\b/);
      expect(asksWho(seen)).toEqual([]);
    },
  );

  it('gives each account the features a statement of their own gives it', async () => {
    const { token: admin } = await demoLogin(t.app, 'admin');
    expect((await call(t.app, 'admin/role/create', { name: 'packer' }, admin)).status).toBe(200);
    // Levels for everyone, for a role nobody holds and for the supervisor's role: the statement reads
    // only the rows of the caller's roles and everyone's.
    const put = await call(
      t.app,
      'admin/featureAccess/put',
      {
        levels: {
          '*': { physicalInventory: 0, stockAdjust: 1 },
          packer: { physicalInventory: 1, stockPick: 0 },
          [DEMO_ORDER_ROLES.supervisor]: { physicalInventory: 1, shipping: 0 },
        },
      },
      admin,
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const tokens = await createTokenService(t.db);
    for (const userName of ['admin', 'clerk', 'super', 'kiosk', 'clock', 'tcadmin']) {
      const { token } = await demoLogin(t.app, userName);
      const auth = await authenticate(t.db, tokens, token);
      const joint = await visibleFeaturesOf({ db: t.db }, auth);
      const apart = await loadVisibleFeatures({ db: t.db }, auth);
      expect(joint, userName).toEqual(apart);
      expect(Object.keys(joint).length, userName).toBeGreaterThan(0);
    }
  });
});
