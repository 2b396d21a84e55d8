/*
 * How a call's answer becomes JSON. Every call's 200 answer has a zod schema in the contract; the
 * OpenAPI document and the response types come from it, whatever happens here.
 *
 * - Most calls: checked against that schema while serialised (fastify-type-provider-zod: z.encode,
 *   then JSON.stringify). An answer that breaks its schema is a 500, never a wrong answer.
 * - The hot calls in FAST_RESPONSES: serialised by fast-json-stringify compiled from the JSON schema of
 *   the same zod schema. It writes only the properties the schema declares, in its order (nothing
 *   undeclared can leak out), but it does not check values. Checking a stock lookup's answer (up to
 *   500 records, 38 kB on average in the benchmark, 107 kB at most) cost about 1 ms of the server's one
 *   thread per lookup, three times the serialisation itself (docs/inventory.md, Benchmark).
 *
 * - A call may answer with a `JsonAnswer`: its JSON already written (stock/lookup has PostgreSQL write
 *   each record's and puts the rest together as text; docs/inventory.md, Speed, and
 *   docs/performance.md). Only the calls of FAST_RESPONSES may; it is sent as it is.
 *
 * Their answers are still checked wherever code is tested: with CHECK_RESPONSES=all (the default
 * outside NODE_ENV=production, so in every test, e2e run and `npm run dev:server`) a fast call's answer
 * goes through both serialisers; a schema violation is a 500 as for any call, and the fast output must
 * equal the checked one byte for byte (or it is a 500 too). response-serializer.test.ts proves both.
 */
import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calls, type CallPath } from '@floorhand/contract/api';

/** The calls whose 200 answers are serialised without the zod check (see above). Keep it short. */
export const FAST_RESPONSES: ReadonlySet<CallPath> = new Set<CallPath>(['stock/lookup']);

/**
 * An answer whose JSON is already written, exactly as the fast serializer would write it (the
 * properties the schema declares, in its order, compact). With CHECK_RESPONSES=all it is parsed and
 * checked like any answer, and must equal the checked serialisation byte for byte.
 */
export class JsonAnswer<P extends CallPath> {
  declare readonly call?: P;
  constructor(readonly json: string) {}
}

/** `all`: every answer is checked against its schema; `cold`: all but those of FAST_RESPONSES. */
export type ResponseCheck = 'all' | 'cold';

type Json = unknown;

/**
 * The JSON schema fast-json-stringify reads best: one-element allOf wrappers (zod's way of attaching
 * a $ref) unwrapped, and `anyOf [X, null]` (zod's nullable) as a type list, which it writes without
 * trying each branch.
 */
function simplify(node: Json): Json {
  if (Array.isArray(node)) return node.map(simplify);
  if (typeof node !== 'object' || node === null) return node;
  const o = node as Record<string, Json>;
  if (Array.isArray(o.allOf) && o.allOf.length === 1 && Object.keys(o).length === 1) return simplify(o.allOf[0]);
  if (Array.isArray(o.anyOf) && o.anyOf.length === 2 && Object.keys(o).length === 1) {
    const [a, b] = o.anyOf as Array<Record<string, Json>>;
    const isNull = (s: Record<string, Json> | undefined) => s?.type === 'null' && Object.keys(s).length === 1;
    const other = isNull(b) ? a : isNull(a) ? b : undefined;
    if (other && typeof other.type === 'string' && other.type !== 'object' && other.type !== 'array')
      return { ...(simplify(other) as object), type: [other.type, 'null'] };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, simplify(v)]));
}

/** fast-json-stringify compiled from a zod schema's JSON schema (its output side). */
export function fastSerializer(schema: z.ZodType): (data: unknown) => string {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', reused: 'inline', unrepresentable: 'any' }) as Record<
    string,
    Json
  >;
  delete json.$schema;
  return fastJson(simplify(json) as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
}

export class FastSerializerMismatch extends Error {}

/** The call a route serves (`/api/stock/lookup` → `stock/lookup`), if it is one of the contract's. */
const callOf = (url: string): CallPath | undefined => {
  const path = url.startsWith('/api/') ? url.slice(5) : '';
  return Object.hasOwn(calls, path) ? (path as CallPath) : undefined;
};

/** The serializer compiler of the app (app.setSerializerCompiler). */
export function responseSerializerCompiler(check: ResponseCheck): FastifySerializerCompiler<z.ZodType> {
  return (route) => {
    const checked = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
    const call = route.method === 'POST' ? callOf(route.url) : undefined;
    if (!call || !FAST_RESPONSES.has(call) || String(route.httpStatus) !== '200') {
      return (data) => {
        if (data instanceof JsonAnswer)
          throw new FastSerializerMismatch(`${route.url}: only the calls of FAST_RESPONSES may answer with written JSON`);
        return checked(data);
      };
    }
    const compiled = fastSerializer(calls[call].response as z.ZodType);
    const fast = (data: unknown) => (data instanceof JsonAnswer ? data.json : compiled(data));
    if (check === 'cold') return fast;
    return (data) => {
      const expected = checked(data instanceof JsonAnswer ? JSON.parse(data.json) : data);
      const written = fast(data);
      if (written !== expected)
        throw new FastSerializerMismatch(
          `${call}: the fast serializer wrote ${written.slice(0, 200)}… where the checked one wrote ${expected.slice(0, 200)}…`,
        );
      return written;
    };
  };
}
