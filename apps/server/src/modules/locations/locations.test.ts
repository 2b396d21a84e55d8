import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validationDetailSchema } from '@floorhand/contract/api';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { ACME_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { and, eq } from 'drizzle-orm';
import { APP_ID } from '@floorhand/contract/constants';
import { featureAccess } from '../../db/schema.ts';
import { DEMO } from '../../seed/demo.ts';
import { EVERYONE as EVERYONE_ROLE } from '@floorhand/contract/roles';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let clerk: string;
let acme: string;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  clerk = await tokenFor(t.app, 'clerk');
  acme = await acmeAdminToken(t.app);
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

type Body = Record<string, unknown>;
const save = <P extends 'warehouse/save' | 'location/save' | 'item/save'>(path: P, record: Body, token = clerk) =>
  call<P>(t.app, path, { record }, token);
const detailOf = (err: ServerErr | undefined) => validationDetailSchema.parse(JSON.parse(err?.detail ?? 'null'));
let n = 0;
const unique = (prefix: string) => `${prefix}${++n}${Date.now() % 100000}`;

describe('warehouses', () => {
  it('creates, lists and updates a warehouse with optimistic concurrency', async () => {
    const code = unique('W');
    const created = await save('warehouse/save', { code, name: 'Overflow' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.warehouse).toMatchObject({ code, name: 'Overflow', active: true, _rev: 1 });
    const list = await call(t.app, 'warehouse/list', {}, clerk);
    expect(list.body.warehouses?.map((w) => w.code)).toEqual(expect.arrayContaining(['MAIN', 'EAST', code]));
    const w = created.body.warehouse!;
    const updated = await save('warehouse/save', { _id: w._id, _rev: 1, code, name: 'Overflow yard' });
    expect(updated.body.warehouse).toMatchObject({ name: 'Overflow yard', _rev: 2, active: true });
    const stale = await save('warehouse/save', { _id: w._id, _rev: 1, code, name: 'Late' });
    expect(stale.status).toBe(409);
    expect(stale.body.err?.code).toBe(ERR.conflict);
    expect((await save('warehouse/save', { _id: w._id, code, name: 'No rev' })).status).toBe(409);
  });

  it('refuses a duplicate code with DUP, a bad code with the record layer messages', async () => {
    const dup = await save('warehouse/save', { code: 'MAIN', name: 'Again' });
    expect(dup.status).toBe(409);
    expect(dup.body.err).toMatchObject({ code: ERR.dup, message: "A Warehouse with id 'MAIN' already exists." });
    const bad = await save('warehouse/save', { code: '-bad-', name: '' });
    expect(bad.status).toBe(400);
    expect(Object.keys(detailOf(bad.body.err).errors).sort()).toEqual(['code', 'name']);
  });

  it('refuses to deactivate a warehouse that holds stock', async () => {
    const main = (await call(t.app, 'warehouse/list', {}, clerk)).body.warehouses!.find((w) => w.code === 'MAIN')!;
    const res = await save('warehouse/save', { _id: main._id, _rev: main._rev, code: 'MAIN', name: main.name, active: false });
    expect(res.status).toBe(409);
  });

  it("never shows or changes another organisation's warehouses", async () => {
    const main = (await call(t.app, 'warehouse/list', {}, clerk)).body.warehouses!.find((w) => w.code === 'MAIN')!;
    expect((await call(t.app, 'warehouse/list', { ...ACME_BASE }, acme)).body.warehouses).toEqual([]);
    const res = await call(
      t.app,
      'warehouse/save',
      { ...ACME_BASE, record: { _id: main._id, _rev: main._rev, code: 'MAIN', name: 'Mine now' } },
      acme,
    );
    expect(res.status).toBe(404);
    // The same code is free in another organisation.
    expect((await call(t.app, 'warehouse/save', { ...ACME_BASE, record: { code: 'MAIN', name: 'Acme main' } }, acme)).status).toBe(200);
  });
});

describe('locations', () => {
  it('lists with filters and counts of what is stored', async () => {
    const res = await call(t.app, 'location/list', { warehouse: 'MAIN', search: 'A-01-', limit: 10 }, clerk);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.locations).toHaveLength(4);
    expect(res.body.more).toBe(false);
    for (const loc of res.body.locations!) {
      expect(loc.code.startsWith('A-01-')).toBe(true);
      const got = await call(t.app, 'location/get', { warehouse: 'MAIN', code: loc.code }, clerk);
      expect(loc.counts).toEqual(got.body.location?.counts);
      expect(got.body.stock).toHaveLength(loc.counts!.records);
      expect(new Set(got.body.stock!.map((s) => s.itemId)).size).toBe(loc.counts!.items);
    }
    const page = await call(t.app, 'location/list', { limit: 5, offset: 5 }, clerk);
    expect(page.body.locations).toHaveLength(5);
    expect(page.body.more).toBe(true);
    expect((await call(t.app, 'location/list', { limit: 500 }, clerk)).status).toBe(400);
  });

  it('creates, edits and deactivates a location; an empty one only', async () => {
    const code = unique('TMP-');
    const created = await save('location/save', { warehouse: 'EAST', code, description: 'Temporary', type: 'floor' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const loc = created.body.location!;
    expect(loc).toMatchObject({ warehouse: 'EAST', code, type: 'floor', active: true });
    const edited = await save('location/save', { _id: loc._id, _rev: 1, warehouse: 'EAST', code, description: 'Renamed' });
    expect(edited.body.location).toMatchObject({ description: 'Renamed', type: 'floor', _rev: 2 });
    expect((await save('location/save', { _id: loc._id, _rev: 2, warehouse: 'MAIN', code })).status).toBe(400);
    const off = await call(t.app, 'location/deactivate', { warehouse: 'EAST', code }, clerk);
    expect(off.body.location).toMatchObject({ active: false, _rev: 3 });
    expect((await call(t.app, 'location/list', { warehouse: 'EAST', active: false }, clerk)).body.locations?.map((l) => l.code)).toContain(
      code,
    );
  });

  it('refuses to deactivate a location that holds stock', async () => {
    const res = await call(t.app, 'location/deactivate', { warehouse: 'MAIN', code: 'A-01-2' }, clerk);
    expect(res.status).toBe(409);
    expect(res.body.err?.message).toContain('holds');
    expect((await call(t.app, 'location/get', { warehouse: 'MAIN', code: 'A-01-2' }, clerk)).body.location?.active).toBe(true);
  });

  it('refuses a duplicate code in the warehouse, an unknown warehouse or type', async () => {
    expect((await save('location/save', { warehouse: 'MAIN', code: 'A-01-1' })).body.err?.code).toBe(ERR.dup);
    const bad = await save('location/save', { warehouse: 'NOPE', code: 'X-1', type: 'attic' });
    expect(bad.status).toBe(400);
    expect(detailOf(bad.body.err).errors.type).toBeDefined();
    const noWh = await save('location/save', { warehouse: 'NOPE', code: 'X-1' });
    expect(detailOf(noWh.body.err).errors.warehouse).toEqual(["No warehouse 'NOPE' exists"]);
    expect((await call(t.app, 'location/get', { warehouse: 'MAIN', code: 'NOWHERE' }, clerk)).status).toBe(404);
  });
});

describe('feature access on the server', () => {
  // Changed by hand in SQL, which a new login sees at once (a token already in use within AUTH_CACHE_MS:
  // its feature access is remembered with its authentication); answers a new clerk token.
  const setEveryone = async (feature: string, level: number | null) => {
    await t.db.delete(featureAccess).where(and(eq(featureAccess.role, EVERYONE_ROLE), eq(featureAccess.feature, feature)));
    if (level !== null)
      await t.db.insert(featureAccess).values({ siteId: DEMO.siteId, appId: APP_ID, role: EVERYONE_ROLE, feature, level });
    return await tokenFor(t.app, 'clerk');
  };

  it('refuses location writes and CSV imports to roles without location.edit, and changes nothing', async () => {
    const code = unique('FA-');
    const hidden = await setEveryone('location.edit', 0);
    try {
      const res = await save('location/save', { warehouse: 'MAIN', code, description: 'Hidden', type: 'bin' }, hidden);
      expect(res.status).toBe(403);
      expect(res.body.err).toMatchObject({ code: ERR.forbidden, message: "Your roles do not give access to 'location.edit'" });
      const imported = await call(
        t.app,
        'import/csv',
        { entity: 'locations', csv: `warehouse,code,description,type,active\nMAIN,${code},x,bin,true\n` },
        hidden,
      );
      expect(imported.status).toBe(403);
      expect((await call(t.app, 'location/get', { warehouse: 'MAIN', code }, hidden)).status).toBe(404);
    } finally {
      const shown = await setEveryone('location.edit', null);
      expect((await save('location/save', { warehouse: 'MAIN', code, description: 'Shown', type: 'bin' }, shown)).status).toBe(200);
    }
  });

  it('refuses a stock move to roles without stockAdjust.move', async () => {
    const hidden = await setEveryone('stockAdjust.move', 0);
    try {
      const res = await call(t.app, 'stock/move', { idempotencyKey: randomUUID(), stockId: 'NOPE-1', toLocation: 'A-01-1' }, hidden);
      expect(res.status).toBe(403);
      expect(res.body.err?.code).toBe(ERR.forbidden);
    } finally {
      await setEveryone('stockAdjust.move', null);
    }
  });
});

describe('location search', () => {
  it('finds codes whatever the case typed', async () => {
    const upper = await call(t.app, 'location/list', { warehouse: 'MAIN', search: 'A-01-', limit: 10 }, clerk);
    const lower = await call(t.app, 'location/list', { warehouse: 'MAIN', search: 'a-01-', limit: 10 }, clerk);
    expect(lower.body.locations?.map((l) => l.code)).toEqual(upper.body.locations?.map((l) => l.code));
    expect(lower.body.locations?.length).toBeGreaterThan(0);
  });
});
