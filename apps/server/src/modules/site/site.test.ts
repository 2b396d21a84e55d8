import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { calls, type CallPath } from '@floorhand/contract/api';
import { LABOR_DEFAULTS } from '@floorhand/contract/constants';
import { ERR } from '@floorhand/contract/errors';
import { auditLog, siteData } from '../../db/schema.ts';
import { ACME, ACME_BASE, call, createAcme, createTestApp, DEMO_BASE, uniqueIp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin, tokenFor } from '../../test/logins.ts';

let t: TestApp;
let admin: string;
let adminId: string;
let clerk: string;
let acmeAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  const a = await demoLogin(t.app, 'admin');
  admin = a.token;
  adminId = a.login.user?.id ?? '';
  clerk = await tokenFor(t.app, 'clerk');
  acmeAdmin = await acmeAdminToken(t.app);
});
afterAll(() => t?.close());

const getData = (section: string, dataId: string, token?: string, base: Record<string, string> = DEMO_BASE) =>
  call(t.app, 'site/getData', { ...base, section, dataId }, token);
const putData = (section: string, siteData: Record<string, unknown>, token: string, base: Record<string, string> = DEMO_BASE) =>
  call(t.app, 'site/putData', { ...base, section, siteData }, token);
const siteDataRows = (siteId: string, dataId: string) =>
  t.db
    .select()
    .from(siteData)
    .where(and(eq(siteData.siteId, siteId), eq(siteData.dataId, dataId)));
const auditRows = (dataId: string) => t.db.select().from(auditLog).where(eq(auditLog.entityId, dataId)).orderBy(auditLog.ts);

describe('site/resolve', () => {
  it.each([
    { hostname: 'localhost', siteId: 'demo-main', orgId: 'demo' },
    { hostname: '127.0.0.1', siteId: 'demo-main', orgId: 'demo' },
    { hostname: 'LocalHost', siteId: 'demo-main', orgId: 'demo' },
    { hostname: ACME.host, siteId: ACME.siteId, orgId: ACME.orgId },
  ])('resolves $hostname to $siteId', async ({ hostname, siteId, orgId }) => {
    const res = await call(t.app, 'site/resolve', { hostname });
    expect(res.status).toBe(200);
    expect(res.body.site).toMatchObject({ siteId, orgId, trustedDomains: expect.any(Array) });
  });

  it('gives the trusted domains of the site', async () => {
    const res = await call(t.app, 'site/resolve', { hostname: ACME.host });
    expect(res.body.site?.trustedDomains).toEqual([ACME.host]);
  });

  it.each(['nowhere.example', 'localhost.evil.example', 'evil-localhost', '127.0.0.10', 'localhos'])(
    'answers 404 ERR_SITE_UNKNOWN for %s',
    async (hostname) => {
      const res = await call(t.app, 'site/resolve', { hostname });
      expect(res.status).toBe(404);
      expect(res.body.err).toMatchObject({ code: ERR.siteUnknown, message: expect.stringContaining(hostname), locId: 'test' });
    },
  );

  it.each([
    { why: 'an empty host name', hostname: '' },
    { why: 'a host name of 254 characters', hostname: 'h'.repeat(254) },
    { why: 'a number', hostname: 127 },
  ])('refuses $why with 400 ERR_BAD_INPUT', async ({ hostname }) => {
    const res = await call(t.app, 'site/resolve', { hostname });
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain('hostname');
  });
});

