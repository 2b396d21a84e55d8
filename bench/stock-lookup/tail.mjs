#!/usr/bin/env node
// Where the stock lookup's tail sits in time (docs/performance.md): stock/lookup paced at BENCH_RATE
// (1,000/s) over BENCH_CONNECTIONS (20) for BENCH_SECONDS (10), each request's send time and latency
// kept; prints the p50/p99, the slow requests (over BENCH_SLOW_MS, 10) grouped into bursts with their
// time since the run's start, and what the server's /metrics saw. BENCH_BUSY_CORES=1 runs it beside
// a busy core. A tail that comes in bursts at a fixed period is a timer or a cache expiry, not load.
//   DATABASE_URL=postgres://…/fh_perf_bench node bench/stock-lookup/tail.mjs
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { benchDatabaseUrl, buildAndStartServer, busyCores, cpuMs, jsonPoster, login, serverMetrics, serverPoolSize } from '../server.mjs';
import { execFileSync } from 'node:child_process';
import { LOOKUP, sampleValues } from './workload.mjs';
import { burstsOf } from '../tail.mjs';

const DATABASE_URL = benchDatabaseUrl();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 10);
const BUSY = Number(process.env.BENCH_BUSY_CORES ?? 0);
const BENCH_PLAIN = process.env.BENCH_PLAIN !== '0';

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const values = await sampleValues(pool);
const server = await buildAndStartServer(DATABASE_URL);
const plain = new pg.Pool({ connectionString: DATABASE_URL, max: await serverPoolSize(server) });
const post = jsonPoster(CONNECTIONS);
try {
  const token = await login(server.base);
  const viaApi = (value) => post(server.base, token, 'stock/lookup', { value });
  const viaPlain = (value) => plain.query({ name: 'tail_lookup', text: LOOKUP, values: ['demo', value] });
  const run = async (seconds, send = viaApi) => {
    const samples = [];
    let i = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    const worker = async () => {
      while (performance.now() < until) {
        const k = i++;
        const wait = started + (1000 * k) / RATE - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const sent = performance.now();
        await send(values[k % values.length]);
        samples.push({ at: sent - started, ms: performance.now() - sent });
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    return samples;
  };
  await run(3); // warm-up
  const withLoad = async (fn) => {
    const load = BUSY ? await busyCores(BUSY) : undefined;
    return fn().finally(() => load?.stop());
  };
  const seen = await serverMetrics(server.base);
  // The load generator's own stalls count into every latency it measures: watched too.
  const own = monitorEventLoopDelay({ resolution: 10 });
  own.enable();
  // Per process: one that ends during the run (a backend of another client) takes its CPU with it, and must not count against the rest.
  const pgCpu = () =>
    new Map(
      execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((pid) => [pid, cpuMs(Number(pid)) || 0]),
    );
  const pgCpuSince = (start) => [...pgCpu()].reduce((sum, [pid, ms]) => sum + ms - (start.get(pid) ?? 0), 0);
  const before = { server: server.cpuMs(), pg: pgCpu(), own: process.cpuUsage(), at: performance.now() };
  const samples = await withLoad(() => run(SECONDS));
  const wallMs = performance.now() - before.at;
  const ownUsage = process.cpuUsage(before.own);
  const shares = {
    server: (server.cpuMs() - before.server) / wallMs,
    pg: pgCpuSince(before.pg) / wallMs,
    loadGenerator: (ownUsage.user + ownUsage.system) / 1000 / wallMs,
  };
  const metrics = await seen.since();
  // The same rate through a plain pg pool of the server's size, the rows statement prepared: what the machine gives without the server.
  const plainSamples = BENCH_PLAIN ? await withLoad(() => run(SECONDS, viaPlain)) : [];
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  console.log(
    `${samples.length} lookups at ${RATE}/s${BUSY ? `, ${BUSY} core(s) busy` : ''}: p50 ${at(50).toFixed(1)} ms, p99 ${at(99).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`,
  );
  own.disable();
  console.log(`  ${metrics.describe()}`);
  console.log(
    `  cores used: server ${shares.server.toFixed(2)}, PostgreSQL ${shares.pg.toFixed(2)}, load generator ${shares.loadGenerator.toFixed(2)} (of 2)`,
  );
  if (plainSamples.length) {
    const p = plainSamples.map((x) => x.ms).sort((a, b) => a - b);
    const pat = (q) => p[Math.min(p.length - 1, Math.floor((q / 100) * p.length))];
    console.log(
      `  plain pg (prepared rows statement) at ${RATE}/s: p50 ${pat(50).toFixed(1)} ms, p99 ${pat(99).toFixed(1)} ms, max ${p.at(-1).toFixed(1)} ms`,
    );
  }
  console.log(
    `  load generator: event-loop delay p99 ${(own.percentile(99) / 1e6 - 10).toFixed(1)} ms, max ${(own.max / 1e6 - 10).toFixed(1)} ms`,
  );
  console.log(`  ${burstsOf(samples, SLOW_MS).describe()}`);
} finally {
  server.stop();
  post.close();
  await pool.end();
  await plain.end();
}
