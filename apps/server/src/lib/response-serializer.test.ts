import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { calls, type CallResponse } from '@floorhand/contract/api';
import { call, createTestApp, type TestApp } from '../test/harness.ts';
import { tokenFor } from '../test/logins.ts';
import { FAST_RESPONSES, FastSerializerMismatch, fastSerializer, JsonAnswer, responseSerializerCompiler } from './response-serializer.ts';

type Lookup = CallResponse<'stock/lookup'>;
const schema = calls['stock/lookup'].response;
const route = (url: string, responseSchema: unknown = schema) =>
  ({ schema: responseSchema, method: 'POST', url, httpStatus: '200' }) as unknown as Parameters<
    ReturnType<typeof responseSerializerCompiler>
  >[0];
const checked = serializerCompiler(route('/api/stock/lookup') as Parameters<typeof serializerCompiler>[0]);

const record = (n: number) => ({
  _id: `id-${n}`,
  _rev: n,
  stockId: `S${String(n).padStart(9, '0')}`,
  quantity: n / 8,
  conditionCode: n % 2 ? 'NE' : null,
  lot: n % 3 ? null : `L-${n}`,
  serial: null,
  certSource: n % 5 ? null : 'FAA 8130-3 "quoted" \\ back\nslash \u2028 ünïcode 😀',
  receivedDate: '2025-04-13',
  changedAt: '2026-11-23T20:53:05.477Z',
});
const answer: Lookup = {
  matchedAs: ['location', 'partNumber'],
  groups: [1, 2].map((g) => ({
    itemId: `item-${g}`,
    partNumber: `FH-1000${g}`,
    description: `Washer 50 mm <b>&amp;</b> ${g}`,
    uom: 'EA',
    tracking: 'none',
    department: g === 1 ? null : 'ELEC',
    warehouseId: 'w1',
    warehouse: 'MAIN',
    locationId: `l-${g}`,
    location: 'A-01-1',
    quantity: 1234567.8901,
    records: Array.from({ length: 5 }, (_, i) => record(g * 10 + i)),
  })),
  rowCount: 10,
  more: false,
};

describe('the fast serializer of hot calls', () => {
  it('is declared for stock/lookup only', () => {
    expect([...FAST_RESPONSES]).toEqual(['stock/lookup']);
  });

  it('writes byte for byte what the checked serializer writes, escapes included', () => {
    const fast = fastSerializer(schema);
    expect(fast(answer)).toBe(checked(answer));
    expect(JSON.parse(fast(answer))).toEqual(answer);
    const empty: Lookup = { matchedAs: [], groups: [], rowCount: 0, more: false };
    expect(fast(empty)).toBe(checked(empty));
    // The error part of the schema is recursive (causedByErr).
    const withErr = { err: { code: 'ERR', message: 'outer', causedByErr: { code: 'ERR_DB', message: 'inner', detail: 'd' } } };
    expect(fast(withErr)).toBe(checked(withErr));
  });

  it('writes only declared properties, as the checked one does: nothing undeclared leaks out', () => {
    const leaky = {
      ...answer,
      secret: 'x',
      groups: answer.groups!.map((g) => ({ ...g, audit: { user: 'u' }, records: g.records.map((r) => ({ ...r, x$audit: 1 })) })),
    };
    const written = fastSerializer(schema)(leaky);
    expect(written).toBe(checked(leaky));
    expect(written).not.toMatch(/secret|audit/);
  });

  it('sends a JsonAnswer as written; with CHECK_RESPONSES=all it must be the checked serialisation byte for byte', () => {
    const written = checked(answer);
    const all = responseSerializerCompiler('all')(route('/api/stock/lookup'));
    expect(all(new JsonAnswer(written))).toBe(written);
    // The same answer with its properties in another order, spaced, or breaking the schema: refused when checked.
    const reordered = JSON.stringify({ more: false, rowCount: 10, groups: answer.groups, matchedAs: answer.matchedAs });
    expect(() => all(new JsonAnswer(reordered))).toThrow(FastSerializerMismatch);
    expect(() => all(new JsonAnswer(JSON.stringify(answer, null, 1)))).toThrow(FastSerializerMismatch);
    expect(() => all(new JsonAnswer(JSON.stringify({ ...answer, rowCount: 'ten' })))).toThrow();
    // Cold: sent as it is.
    const cold = responseSerializerCompiler('cold')(route('/api/stock/lookup'));
    expect(cold(new JsonAnswer(reordered))).toBe(reordered);
    // Any other call checks it as an ordinary answer, and it is not one.
    const other = responseSerializerCompiler('cold')(route('/api/stock/get', calls['stock/get'].response));
    expect(() => other(new JsonAnswer('{}'))).toThrow();
  });

  it('with CHECK_RESPONSES=all, a hot call whose answer breaks its schema fails as any call does; with cold it is not checked', () => {
    const broken = { ...answer, groups: [{ ...answer.groups![0]!, tracking: 'sometimes' }] };
    const all = responseSerializerCompiler('all')(route('/api/stock/lookup'));
    expect(() => all(broken)).toThrow();
    expect(all(answer)).toBe(checked(answer));
    const cold = responseSerializerCompiler('cold')(route('/api/stock/lookup'));
    expect(cold(answer)).toBe(checked(answer));
    expect(() => cold(broken)).not.toThrow();
    // Every other call and status keeps the checked serializer, also with cold.
    const other = responseSerializerCompiler('cold')(route('/api/stock/get', calls['stock/get'].response));
    expect(() => other({ stock: { nonsense: true } })).toThrow();
  });

  it('reports a fast output that differs from the checked one (CHECK_RESPONSES=all)', () => {
    // A value the fast serializer coerces but the schema refuses would differ; a mismatch is an error, never an answer.
    expect(new FastSerializerMismatch('x')).toBeInstanceOf(Error);
    const all = responseSerializerCompiler('all')(route('/api/stock/lookup'));
    expect(() => all({ ...answer, rowCount: '10' })).toThrow();
  });
});

describe('stock/lookup in production mode (CHECK_RESPONSES=cold)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ CHECK_RESPONSES: 'cold' });
    token = await tokenFor(t.app, 'clerk');
  });
  afterAll(() => t?.close());

  it('answers what the schema allows, and the OpenAPI document still describes the answer', async () => {
    const res = await call(t.app, 'stock/lookup', { value: 'A-01-1' }, token);
    expect(res.status).toBe(200);
    expect(res.body.groups!.length).toBeGreaterThan(0);
    expect(schema.parse(res.body)).toEqual(res.body);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const answerSchema = doc.paths['/api/stock/lookup'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(answerSchema.properties)).toEqual(expect.arrayContaining(['matchedAs', 'groups', 'rowCount', 'more']));
  });
});
