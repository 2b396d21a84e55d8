// Starts the built server (apps/server/dist/server.js) on a free port for a benchmark and waits for
// its health check; shared by every bench.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net, { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer().once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

/**
 * `env` is added to this process's environment; PORT and HOST are chosen here (BENCH_PORT picks the
 * port, a free one otherwise). BENCH_SERVER_NODE_ARGS passes Node options to the server, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
 */
export async function startBuiltServer(env) {
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode})`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, pid: child.pid, cpuMs: () => cpuMs(child.pid), stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('the server did not answer /api/health within 60 s');
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; NaN elsewhere). Unlike
 * requests/s it hardly depends on what else the machine runs: the figure to compare between runs on
 * a shared machine, as CPU ms per request.
 */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The PostgreSQL database of the large data set, from DATABASE_URL; exits with a hint without one. */
export function benchDatabaseUrl() {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) {
    console.error('Set DATABASE_URL to the PostgreSQL database seeded by `npm run seed:large`.');
    process.exit(2);
  }
  return url;
}

/** Builds the server (a stale bundle would measure old code) and starts it in production mode on `databaseUrl`. */
export function buildAndStartServer(databaseUrl) {
  // BENCH_BUILD=0 runs apps/server/dist as it is: two builds compared by copying each in turn.
  if (process.env.BENCH_BUILD !== '0') {
    const built = spawnSync(process.execPath, ['build.mjs'], { cwd: join(root, 'apps/server'), stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the server build failed');
  }
  // BENCH_POOL_SIZE sets the server's PostgreSQL pool (DATABASE_POOL_SIZE); its own default otherwise.
  const pool = process.env.BENCH_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE } : {};
  return startBuiltServer({ DATABASE_URL: databaseUrl, ...pool, DEMO_SEED: 'off', LOG_LEVEL: 'warn', NODE_ENV: 'production' });
}

/**
 * The size of the running server's PostgreSQL pool, from its /metrics: what a bench gives the plain
 * `pg` client it compares the server with, so both get the same whatever set it. Stops the server
 * when it cannot be read.
 */
export async function serverPoolSize(server) {
  const size = await fetch(`${server.base}/metrics`)
    .then(async (res) => parseMetrics(await res.text()).get('floorhand_db_pool_size'))
    .catch(() => undefined);
  if (size) return size;
  server.stop();
  throw new Error('the server gave no floorhand_db_pool_size (is it on PostgreSQL?)');
}

/** What every call's body carries, for the demo organisation's main site. */
export const BASE_BODY = { locId: 'bench', siteId: 'demo-main', appId: 'floorhand', orgId: 'demo' };

/** The demo admin's auth token. */
export async function login(base) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...BASE_BODY, userName: 'admin', password: 'demo1234', workstationId: 'WS0001', lifetimeSecs: 3600 }),
  });
  const body = await res.json();
  if (!body.authToken) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.authToken;
}

/** The 1, 5 and 15 minute load averages (Linux), printed with every round. */
export const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
};

/**
 * A JSON POST to the API over at most `sockets` kept-alive connections per server, resolved when the
 * whole answer has arrived (a 200) and rejected with the status and the start of the body otherwise.
 * The benches' paced runs use it: autocannon's `overallRate` is a per-second budget that each
 * connection spends flat out at the start of every second, which measures bursts, not a fixed rate.
 *
 * It speaks HTTP/1.1 on plain sockets (rawHttpPost), not through node:http: the load generator runs on
 * the same two cores as the server and PostgreSQL, and node:http's client cost 0.22 to 0.30 ms of CPU
 * per lookup at 1,000/s (a quarter of a core, taken from the server it measures); this one about a
 * quarter of that (docs/performance.md). Each answer is still read to its last byte.
 */
export function jsonPoster(sockets) {
  const pools = new Map();
  const post = async (base, token, path, body) => {
    let pool = pools.get(base);
    if (!pool) pools.set(base, (pool = socketPool(new URL(base), sockets)));
    const res = await rawHttpPost(pool, `/api/${path}`, token, JSON.stringify({ ...BASE_BODY, ...body }));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text().slice(0, 300)}`);
  };
  /** Closes the kept-alive connections. */
  post.close = () => {
    for (const pool of pools.values()) pool.close();
  };
  return post;
}

