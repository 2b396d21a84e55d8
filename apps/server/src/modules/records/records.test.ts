import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { validationDetailSchema } from '@floorhand/contract/api';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { records } from '../../db/schema.ts';
import { ACME_BASE, call, createAcme, createTestApp, DEMO_BASE, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin } from '../../test/logins.ts';
import { registerEntity } from './registry.ts';

// A test entity any logged-in account may write, titled with a vowel for the DUP article ("An").
registerEntity(
  {
    type: 'demoThing',
    title: 'Example Thing',
    idFieldName: 'code',
    fields: [
      { name: 'code', label: 'Code', dataType: 'string', conditions: { required: true, regex: 'generalId' } },
      { name: 'qty', label: 'Quantity', dataType: 'numeric', entryMethod: true },
      { name: 'price', label: 'Price', dataType: 'numeric' },
      { name: 'total', label: 'Total', dataType: 'numeric' },
      { name: 'made', label: 'Made On', dataType: 'date' },
      { name: 'tags', label: 'Tags', dataType: 'array', items: { name: 'tag', label: 'Tag', dataType: 'string' } },
    ],
  },
  'login',
);

let t: TestApp;
let admin: string;
let adminId: string;
let clerk: string;
let clerkId: string;
let acmeAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  const a = await demoLogin(t.app, 'admin');
  admin = a.token;
  adminId = a.login.user?.id ?? '';
  const c = await demoLogin(t.app, 'clerk');
  clerk = c.token;
  clerkId = c.login.user?.id ?? '';
  acmeAdmin = await acmeAdminToken(t.app);
});
afterAll(() => t?.close());

type Base = Record<string, string>;
const insert = (type: string, record: Record<string, unknown>, token = admin, base: Base = DEMO_BASE) =>
  call(t.app, 'record/insert', { ...base, type, record }, token);
const update = (type: string, record: Record<string, unknown>, token = admin) => call(t.app, 'record/update', { type, record }, token);
const get = (type: string, id: string, token = admin, base: Base = DEMO_BASE) => call(t.app, 'record/get', { ...base, type, id }, token);
const list = (type: string, opts: { after?: string; limit?: number } = {}, token = admin, base: Base = DEMO_BASE) =>
  call(t.app, 'record/list', { ...base, type, ...opts }, token);
const rowOf = async (type: string, id: string) =>
  (
    await t.db
      .select()
      .from(records)
      .where(and(eq(records.orgId, 'demo'), eq(records.type, type), eq(records.id, id)))
  )[0];
const detailOf = (err: ServerErr | undefined) => validationDetailSchema.parse(JSON.parse(err?.detail ?? 'null'));

