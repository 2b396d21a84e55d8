// Labels benchmark (docs/labels.md, Bench): the app in process (PGlite, or DATABASE_URL's
// PostgreSQL), the real print agent and a loopback ZPL printer that records bytes.
//   npm run bench:labels -w bench
// (1) Click to bytes: BENCH_PRINTS (100) stock labels, one after another, each a label/print over
//     HTTP as the browser sends it; the time from the request to the last byte at the printer.
//     Target p95 < 500 ms.
// (2) 1,000 location labels of one warehouse (a range, one job): from the request to every label at
//     the printer, and to the job reported printed. Target < 30 s.
// (3) The PDF download of 200 location labels (no printer): request to answer.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createTestApp, DEMO_BASE } from '../../apps/server/src/test/harness.ts';
import { agentKeyFor, tokenFor } from '../../apps/server/src/test/logins.ts';
import { createAgent } from '../../apps/print-agent/src/agent.ts';
import { parseConfig } from '../../apps/print-agent/src/config.ts';
import { startTestPrinter } from '../../apps/print-agent/src/test-printer.ts';

const PRINTS = Number(process.env.BENCH_PRINTS ?? 100);
const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 1000);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

const t = await createTestApp({ LOG_LEVEL: 'silent' });
try {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const clerk = await tokenFor(t.app, 'clerk');
  const agentKey = await agentKeyFor(t.app, await tokenFor(t.app, 'admin'), 'bench', 'Bench');
  const printer = await startTestPrinter();
  const agent = createAgent(
    parseConfig({
      server: base,
      siteId: DEMO_BASE.siteId,
      agentKey,
      agentId: 'bench',
      name: 'Bench',
      queueFile: join(mkdtempSync(join(tmpdir(), 'fh-bench-')), 'q.json'),
      retryMs: 200,
      statusIntervalMs: 60_000,
      printers: [{ id: 'zebra', name: 'Zebra', host: '127.0.0.1', port: printer.port }],
    }),
  );
  agent.start();
  while (!agent.connected()) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 500));

  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${clerk}` },
      body: JSON.stringify({ ...DEMO_BASE, ...body }),
    });
    const json = (await res.json()) as { err?: { message: string }; job?: { jobId: string } };
    if (json.err) throw new Error(`${path}: ${json.err.message}`);
    return json;
  };

  // (1) click to bytes
  const times: number[] = [];
  for (let i = 0; i < PRINTS + 5; i++) {
    const before = printer.prints.length;
    const start = performance.now();
    await post('label/print', {
      idempotencyKey: randomUUID(),
      kind: 'stock',
      printerId: 'bench/zebra',
      source: { stockIds: [`S00000000${(i % 9) + 1}`] },
    });
    await printer.waitForPrints(before + 1, 10_000);
    if (i >= 5) times.push(performance.now() - start); // the first few warm up
  }
  console.log(
    `click to bytes, ${PRINTS} stock labels: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (target p95 < 500 ms)`,
  );

  // (2) a warehouse of 1,000 locations, all their labels in one job
  const mainId = (
    (await t.db.execute(sql`SELECT id FROM warehouses WHERE org_id = 'demo' AND code = 'MAIN'`)) as unknown as {
      rows: Array<{ id: string }>;
    }
  ).rows[0]!.id;
  await t.db.execute(sql`INSERT INTO locations (id, org_id, warehouse_id, code, description, type, audit)
    SELECT 'bench-' || g, 'demo', ${mainId}, 'BENCH-' || lpad(g::text, 4, '0'), 'Bench location ' || g, 'bin', '{"create":{"user":"bench","ts":"2026-01-01"},"modify":{"user":"bench","ts":"2026-01-01"}}'::jsonb
    FROM generate_series(1, ${LOCATIONS}) g`);
  const before = printer.prints.length;
  const start = performance.now();
  const res = await post('label/print', {
    idempotencyKey: randomUUID(),
    kind: 'loc',
    printerId: 'bench/zebra',
    source: { locationRange: { warehouse: 'MAIN', from: 'BENCH-0000', to: 'BENCH-9999' } },
  });
  const queued = performance.now() - start;
  const [bytes] = (await printer.waitForPrints(before + 1, 60_000)).slice(before);
  const delivered = performance.now() - start;
  const labels = (bytes!.match(/\^XZ/g) ?? []).length;
  for (;;) {
    const jobs = (await post('label/job/list', { limit: 5 })) as unknown as { jobs: Array<{ jobId: string; state: string }> };
    if (jobs.jobs.find((j) => j.jobId === res.job!.jobId)?.state === 'printed') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const printed = performance.now() - start;
  console.log(
    `${labels} location labels (${(bytes!.length / 1024).toFixed(0)} KiB): queued ${queued.toFixed(0)} ms, delivered ${delivered.toFixed(0)} ms, reported printed ${printed.toFixed(0)} ms (target < 30,000 ms)`,
  );

  // (3) without a printer: the PDF of 200 location labels (the most one PDF holds), rendered on the server.
  const pdfStart = performance.now();
  const pdf = (await post('label/render', {
    kind: 'loc',
    format: 'pdf',
    source: { locationRange: { warehouse: 'MAIN', from: 'BENCH-0001', to: 'BENCH-0200' } },
  })) as unknown as { pdf?: string; labels?: number };
  const pdfMs = performance.now() - pdfStart;
  console.log(`PDF of ${pdf.labels} location labels (${(((pdf.pdf?.length ?? 0) * 0.75) / 1024).toFixed(0)} KiB): ${pdfMs.toFixed(0)} ms`);
  await agent.stop();
  await printer.close();
} finally {
  await t.close();
}
