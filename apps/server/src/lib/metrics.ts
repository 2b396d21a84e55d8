/*
 * /metrics: what the server spends its time on, in the Prometheus text format (docs/operations.md).
 * Every app has a registry of its own (not prom-client's global one), so the apps of one test process
 * do not count into each other, and closing an app stops its observers.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallPath } from '@floorhand/contract/api';
import type { PoolWatch } from '../db/client.ts';
import { bearerToken } from './auth-context.ts';
import { forbidden } from './errors.ts';

/** What the modules tell the metrics (part of every call's Deps, lib/calls.ts). */
export interface Metrics {
  /** A write answered from its stored idempotency key: a device's outbox or a retry sent it again. */
  replayed(call: CallPath): void;
  /** A statement of stock lookups sent, with how many lookups it answers (more than one when they queued: lib/coalesce.ts). */
  lookupStatement(lookups: number): void;
}

/** What the metrics read at each scrape, from parts lib/ may not import. */
export interface MetricSources {
  /** The METRICS_TOKEN: a bearer token that reads /metrics from anywhere. */
  token?: string;
  /** PostgreSQL's pool (none on PGlite). */
  pool?: PoolWatch;
  socketClients(): number;
  /** Unfinished label jobs by state. */
  labelJobs(): Promise<ReadonlyArray<{ state: string; count: number }>>;
}

// Seconds. Fine steps around the targets (p99 under 20 ms for lookups, 50 ms for pick confirms).
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const POOL_WAIT_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const LOOKUP_BATCH_BUCKETS = [1, 2, 4, 8, 16];
const GC_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** How often the event loop's delay is sampled (ms): perf_hooks' default. */
const EVENT_LOOP_RESOLUTION_MS = 10;
const OPEN_JOB_STATES = ['queued', 'sent', 'held'] as const;