/** Sets site data conf entity_<type> (the admins' scripts), creating or updating it. */
async function setConf(type: string, data: Record<string, unknown>) {
  const dataId = `entity_${type}`;
  const current = await call(t.app, 'site/getData', { section: 'conf', dataId }, admin);
  const res = await call(
    t.app,
    'site/putData',
    { section: 'conf', siteData: { dataId, data, ...(current.body.siteData?._rev ? { _rev: current.body.siteData._rev } : {}) } },
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('record/insert', () => {
  it('stores a record with the server-set control fields', async () => {
    const res = await insert('conditionCode', { code: 'NEW', description: 'New', active: true });
    expect(res.status).toBe(200);
    expect(res.body.record).toMatchObject({ _id: 'NEW', _rev: 1, x$type: 'conditionCode', code: 'NEW', description: 'New', active: true });
    expect(res.body.record?.x$audit).toEqual({
      create: { user: adminId, ts: expect.any(String) },
      modify: { user: adminId, ts: expect.any(String) },
    });
    expect(await rowOf('conditionCode', 'NEW')).toMatchObject({ rev: 1, data: { code: 'NEW', description: 'New', active: true } });
  });

  it.each([
    {
      type: 'conditionCode',
      record: { code: 'DUPE', description: 'x', active: true },
      message: "A Condition Code with id 'DUPE' already exists.",
    },
    { type: 'department', record: { code: 'DUPE', name: 'x', active: true }, message: "A Department with id 'DUPE' already exists." },
    { type: 'demoThing', record: { code: 'DUPE' }, message: "An Example Thing with id 'DUPE' already exists." },
  ])('refuses a duplicate $type id with 409 DUP: $message', async ({ type, record, message }) => {
    expect((await insert(type, record)).status).toBe(200);
    const res = await insert(type, { ...record, ...('description' in record ? { description: 'changed' } : {}) });
    expect(res.status).toBe(409);
    expect(res.body.err).toMatchObject({ code: ERR.dup, message });
    expect((await get(type, 'DUPE')).body.record?._rev).toBe(1);
  });

  it('ignores forged audit stamps, types, ids and revisions in the body', async () => {
    const forged = {
      create: { user: 'mallory', ts: '2000-01-01T00:00:00.000Z' },
      modify: { user: 'mallory', ts: '2000-01-01T00:00:00.000Z' },
    };
    const res = await insert('conditionCode', {
      code: 'FORGED',
      description: 'x',
      active: true,
      x$audit: forged,
      x$type: 'department',
      _id: 'OTHER',
      _rev: 99,
    });
    expect(res.status).toBe(200);
    expect(res.body.record).toMatchObject({
      _id: 'FORGED',
      _rev: 1,
      x$type: 'conditionCode',
      x$audit: { create: { user: adminId }, modify: { user: adminId } },
    });
    const row = await rowOf('conditionCode', 'FORGED');
    expect(row?.audit.create.user).toBe(adminId);
    expect(row?.audit.create.ts).not.toBe(forged.create.ts);
    expect(row?.data).toEqual({ code: 'FORGED', description: 'x', active: true });
  });

  it('never stores tmp$ properties', async () => {
    const res = await insert('demoThing', { code: 'TMP', qty: 1, tmp$note: 'scratch', tmp$ui: { open: true } });
    expect(res.status).toBe(200);
    expect(res.body.record).not.toHaveProperty('tmp$note');
    expect((await rowOf('demoThing', 'TMP'))?.data).toEqual({ code: 'TMP', qty: 1 });
  });

  it('converts values and keeps entry methods', async () => {
    const res = await insert('demoThing', { code: 'CONV', qty: '12', qty_em: 4, made: ' 2024-02-29 ', tags: ['a', 'b'] });
    expect(res.status).toBe(200);
    expect((await rowOf('demoThing', 'CONV'))?.data).toEqual({ code: 'CONV', qty: 12, qty_em: 4, made: '2024-02-29', tags: ['a', 'b'] });
  });

  it('answers 400 ERR_BAD_INPUT with the first messages and every message per field in detail', async () => {
    const res = await insert('conditionCode', { code: '_bad', description: 'x'.repeat(201), active: 'maybe', colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain("record.code: 'Code' must start with a letter or digit");
    expect(res.body.err?.message).toContain('and 1 more');
    expect(detailOf(res.body.err).errors).toEqual({
      code: [
        "'Code' must start with a letter or digit, may only contain letters (upper or lowercase), digits (0-9), underscores (_), and must end in a letter or digit.",
      ],
      description: ["'Description' exceeds max length of 200 characters"],
      active: ["'Active' must be a boolean"],
      _record: ["Record contains unexpected data (name = 'colour')"],
    });
    expect(await rowOf('conditionCode', '_bad')).toBeUndefined();
  });

  it.each([
    { why: 'no id', record: { description: 'x', active: true }, message: "'Code' must be provided" },
    {
      why: 'an id longer than the _id column',
      record: { code: 'A'.repeat(121) },
      message: "'Code' exceeds max length of 120 characters",
      type: 'demoThing',
    },
  ])('refuses $why with 400', async ({ record, message, type }) => {
    const res = await insert(type ?? 'conditionCode', record);
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain(message);
  });

  it('answers UN-REGISTERED for an unknown type, on every call', async () => {
    const message = "No entity 'gadget' has been registered";
    for (const res of [
      await insert('gadget', { code: 'X' }),
      await update('gadget', { code: 'X', _rev: 1 }),
      await get('gadget', 'X'),
      await list('gadget'),
      await call(t.app, 'record/getSchema', { type: 'gadget' }, admin),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.err).toMatchObject({ code: ERR.unregistered, message });
    }
  });

  it('lets only admins write reference data: a clerk gets 403 and nothing is stored', async () => {
    const res = await insert('conditionCode', { code: 'CLERK', description: 'x', active: true }, clerk);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.forbidden);
    expect(await rowOf('conditionCode', 'CLERK')).toBeUndefined();
    expect((await insert('department', { code: 'CLERK', name: 'x', active: true }, clerk)).status).toBe(403);
  });

  it('lets a clerk read reference data and write an entity open to every login', async () => {
    await insert('conditionCode', { code: 'READ', description: 'x', active: false });
    expect((await get('conditionCode', 'READ', clerk)).body.record?.active).toBe(false);
    const own = await insert('demoThing', { code: 'BYCLERK' }, clerk);
    expect(own.status).toBe(200);
    expect(own.body.record?.x$audit).toMatchObject({ create: { user: clerkId } });
  });

  it('needs a login', async () => {
    expect((await insert('demoThing', { code: 'ANON' }, '')).status).toBe(401);
    expect((await list('demoThing', {}, '')).status).toBe(401);
  });
});

describe('record/update', () => {
  it('replaces the record, counts the revision up and renews only the modify stamp', async () => {
    const created = (await insert('department', { code: 'UPD', name: 'First', active: true })).body.record!;
    const res = await update('department', { ...created, name: 'Second' });
    expect(res.status).toBe(200);
    expect(res.body.record).toMatchObject({ _id: 'UPD', _rev: 2, name: 'Second' });
    expect(res.body.record?.x$audit).toMatchObject({ create: created.x$audit.create, modify: { user: adminId } });
    const again = await update('department', { ...res.body.record!, active: false });
    expect(again.body.record).toMatchObject({ _rev: 3, active: false });
  });

  it('writes every insert and update to the audit log with what was before and after; a refused one writes nothing', async () => {
    const created = (await insert('department', { code: 'AUDITED', name: 'First', active: true })).body.record!;
    await update('department', { ...created, name: 'Second' });
    expect((await update('department', { ...created, name: 'Stale' })).status).toBe(409);
    expect((await insert('department', { code: 'AUDITED', name: 'Again', active: true })).status).toBe(409);
    const log = await call(t.app, 'admin/audit/list', { entity: 'department' }, admin);
    const mine = log.body.entries?.filter((e) => e.entityId === 'AUDITED') ?? [];
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      action: 'record/update',
      entity: 'department',
      accountId: adminId,
      before: { name: 'First' },
      after: { name: 'Second' },
    });
    expect(mine[1]).toMatchObject({ action: 'record/insert', before: null, after: { code: 'AUDITED', name: 'First', active: true } });
  });

  it('refuses a stale _rev with 409 and leaves the record unchanged', async () => {
    const created = (await insert('department', { code: 'STALE', name: 'First', active: true })).body.record!;
    expect((await update('department', { ...created, name: 'Second' })).status).toBe(200);
    const stale = await update('department', { ...created, name: 'Third' });
    expect(stale.status).toBe(409);
    expect(stale.body.err).toMatchObject({
      code: ERR.conflict,
      message: expect.stringContaining('changed by someone else'),
      detail: 'revision sent: 1, stored: 2',
    });
    expect((await get('department', 'STALE')).body.record).toMatchObject({ _rev: 2, name: 'Second' });
  });

  it('refuses a missing _rev with 409 and changes nothing', async () => {
    const created = (await insert('department', { code: 'NOREV', name: 'First', active: true })).body.record!;
    const { _rev: _, ...withoutRev } = created;
    const res = await update('department', { ...withoutRev, name: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body.err).toMatchObject({ code: ERR.conflict, message: expect.stringContaining('without its revision (_rev)') });
    expect(await rowOf('department', 'NOREV')).toMatchObject({ rev: 1, data: { name: 'First' } });
  });

  it('ignores a forged audit stamp on update', async () => {
    const created = (await insert('department', { code: 'FORGE2', name: 'x', active: true })).body.record!;
    const forged = { create: { user: 'mallory', ts: 'then' }, modify: { user: 'mallory', ts: 'then' } };
    const res = await update('department', { ...created, x$audit: forged });
    expect(res.body.record?.x$audit).toEqual({ create: created.x$audit.create, modify: { user: adminId, ts: expect.any(String) } });
  });

  it('refuses a changed id and an unknown record', async () => {
    const created = (await insert('department', { code: 'KEEP', name: 'x', active: true })).body.record!;
    const renamed = await update('department', { ...created, code: 'RENAMED' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.err?.message).toContain("'Code' cannot be changed");
    const missing = await update('department', { code: 'NOPE', name: 'x', active: true, _rev: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.err?.code).toBe(ERR.notFound);
  });

  it('validates the new version and keeps the old one when it fails', async () => {
    const created = (await insert('department', { code: 'VALID', name: 'x', active: true })).body.record!;
    const res = await update('department', { ...created, name: '' });
    expect(res.status).toBe(400);
    expect(detailOf(res.body.err).errors).toEqual({ name: ["'Name' must be provided"] });
    expect(await rowOf('department', 'VALID')).toMatchObject({ rev: 1, data: { name: 'x' } });
  });

  it('lets a clerk not update reference data', async () => {
    const created = (await insert('department', { code: 'NOCLERK', name: 'x', active: true })).body.record!;
    expect((await update('department', { ...created, name: 'y' }, clerk)).status).toBe(403);
  });
});

describe('record/get, record/list and record/getSchema', () => {
  it('answers 404 for a missing record', async () => {
    const res = await get('department', 'MISSING');
    expect(res.status).toBe(404);
    expect(res.body.err).toMatchObject({ code: ERR.notFound, message: "No Department with id 'MISSING' exists" });
  });

  it('pages through the records of one type in _id order', async () => {
    for (const code of ['P3', 'P1', 'P2']) await insert('demoThing', { code: `PAGE_${code}` });
    const first = await list('demoThing', { after: 'PAGE', limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.records?.map((r) => r._id)).toEqual(['PAGE_P1', 'PAGE_P2']);
    expect(first.body.more).toBe(true);
    const next = await list('demoThing', { after: 'PAGE_P2', limit: 2 });
    expect(next.body.records?.[0]?._id).toBe('PAGE_P3');
    expect(next.body.records?.every((r) => r.x$type === 'demoThing')).toBe(true);
  });

  it('refuses a limit above 499', async () => {
    expect((await list('demoThing', { limit: 500 })).status).toBe(400);
  });

  it('gives the entity definition to render a form', async () => {
    const res = await call(t.app, 'record/getSchema', { type: 'conditionCode' }, clerk);
    expect(res.status).toBe(200);
    expect(res.body.entity).toMatchObject({ type: 'conditionCode', title: 'Condition Code', idFieldName: 'code' });
    expect(res.body.entity?.fields.map((f) => f.name)).toEqual(['code', 'description', 'active']);
  });
});

describe('another organisation', () => {
  it("never sees or changes this organisation's records", async () => {
    const ours = (await insert('conditionCode', { code: 'SECRET', description: 'demo only', active: true })).body.record!;
    expect((await get('conditionCode', 'SECRET', acmeAdmin, ACME_BASE)).status).toBe(404);
    const theirs = await list('conditionCode', {}, acmeAdmin, ACME_BASE);
    expect(theirs.status).toBe(200);
    expect(theirs.body.records).toEqual([]);
    // The same id is free in the other organisation, and writing it there leaves ours alone.
    const own = await insert('conditionCode', { code: 'SECRET', description: 'acme', active: true }, acmeAdmin, ACME_BASE);
    expect(own.status).toBe(200);
    expect((await get('conditionCode', 'SECRET')).body.record).toEqual(ours);
    // A body naming our organisation with their token is refused before the record layer.
    expect((await get('conditionCode', 'SECRET', acmeAdmin)).status).toBe(403);
  });
});

describe('scripts from site data (conf entity_<type>)', () => {
  it('runs the calculation script before validation', async () => {
    await setConf('demoThing', { calcScript: 'record.total = record.qty * record.price; record.tmp$seen = true;' });
    const res = await insert('demoThing', { code: 'CALC', qty: 3, price: 2.5 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await rowOf('demoThing', 'CALC'))?.data).toEqual({ code: 'CALC', qty: 3, price: 2.5, total: 7.5 });
    // Calculated values are validated like typed ones: text makes total fail its type check.
    await setConf('demoThing', { calcScript: "record.total = 'lots'" });
    const bad = await insert('demoThing', { code: 'CALC2' });
    expect(bad.status).toBe(400);
    expect(detailOf(bad.body.err).errors).toEqual({ total: ["'Total' must be a number"] });
    await setConf('demoThing', {});
  });

  it('fails a custom check with "Validation for data field \'{label}\' failed to pass"', async () => {
    await setConf('demoThing', { checks: { qty: 'return value > 0', nonsense: 'return false' } });
    const res = await insert('demoThing', { code: 'CHECK', qty: 0 });
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain("Validation for data field 'Quantity' failed to pass");
    expect(detailOf(res.body.err).errors).toEqual({ qty: ["Validation for data field 'Quantity' failed to pass"] });
    expect((await insert('demoThing', { code: 'CHECK', qty: 1 })).status).toBe(200);
    const schema = await call(t.app, 'record/getSchema', { type: 'demoThing' }, admin);
    expect(schema.body.entity?.fields.find((f) => f.name === 'qty')?.conditions?.custom).toBe('return value > 0');
    await setConf('demoThing', {});
  });

  it('ends an endless loop with the calculation error and keeps serving', async () => {
    await setConf('demoThing', { calcScript: 'while (true) {}' });
    const started = Date.now();
    const res = await insert('demoThing', { code: 'LOOP' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain("Calulation script for 'Example Thing' failed during execution");
    expect(detailOf(res.body.err).calcError).toMatch(/time limit/);
    expect(await rowOf('demoThing', 'LOOP')).toBeUndefined();
    await setConf('demoThing', {});
    expect((await insert('demoThing', { code: 'AFTERLOOP' })).status).toBe(200);
    expect((await get('conditionCode', 'NEW')).status).toBe(200);
  });
});

describe('site/putData through the record layer', () => {
  const putData = (siteData: Record<string, unknown>) => call(t.app, 'site/putData', { section: 'conf', siteData }, admin);

  it.each([
    { dataId: '_x', field: 'dataId', message: "'Data Id' must start with a letter or digit" },
    { dataId: 'a'.repeat(36), field: 'dataId', message: "'Data Id' exceeds max length of 35 characters" },
    { dataId: '', field: 'dataId', message: "'Data Id' must be provided" },
    { dataId: true, field: 'dataId', message: "'Data Id' must be a string" },
  ])('refuses dataId $dataId with the spec message', async ({ dataId, field, message }) => {
    const res = await putData({ dataId, data: {} });
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain(`siteData.${field}: ${message}`);
    expect(detailOf(res.body.err).errors[field]?.[0]).toContain(message);
  });

  it.each([
    { data: undefined, message: "'Data' must be provided" },
    { data: [1], message: "'Data' must be an object" },
  ])('refuses data $data with the spec message', async ({ data, message }) => {
    const res = await putData({ dataId: 'bad_data', data });
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain(`siteData.data: ${message}`);
  });

  it('refuses unexpected properties and accepts an emptied conf', async () => {
    const res = await putData({ dataId: 'extra', data: {}, extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain("Record contains unexpected data (name = 'extra')");
    expect((await putData({ dataId: 'emptied', data: {} })).status).toBe(200);
  });
});