/** Up to `max` kept-alive sockets to one server: `take()` answers an idle one (or a new one), `give(s)` returns it. */
function socketPool(url, max) {
  const idle = [];
  const waiting = [];
  const all = new Set();
  return {
    take() {
      // A socket the server closed while it was idle is left behind.
      for (let s = idle.pop(); s; s = idle.pop()) if (!s.destroyed) return Promise.resolve(s);
      if (all.size < max) {
        const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
        all.add(socket);
        socket.on('close', () => all.delete(socket));
        // Errors of an idle socket (the server closing it) surface on its next use, not as a crash.
        socket.on('error', () => {});
        return Promise.resolve(socket);
      }
      return new Promise((ok) => waiting.push(ok));
    },
    give(socket) {
      const next = waiting.shift();
      if (next) next(socket);
      else idle.push(socket);
    },
    drop(socket) {
      all.delete(socket);
      socket.destroy();
    },
    close() {
      for (const s of all) s.destroy();
    },
  };
}

/**
 * One POST on a socket of `pool`, answered as { status, text() } once the whole body (its
 * Content-Length) is in. The server answers every call with a Content-Length; anything else (a
 * chunked answer, a closed socket) rejects. A kept-alive socket the server closed for idleness just
 * as it was reused is retried once on a new one, as httpPost does.
 */