describe('site/getData', () => {
  it.each([
    { section: 'conf', dataId: 'client' },
    { section: 'brand', dataId: 'brand' },
  ])('reads $section/$dataId before login', async ({ section, dataId }) => {
    const res = await getData(section, dataId);
    expect(res.status).toBe(200);
    expect(res.body.siteData).toMatchObject({ dataId, data: expect.any(Object) });
  });

  it('reads the brand defaults before login, for any known site', async () => {
    for (const base of [DEMO_BASE, ACME_BASE]) {
      const res = await getData('brand', 'brand', undefined, base);
      expect(res.status).toBe(200);
      expect(res.body.siteData?.data).toMatchObject({
        siteName: expect.any(String),
        colors: expect.objectContaining({ primary: expect.any(String) }),
      });
    }
  });

  it('answers 404 ERR_SITE_UNKNOWN before login for an unknown site', async () => {
    const res = await getData('conf', 'client', undefined, { ...DEMO_BASE, siteId: 'no-such-site' });
    expect(res.status).toBe(404);
    expect(res.body.err?.code).toBe(ERR.siteUnknown);
  });

  it.each(['app_settings', 'unknown_data'])('refuses conf/%s before login with 401 ERR_UNAUTHORIZED', async (dataId) => {
    const res = await getData('conf', dataId);
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.unauthorized);
    expect(res.body.siteData).toBeUndefined();
  });

  it('reads app_settings after login, with the defaults of spec section 9', async () => {
    const res = await getData('conf', 'app_settings', clerk);
    expect(res.status).toBe(200);
    expect(res.body.siteData?.data).toMatchObject({ labor: LABOR_DEFAULTS, stockAdjust: { clearDstLoc: true } });
  });

  it('reads public data anonymously with a bad token, and refuses the token where it is needed', async () => {
    const pub = await getData('conf', 'client', 'not-a-token');
    expect(pub.status).toBe(200);
    expect(pub.body.siteData?.dataId).toBe('client');
    const res = await getData('conf', 'app_settings', 'not-a-token');
    expect(res.status).toBe(401);
  });

  it('answers 404 ERR_NOT_FOUND for an unknown dataId', async () => {
    const res = await getData('conf', 'no_such_data', clerk);
    expect(res.status).toBe(404);
    expect(res.body.err?.code).toBe(ERR.notFound);
  });

  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf'])(
    'answers 404 for the dataId %s, a name Object.prototype has',
    async (dataId) => {
      const res = await getData('conf', dataId, clerk);
      expect(res.status).toBe(404);
      expect(res.body.err?.code).toBe(ERR.notFound);
    },
  );

  it.each(['a'.repeat(35), 'A1', 'x', 'stock_labels_2'])('accepts the dataId %s (answers 404, not 400)', async (dataId) => {
    expect((await getData('conf', dataId, clerk)).status).toBe(404);
  });

  it.each([
    { why: 'too long (36 characters)', dataId: 'a'.repeat(36) },
    { why: 'empty', dataId: '' },
    { why: 'with a hyphen', dataId: 'bad-char' },
    { why: 'with a space', dataId: 'has space' },
    { why: 'with a dot', dataId: 'a.b' },
    { why: 'with a slash', dataId: '../etc' },
    { why: 'with a non-ASCII letter', dataId: 'café' },
    { why: 'with a leading underscore', dataId: '_lead' },
    { why: 'with a trailing underscore', dataId: 'trail_' },
    { why: 'a number', dataId: 12 },
  ])('refuses a dataId $why with 400 ERR_BAD_INPUT naming dataId', async ({ dataId }) => {
    for (const token of [undefined, clerk]) {
      const res = await call(t.app, 'site/getData', { section: 'conf', dataId, locId: 'c1142' }, token);
      expect(res.status).toBe(400);
      expect(res.body.err).toMatchObject({ code: ERR.badInput, locId: 'c1142' });
      expect(res.body.err?.message).toContain('dataId');
    }
  });

  it('refuses an unknown section with 400 ERR_BAD_INPUT naming section', async () => {
    const res = await getData('secrets', 'client', clerk);
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain('section');
  });
});

