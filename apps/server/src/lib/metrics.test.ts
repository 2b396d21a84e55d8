import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERR } from '@floorhand/contract/errors';
import { call, createTestApp, DEMO_BASE, plainParts, type TestApp } from '../test/harness.ts';
import { tokenFor } from '../test/logins.ts';
import { query } from '../db/sql.ts';
import { defaultPoolSize } from '../config.ts';

// GET /metrics (issue 30 item 1): the Prometheus text format, and who may read it.

const TOKEN = 'metrics-token-0123456789abcdef';
const STRANGER = '10.20.30.40';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t?.close());

const scrape = (opts: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'GET', url: '/metrics', ...opts });

/** The metrics text read from this host. */
async function metricsText(): Promise<string> {
  const res = await scrape();
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

/** The value of one sample line (`name{labels} value`), or undefined when the text has none. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the format', () => {
  it('is the Prometheus text format, every metric with its HELP and TYPE', async () => {
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const metrics: Array<[string, string]> = [
      ['http_request_duration_seconds', 'histogram'],
      ['nodejs_eventloop_delay_seconds', 'gauge'],
      ['nodejs_gc_duration_seconds', 'histogram'],
      ['floorhand_socket_clients', 'gauge'],
      ['floorhand_label_jobs', 'gauge'],
      ['floorhand_idempotent_replays_total', 'counter'],
    ];
    const pool: Array<[string, string]> = [
      ['floorhand_db_pool_waiting_requests', 'gauge'],
      ['floorhand_db_pool_size', 'gauge'],
      ['floorhand_db_pool_connections', 'gauge'],
      ['floorhand_db_pool_wait_seconds', 'histogram'],
    ];
    for (const [name, type] of metrics) {
      expect(res.body).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
      expect(res.body).toContain(`\n# TYPE ${name} ${type}\n`);
    }
    // The pool is PostgreSQL's: PGlite has none.
    for (const [name, type] of pool) expect(res.body.includes(`# TYPE ${name} ${type}`)).toBe(t.database.kind === 'postgres');
    expect(sample(res.body, 'floorhand_socket_clients')).toBe(0);
    // The pool's size by default: twice the cores (config.ts), not a fixed number of connections.
    if (t.database.kind === 'postgres') expect(sample(res.body, 'floorhand_db_pool_size')).toBe(defaultPoolSize());
  });

  it('counts a call in the histogram of its route pattern, method and status class', async () => {
    const labels = 'route="/api/health",method="GET",status_class="2xx"';
    const series = (s: string) => `http_request_duration_seconds_${s}{${labels}}`;
    const before = sample(await metricsText(), series('count')) ?? 0;
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const text = await metricsText();
    expect(sample(text, series('count'))).toBe(before + 1);
    expect(sample(text, series('sum'))).toBeGreaterThan(0);
    expect(sample(text, `http_request_duration_seconds_bucket{le="+Inf",${labels}}`)).toBe(before + 1);
  });

  it('labels a request no route matched "unmatched", never with its URL', async () => {
    const url = `/api/no-such-call/${randomUUID()}`;
    expect((await t.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(404);
    const text = await metricsText();
    expect(text).not.toContain(url);
    expect(sample(text, 'http_request_duration_seconds_count{route="unmatched",method="POST",status_class="4xx"}')).toBeGreaterThan(0);
  });

  it('counts a write answered from its stored idempotency key (an outbox replay)', async () => {
    const clerk = await tokenFor(t.app, 'clerk');
    const [part] = await plainParts(t.db, 1);
    const body = { idempotencyKey: randomUUID(), record: { partNumber: part, warehouse: 'MAIN', location: 'A-02-1', quantity: 1 } };
    const series = 'floorhand_idempotent_replays_total{call="stock/receive"}';
    const before = sample(await metricsText(), series) ?? 0;
    expect((await call(t.app, 'stock/receive', body, clerk)).status).toBe(200);
    expect(sample(await metricsText(), series) ?? 0).toBe(before);
    expect((await call(t.app, 'stock/receive', body, clerk)).status).toBe(200);
    expect(sample(await metricsText(), series)).toBe(before + 1);
  });

  it('counts unfinished label jobs by state as the database holds them, finished ones not', async () => {
    for (const state of ['queued', 'queued', 'held', 'printed']) {
      await query(
        t.db,
        sql`INSERT INTO label_jobs (org_id, id, site_id, kind, template_id, template_version, printer_id, agent_id, copies, labels, zpl, state, request_hash, requested_by, requested_by_name, expires_at)
          VALUES ('demo', ${randomUUID()}, ${DEMO_BASE.siteId}, 'stock', 't', 1, 'p', 'a', 1, 1, '^XA^XZ', ${state}, 'h', 'x', 'X', now() + interval '1 hour')`,
      );
    }
    const rows = await query<{ state: string; n: number }>(t.db, sql`SELECT state, count(*)::integer AS n FROM label_jobs GROUP BY state`);
    const inDb = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    const text = await metricsText();
    for (const state of ['queued', 'sent', 'held']) expect(sample(text, `floorhand_label_jobs{state="${state}"}`)).toBe(inDb(state));
    expect(inDb('queued')).toBeGreaterThanOrEqual(2);
    expect(text).not.toContain('floorhand_label_jobs{state="printed"}');
  });

  it("reports the event loop's delay since the previous scrape", async () => {
    await metricsText();
    // perf_hooks records nothing in the first interval after the scrape's reset: start after it.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const until = performance.now() + 60;
    while (performance.now() < until); // the loop held for 60 ms
    await new Promise((resolve) => setTimeout(resolve, 30)); // a sample taken after it
    expect(sample(await metricsText(), 'nodejs_eventloop_delay_seconds{stat="max"}')).toBeGreaterThanOrEqual(0.045);
  });

  it('reports garbage collection pauses', async () => {
    const series = 'nodejs_gc_duration_seconds_count{kind="minor"}';
    let allocated = 0;
    for (let i = 0; i < 50 && !sample(await metricsText(), series); i++) {
      allocated += Array.from({ length: 200_000 }, (_, n) => ({ n })).length; // young garbage: minor collections
      await new Promise((resolve) => setTimeout(resolve, 10)); // the observer is told asynchronously
    }
    expect(sample(await metricsText(), series), `after ${allocated} objects`).toBeGreaterThan(0);
  });
});

describe('who may read it', () => {
  const refused = async (opts: Parameters<typeof scrape>[0]) => {
    const res = await scrape(opts);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().err.code).toBe(ERR.forbidden);
    expect(res.body).not.toContain('http_request_duration_seconds');
  };

  it.each(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])('answers the loopback (%s) without a token', async (remoteAddress) => {
    expect((await scrape({ remoteAddress })).statusCode).toBe(200);
  });

  it.each([STRANGER, '::ffff:10.0.0.1', '2001:db8::1', '128.0.0.1'])('refuses %s without a token', async (remoteAddress) => {
    await refused({ remoteAddress });
  });

  it('answers the right token from anywhere (any case of the scheme)', async () => {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`])
      expect((await scrape({ remoteAddress: STRANGER, headers: { authorization } })).statusCode).toBe(200);
  });

  it.each([
    ['a wrong token', 'Bearer metrics-token-0123456789abcdeX'],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token and more', `Bearer ${TOKEN}x`],
    ['another scheme', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`],
    ['the token without a scheme', TOKEN],
  ])('refuses %s', async (_what, authorization) => {
    await refused({ remoteAddress: STRANGER, headers: { authorization } });
  });

  it.each([
    ['X-Forwarded-For', { 'x-forwarded-for': '127.0.0.1' }],
    ['Forwarded', { forwarded: 'for=127.0.0.1' }],
    ['X-Real-IP', { 'x-real-ip': '127.0.0.1' }],
  ])('does not count a request through a proxy on this host (%s) as local', async (_what, headers) => {
    await refused({ remoteAddress: '127.0.0.1', headers });
    expect((await scrape({ remoteAddress: '127.0.0.1', headers: { ...headers, authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
  });

  it('answers odd Authorization headers with 403, never a fault', async () => {
    const odd = [
      '',
      ' ',
      'Bearer',
      'Bearer ',
      'Bearer  ',
      `Bearer ${TOKEN} ${TOKEN}`,
      `Bearer\t${TOKEN}x`,
      `Bearer ${'x'.repeat(8000)}`,
      'Bearer é€😀',
      'Bearer %00',
      `${TOKEN} Bearer`,
      'Negotiate =',
    ];
    // And printable noise, the same every run.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 40; i++)
      odd.push(Array.from({ length: 1 + (next() % 60) }, () => String.fromCharCode(32 + (next() % 95))).join(''));
    for (const authorization of odd) {
      const res = await scrape({ remoteAddress: STRANGER, headers: { authorization } });
      expect(res.statusCode, JSON.stringify(authorization)).toBe(403);
    }
  });
});

describe('without METRICS_TOKEN', () => {
  it('answers this host only: no bearer token opens it', async () => {
    const bare = await createTestApp();
    try {
      const scrapeBare = (remoteAddress: string, authorization?: string) =>
        bare.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: authorization ? { authorization } : {} });
      expect((await scrapeBare('127.0.0.1')).statusCode).toBe(200);
      for (const authorization of [undefined, `Bearer ${TOKEN}`, 'Bearer undefined', 'Bearer '])
        expect((await scrapeBare(STRANGER, authorization)).statusCode, authorization).toBe(403);
    } finally {
      await bare.close();
    }
  });
});