async function rawHttpPost(pool, path, token, payload) {
  const head = `POST ${path} HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\nauthorization: Bearer ${token}\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n`;
  const request = Buffer.from(head + payload);
  for (let attempt = 0; ; attempt++) {
    const socket = await pool.take();
    try {
      const res = await exchange(socket, request);
      pool.give(socket);
      return res;
    } catch (err) {
      pool.drop(socket);
      if (attempt > 0 || !err.beforeAnswer) throw err;
      httpPost.resent++;
    }
  }
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Writes `request` and reads one answer: its status line, headers, and Content-Length bytes of body. */
function exchange(socket, request) {
  return new Promise((ok, fail) => {
    let chunks = [];
    let got = 0;
    let status = 0;
    let bodyStart = -1;
    let length = -1;
    const done = (err, value) => {
      socket.off('data', onData);
      socket.off('error', onEnd);
      socket.off('close', onEnd);
      if (err) fail(err);
      else ok(value);
    };
    const onEnd = (e) => {
      const err = new Error(`the connection ended before the answer did${e instanceof Error ? `: ${e.message}` : ''}`);
      err.beforeAnswer = got === 0;
      done(err);
    };
    const onData = (chunk) => {
      chunks.push(chunk);
      got += chunk.length;
      if (bodyStart < 0) {
        const all = chunks.length === 1 ? chunk : Buffer.concat(chunks);
        const end = all.indexOf(HEAD_END);
        if (end < 0) return;
        const headers = all.toString('latin1', 0, end);
        status = Number(headers.slice(9, 12));
        const m = /\r\ncontent-length: *(\d+)/i.exec(headers);
        if (!m) return done(new Error(`an answer without a content-length: ${headers.slice(0, 200)}`));
        length = Number(m[1]);
        bodyStart = end + HEAD_END.length;
        chunks = [all];
      }
      if (got < bodyStart + length) return;
      const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      done(null, { status, text: () => all.toString('utf8', bodyStart, bodyStart + length) });
    };
    socket.on('data', onData);
    socket.once('error', onEnd);
    socket.once('close', onEnd);
    socket.write(request);
  });
}

/**
 * A POST of a JSON `payload` over `agent`, resolved with the status and a `text()` of the whole
 * answer (made only when asked: a load generator that makes a 38 kB string per answer collects its
 * own garbage in the middle of the latencies it measures).
 * A kept-alive socket that the server closes for idleness (Fastify: after 72 s) just as it is
 * reused fails with ECONNRESET before the request was read; that request is sent once more on a
 * new socket, as Node's documentation advises (every call the benches repeat carries its own
 * idempotency key or changes nothing). Any other error rejects.
 */
export function httpPost(agent, url, token, payload) {
  const attempt = (retry) =>
    new Promise((ok, fail) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${token}` },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => ok({ status: res.statusCode ?? 0, text: () => Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', (err) => {
        if (!retry || !req.reusedSocket || err.code !== 'ECONNRESET') return fail(err);
        httpPost.resent++;
        attempt(false).then(ok, fail);
      });
      req.end(payload);
    });
  return attempt(true);
}
/** How many requests httpPost sent again (printed by the benches: each is a closed idle socket, not an error). */
httpPost.resent = 0;

/**
 * A fixed CPU load: `cores` (BENCH_BUSY_CORES, 1) child processes that each spin a core flat out
 * until stopped, at the server's own priority: "one core busy" on the 2-core machines, like a
 * browser test or a build beside the server. The benches start it around a round and stop it after,
 * so the figure under load is reproducible. Answers `stop()` (waits for the children to exit).
 */
export async function busyCores(cores = Number(process.env.BENCH_BUSY_CORES ?? 1)) {
  const children = Array.from({ length: cores }, () =>
    spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => process.exit(0)); for (;;) {}'], { stdio: 'ignore' }),
  );
  // Let them start spinning before the round does.
  await new Promise((r) => setTimeout(r, 300));
  return {
    cores,
    stop: () =>
      Promise.all(
        children.map(
          (child) =>
            new Promise((ok) => {
              if (child.exitCode !== null || child.signalCode !== null) return ok();
              child.once('exit', ok);
              child.kill('SIGKILL');
            }),
        ),
      ),
  };
}

/** `fn()` with `cores` busy-looping processes beside it (busyCores), stopped whatever happens. */
export async function withBusyCores(fn, cores) {
  const load = await busyCores(cores);
  try {
    return await fn();
  } finally {
    await load.stop();
  }
}

/**
 * The server's own view of a run, from its /metrics (served to loopback): call `serverMetrics(base)`
 * before a run and the answer's `since()` after it. Reads the event loop's delay over the window
 * (one scrape resets it), the GC pauses (count, total, longest bucket) and the pool's waits for a
 * connection (count over 1 ms, over 10 ms), and the lookup statements (how many lookups each answered,
 * lookups that queued going together). Prints nothing; `describe()` gives one line.
 */
export async function serverMetrics(base) {
  const read = async () => parseMetrics(await (await fetch(`${base}/metrics`)).text());
  const before = await read();
  return {
    async since() {
      const after = await read();
      const delta = (name) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
      const gcCount = sumBy(after, 'nodejs_gc_duration_seconds_count') - sumBy(before, 'nodejs_gc_duration_seconds_count');
      const gcSum = sumBy(after, 'nodejs_gc_duration_seconds_sum') - sumBy(before, 'nodejs_gc_duration_seconds_sum');
      const gcOver = (le) =>
        sumBy(after, 'nodejs_gc_duration_seconds_count') -
        sumBy(after, `nodejs_gc_duration_seconds_bucket`, `le="${le}"`) -
        (sumBy(before, 'nodejs_gc_duration_seconds_count') - sumBy(before, `nodejs_gc_duration_seconds_bucket`, `le="${le}"`));
      const waits = delta('floorhand_db_pool_wait_seconds_count');
      const waitOver = (le) => waits - delta(`floorhand_db_pool_wait_seconds_bucket{le="${le}"}`);
      const r = {
        loopP99Ms: 1000 * (after.get('nodejs_eventloop_delay_seconds{stat="p99"}') ?? 0),
        loopMaxMs: 1000 * (after.get('nodejs_eventloop_delay_seconds{stat="max"}') ?? 0),
        gcCount,
        gcMs: 1000 * gcSum,
        gcOver5ms: gcOver('0.005'),
        poolWaits: waits,
        poolWaitsOver1ms: waitOver('0.001'),
        poolWaitsOver10ms: waitOver('0.01'),
        lookupStatements: delta('floorhand_stock_lookups_per_statement_count'),
        lookupsInStatements: delta('floorhand_stock_lookups_per_statement_sum'),
      };
      return {
        ...r,
        describe: () =>
          `server: event-loop delay p99 ${r.loopP99Ms.toFixed(1)} ms, max ${r.loopMaxMs.toFixed(1)} ms; GC ${r.gcCount} pauses, ${r.gcMs.toFixed(0)} ms in all, ${r.gcOver5ms} over 5 ms; pool waits over 1 ms ${r.poolWaitsOver1ms} of ${r.poolWaits}, over 10 ms ${r.poolWaitsOver10ms}` +
          (r.lookupStatements > 0
            ? `; ${r.lookupStatements} lookup statements, ${(r.lookupsInStatements / r.lookupStatements).toFixed(2)} lookups each`
            : ''),
      };
    },
  };
}

/** Prometheus text → Map of `name{labels}` → value. */
function parseMetrics(text) {
  const values = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

/** The sum of every series of `name` (whatever its labels), or of those whose labels contain `having`. */
function sumBy(values, name, having = '') {
  let sum = 0;
  for (const [key, value] of values) if ((key === name || key.startsWith(`${name}{`)) && key.includes(having)) sum += value;
  return sum;
}

/** The marker of the line that carries a bench's headline figures as JSON, read by bench/run-all.mjs. */
export const FIGURES_MARK = '@figures ';

/** Prints a bench's headline figures for `npm run bench` (bench/run-all.mjs), as the last line of its output. */
export function printFigures(bench, figures) {
  console.log(`${FIGURES_MARK}${JSON.stringify({ bench, loadAverage: loadAverage(), ...figures })}`);
}