describe('site/putData', () => {
  it('creates, updates with _rev, refuses a stale _rev with 409 and keeps the data', async () => {
    const created = await putData('conf', { dataId: 'put_flow', data: { v: 1 } }, admin);
    expect(created.status).toBe(200);
    expect(created.body.siteData).toMatchObject({ dataId: 'put_flow', _rev: 1, _id: expect.any(String), data: { v: 1 } });

    const updated = await putData('conf', { ...created.body.siteData, data: { v: 2 } }, admin);
    expect(updated.status).toBe(200);
    expect(updated.body.siteData).toMatchObject({ _id: created.body.siteData?._id, _rev: 2, data: { v: 2 } });

    const stale = await putData('conf', { ...created.body.siteData, data: { v: 3 } }, admin);
    expect(stale.status).toBe(409);
    expect(stale.body.err).toMatchObject({ code: ERR.conflict, detail: expect.stringContaining('1') });

    const noRev = await putData('conf', { dataId: 'put_flow', data: { v: 4 } }, admin);
    expect(noRev.status).toBe(409);
    expect(noRev.body.err?.code).toBe(ERR.conflict);

    const read = await getData('conf', 'put_flow', clerk);
    expect(read.body.siteData).toMatchObject({ _rev: 2, data: { v: 2 } });
  });

  it('writes an audit_log row for each change and none for a refused one', async () => {
    const first = await putData('conf', { dataId: 'audited', data: { a: 1 } }, admin);
    await putData('conf', { ...first.body.siteData, data: { a: 2 } }, admin);
    await putData('conf', { ...first.body.siteData, data: { a: 3 } }, admin); // stale
    await putData('conf', { dataId: 'audited', data: { a: 4 } }, clerk); // forbidden
    const rows = await auditRows('audited');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      orgId: 'demo',
      siteId: 'demo-main',
      accountId: adminId,
      action: 'site/putData',
      entity: 'siteData.conf',
      before: null,
      after: { a: 1 },
    });
    expect(rows[1]).toMatchObject({ before: { a: 1 }, after: { a: 2 } });
  });

  it('stamps the row with who created and changed it', async () => {
    const first = await putData('conf', { dataId: 'stamped', data: {} }, admin);
    await putData('conf', { ...first.body.siteData, data: { x: 1 } }, admin);
    const [row] = await siteDataRows('demo-main', 'stamped');
    expect(row?.audit).toMatchObject({ create: { user: adminId }, modify: { user: adminId } });
  });

  it('overrides the defaults: a saved conf/client is what everyone reads before login', async () => {
    const before = await getData('conf', 'client');
    const saved = await putData('conf', { ...before.body.siteData, data: { helpUrl: 'https://help.example' } }, admin);
    expect(saved.status).toBe(200);
    expect((await getData('conf', 'client')).body.siteData?.data).toEqual({ helpUrl: 'https://help.example' });
  });

  it('keeps any JSON value as given', async () => {
    const data = { text: 'Größe 😀 "quoted" \\ back', n: -1.5e10, big: 2 ** 53 - 1, list: [1, 'two', null, { deep: [true] }], empty: {} };
    const saved = await putData('brand', { dataId: 'round_trip', data }, admin);
    expect(saved.status).toBe(200);
    expect((await getData('brand', 'round_trip', clerk)).body.siteData?.data).toEqual(data);
  });

  it.each(['clerk', 'kiosk', 'clock', 'tcadmin'])('refuses %s with 403 ERR_FORBIDDEN and writes nothing', async (userName) => {
    const token = await tokenFor(t.app, userName);
    const res = await putData('conf', { dataId: `by_${userName}`, data: { x: 1 } }, token);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.forbidden);
    expect(await siteDataRows('demo-main', `by_${userName}`)).toEqual([]);
  });

  it.each([
    { why: 'data that is not an object', siteData: { dataId: 'x', data: [1, 2] }, field: 'siteData.data' },
    { why: 'no data', siteData: { dataId: 'x' }, field: 'siteData.data' },
    { why: 'a bad dataId', siteData: { dataId: '_x', data: {} }, field: 'siteData.dataId' },
    { why: 'a string _rev', siteData: { dataId: 'x', _rev: '1', data: {} }, field: 'siteData._rev' },
    { why: 'a fractional _rev', siteData: { dataId: 'x', _rev: 1.5, data: {} }, field: 'siteData._rev' },
    { why: 'a NUL character in a value', siteData: { dataId: 'x', data: { a: 'x\u0000y' } }, field: 'siteData.data.a' },
    { why: 'a NUL character in a key', siteData: { dataId: 'x', data: { 'x\u0000y': 1 } }, field: 'siteData.data' },
    { why: 'an unpaired surrogate', siteData: { dataId: 'x', data: { a: 'x\ud800y' } }, field: 'siteData.data.a' },
  ])('refuses $why with 400 ERR_BAD_INPUT naming $field', async ({ siteData: sd, field }) => {
    const res = await putData('conf', sd, admin);
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain(field);
  });

  it('refuses data nested too deeply with 400, not a 500', async () => {
    const depth = 100_000;
    const payload = JSON.stringify({ ...DEMO_BASE, section: 'conf', siteData: { dataId: 'deep', data: { d: 'X' } } }).replace(
      '"X"',
      '['.repeat(depth) + ']'.repeat(depth),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/site/putData',
      payload,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ err: { code: ERR.badInput, message: expect.stringContaining('nested') } });
  });
});