const GC_KINDS = new Map<number, string>([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weakcb'],
]);

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
const LOOPBACK_ADDRESS = /^(?:(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1)$/i;
/** Headers a proxy adds: a request that carries one came through it, whoever the proxy is. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * A request from this host, not through a proxy. The socket's own peer address is read, never req.ip:
 * with TRUST_PROXY, req.ip is what X-Forwarded-For says. A proxy on this host makes every request it
 * passes loopback, so one with a forwarding header is not counted as local (docs/operations.md).
 */
function isLocalRequest(req: FastifyRequest): boolean {
  return LOOPBACK_ADDRESS.test(req.socket.remoteAddress ?? '') && FORWARDING_HEADERS.every((h) => req.headers[h] === undefined);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries `expected` as its bearer token; compared in constant time (digests of equal length). */
function carriesToken(authorization: string | undefined, expected: Buffer | undefined): boolean {
  const given = bearerToken(authorization);
  return expected !== undefined && given !== undefined && timingSafeEqual(digest(given), expected);
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** The request duration histogram per call: the route's pattern (never the URL: its values are unbounded), method, status class. */
function timeRequests(app: FastifyInstance, registry: Registry): void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request reaching the router to the last byte of the answer, per route pattern',
    labelNames: ['route', 'method', 'status_class'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  // Fastify times every request itself (reply.elapsedTime, from routing to the answer's 'finish'),
  // so counting one costs no clock reading of ours: a label lookup and a bucket increment, in a
  // callback hook (an async one would cost a promise per request).
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    duration.observe(
      { route: req.routeOptions.url ?? 'unmatched', method: req.method, status_class: statusClass(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/**
 * The event loop's delay (perf_hooks.monitorEventLoopDelay) since the previous scrape: read and reset
 * together in one collect, so the figures of a scrape come from one window. perf_hooks records each
 * interval between its samples, resolution included: the resolution is taken off, so an idle loop
 * reads 0. After a reset its first interval is not recorded, so a stall starting within one
 * resolution of a scrape is missed; a second scraper of the same node shortens the other's windows.
 * Answers the function that stops sampling.
 */
function watchEventLoop(registry: Registry): () => void {
  const delay = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  delay.enable();
  const beyondResolution = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e9 - EVENT_LOOP_RESOLUTION_MS / 1000) : 0);
  new Gauge({
    name: 'nodejs_eventloop_delay_seconds',
    help: `Event-loop delay since the previous scrape (sampled every ${EVENT_LOOP_RESOLUTION_MS} ms): p50, p90, p99, max, mean`,
    labelNames: ['stat'],
    registers: [registry],
    collect() {
      const stats =
        delay.count === 0 ? [0, 0, 0, 0, 0] : [delay.percentile(50), delay.percentile(90), delay.percentile(99), delay.max, delay.mean];
      const names = ['p50', 'p90', 'p99', 'max', 'mean'];
      stats.forEach((ns, i) => this.set({ stat: names[i]! }, beyondResolution(ns)));
      delay.reset();
    },
  });
  return () => delay.disable();
}

/** Garbage collection pauses by kind, as the VM reports them. Answers the function that stops observing. */
function watchGc(registry: Registry): () => void {
  const pauses = new Histogram({
    name: 'nodejs_gc_duration_seconds',
    help: 'Garbage collection pauses by kind (minor, major, incremental, weakcb)',
    labelNames: ['kind'],
    buckets: GC_BUCKETS,
    registers: [registry],
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.observe({ kind: gcKindOf(entry) }, entry.duration / 1000);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/** The kind of a 'gc' entry: Node puts it in `detail` (the typings do not declare it). */
function gcKindOf(entry: PerformanceEntry): string {
  const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
  return (kind !== undefined && GC_KINDS.get(kind)) || 'other';
}

/** Requests waiting for a PostgreSQL connection, and how long each waited. Answers the function that stops listening. */
function watchPoolQueue(registry: Registry, pool: PoolWatch): () => void {
  new Gauge({
    name: 'floorhand_db_pool_waiting_requests',
    help: 'Queries and transactions waiting for a connection of the PostgreSQL pool',
    registers: [registry],
    collect() {
      this.set(pool.counts().waiting);
    },
  });
  new Gauge({
    name: 'floorhand_db_pool_size',
    help: 'The most connections the PostgreSQL pool opens (DATABASE_POOL_SIZE)',
    registers: [registry],
    collect() {
      this.set(pool.size);
    },
  });
  new Gauge({
    name: 'floorhand_db_pool_connections',
    help: 'Connections of the PostgreSQL pool, idle or in use',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { total, idle } = pool.counts();
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'busy' }, total - idle);
    },
  });
  const wait = new Histogram({
    name: 'floorhand_db_pool_wait_seconds',
    help: 'Time a query or transaction waited for a connection of the PostgreSQL pool',
    buckets: POOL_WAIT_BUCKETS,
    registers: [registry],
  });
  return pool.onWait((seconds) => wait.observe(seconds));
}

/** Socket clients of this node and unfinished label jobs (read from the database at each scrape). */
function watchWork(registry: Registry, sources: MetricSources, log: FastifyInstance['log']): void {
  new Gauge({
    name: 'floorhand_socket_clients',
    help: 'Socket.IO connections open on this node',
    registers: [registry],
    collect() {
      this.set(sources.socketClients());
    },
  });
  new Gauge({
    name: 'floorhand_label_jobs',
    help: 'Label print jobs of every organisation not finished yet, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      try {
        const counts = new Map((await sources.labelJobs()).map((c) => [c.state, c.count]));
        for (const state of OPEN_JOB_STATES) this.set({ state }, counts.get(state) ?? 0);
      } catch (e) {
        // A database that cannot answer must not take the other metrics with it: these go missing.
        log.warn(e, 'label job counts not read for /metrics');
        this.reset();
      }
    },
  });
}

/**
 * Counts every request, watches the event loop, GC, the pool, sockets and label jobs, and serves
 * them at GET /metrics to this host or to the METRICS_TOKEN's bearer (403 otherwise).
 */
export function useMetrics(app: FastifyInstance, sources: MetricSources): Metrics {
  const registry = new Registry();
  timeRequests(app, registry);
  const stops = [watchEventLoop(registry), watchGc(registry), ...(sources.pool ? [watchPoolQueue(registry, sources.pool)] : [])];
  watchWork(registry, sources, app.log);
  const replays = new Counter({
    name: 'floorhand_idempotent_replays_total',
    help: 'Writes answered from their stored idempotency key (sent again: a device outbox replay or a retry), per call',
    labelNames: ['call'],
    registers: [registry],
  });
  const lookupsPerStatement = new Histogram({
    name: 'floorhand_stock_lookups_per_statement',
    help: 'Stock lookups answered by each lookup statement: 1 unless lookups queued and ran together',
    buckets: LOOKUP_BATCH_BUCKETS,
    registers: [registry],
  });
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
    registry.clear();
  });

  const token = sources.token === undefined ? undefined : digest(sources.token);
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!isLocalRequest(req) && !carriesToken(req.headers.authorization, token))
      throw forbidden('Metrics are served to this host, or with the metrics token (METRICS_TOKEN)');
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
  return { replayed: (call) => replays.inc({ call }), lookupStatement: (lookups) => lookupsPerStatement.observe(lookups) };
}