describe('organisation boundary', () => {
  it('refuses a demo token writing with acme ids (403 ERR_ORG_MISMATCH) and changes nothing', async () => {
    const res = await putData('conf', { dataId: 'cross_org', data: { evil: true } }, admin, ACME_BASE);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.orgMismatch);
    expect(await siteDataRows(ACME.siteId, 'cross_org')).toEqual([]);
    expect(await siteDataRows('demo-main', 'cross_org')).toEqual([]);
    expect(await auditRows('cross_org')).toEqual([]);
  });

  it('does not let the acme admin read or change demo data', async () => {
    const saved = await putData('conf', { dataId: 'demo_secret', data: { secret: 'demo' } }, admin);
    expect(saved.status).toBe(200);

    // Naming the demo site with an acme token is refused outright.
    const named = await getData('conf', 'demo_secret', acmeAdmin);
    expect(named.status).toBe(403);
    expect(named.body.err?.code).toBe(ERR.orgMismatch);
    const write = await putData('conf', { ...saved.body.siteData, data: { secret: 'acme' } }, acmeAdmin);
    expect(write.status).toBe(403);

    // With its own ids the acme admin sees its own site only.
    const own = await getData('conf', 'demo_secret', acmeAdmin, ACME_BASE);
    expect(own.status).toBe(404);
    const ownWrite = await putData('conf', { ...saved.body.siteData, data: { secret: 'acme' } }, acmeAdmin, ACME_BASE);
    expect(ownWrite.status).toBe(200);
    expect(ownWrite.body.siteData?._id).not.toBe(saved.body.siteData?._id);

    expect((await getData('conf', 'demo_secret', admin)).body.siteData).toMatchObject({ _rev: 1, data: { secret: 'demo' } });
    expect((await getData('conf', 'demo_secret', acmeAdmin, ACME_BASE)).body.siteData?.data).toEqual({ secret: 'acme' });
  });
});

describe('the HTTP API as a whole', () => {
  const errShape = { err: { code: expect.any(String), message: expect.any(String) } };
  const post = (url: string, payload: string | Buffer | object, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    t.app.inject({ method: 'POST', url, payload, headers });

  it.each([
    { method: 'POST' as const, url: '/api/no/such/call' },
    { method: 'GET' as const, url: '/api/site/resolve' },
    { method: 'PUT' as const, url: '/api/site/getData' },
  ])('answers $method $url with 404 ERR_NOT_FOUND', async ({ method, url }) => {
    const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : DEMO_BASE });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ err: { code: ERR.notFound, message: expect.stringContaining(url) } });
  });

  it.each([
    { why: 'malformed JSON', payload: '{"siteId": "demo-main",', status: 400 },
    { why: 'an empty JSON body', payload: '', status: 400 },
    { why: 'a JSON array', payload: '[1,2]', status: 400 },
    { why: 'JSON null', payload: 'null', status: 400 },
    { why: 'a __proto__ key', payload: '{"__proto__":{"isAdmin":true},"hostname":"localhost"}', status: 400 },
    { why: 'a body over 1 MB', payload: JSON.stringify({ ...DEMO_BASE, hostname: 'x'.repeat(1024 * 1024) }), status: 413 },
  ])('answers $why with $status and the error shape', async ({ payload, status }) => {
    const res = await post('/api/site/resolve', payload);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject(errShape);
  });

  it('answers a body of another media type with 415 and the error shape', async () => {
    const res = await post('/api/site/resolve', '<hostname>localhost</hostname>', { 'content-type': 'application/xml' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject(errShape);
  });

  it.each(Object.keys(calls) as CallPath[])('%s without the base fields answers 400 naming them', async (path) => {
    const res = await post(`/api/${path}`, {}, { authorization: `Bearer ${admin}` });
    expect(res.statusCode).toBe(400);
    const { err } = res.json() as { err: { code: string; message: string } };
    expect(err.code).toBe(ERR.badInput);
    for (const field of ['siteId', 'appId', 'orgId']) expect(err.message).toContain(field);
  });

  it.each([
    { field: 'siteId', value: 5 },
    { field: 'orgId', value: null },
    { field: 'appId', value: '' },
    { field: 'locId', value: 'L'.repeat(41) },
    { field: 'siteId', value: { $ne: null } },
  ])('refuses $field = $value with a message naming the field', async ({ field, value }) => {
    const res = await call(t.app, 'site/resolve', { hostname: 'localhost', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toMatch(new RegExp(`${field}: `));
  });

  // Arbitrary JSON in the fields of a valid body of every call, with an admin token: any answer but a 500.
  const weird = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 50 }),
    fc.constantFrom(
      '',
      'x'.repeat(300),
      'conf',
      'client',
      'app_settings',
      '\u0000',
      'a\ud800',
      "'; drop table sites; --",
      '__proto__',
      1e308,
      -0,
    ),
  );
  let fuzzCount = 0;
  const validBody = (path: CallPath, sessionToken: string): Record<string, unknown> =>
    ({
      'site/resolve': { hostname: 'localhost' },
      'site/getData': { section: 'conf', dataId: 'app_settings' },
      'site/putData': { section: 'conf', siteData: { dataId: `fuzz${(fuzzCount += 1)}`, data: {} } },
      'auth/login': { userName: 'admin', password: 'wrong', workstationId: 'FUZZ' },
      'site/access/getVisibleFeatures': { sessionToken },
      'capture/session/getSession': { sessionToken },
      'capture/session/putSession': { sessionToken, session: { prefs: {} } },
    })[path as string] ?? {};
  /** The body with `nested` put inside its free-form part (site data, session prefs), if it has one. */
  const withNested = (body: Record<string, unknown>, nested: unknown): Record<string, unknown> => {
    if (typeof body.siteData === 'object' && body.siteData) return { ...body, siteData: { ...body.siteData, data: { v: nested } } };
    if (typeof body.session === 'object' && body.session) return { ...body, session: { prefs: { v: nested } } };
    return body;
  };
  it.each(Object.keys(calls).filter((p) => p !== 'auth/logout') as CallPath[])('%s never answers 500 to arbitrary input', async (path) => {
    const { sessionToken = '' } = (await call(t.app, 'capture/session/genSessionToken', {}, admin)).body;
    const fields = [...Object.keys(calls[path].body.shape), 'extra'];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), weird, { maxKeys: 2 }), weird, async (overrides, nested) => {
        const body = { ...withNested(validBody(path, sessionToken), nested), ...overrides };
        const res = await call(t.app, path, body, admin, { ip: uniqueIp() });
        expect(res.status, JSON.stringify({ body, reply: res.body })).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toMatchObject(errShape);
      }),
      { numRuns: 40 },
    );
  });

  it('publishes an OpenAPI document listing every call', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of Object.keys(calls)) expect(doc.paths[`/api/${path}`], path).toHaveProperty('post');
  });

  it('serves the API docs at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
