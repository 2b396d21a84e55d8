// Where a bench's tail sits: slow requests grouped into bursts in time, and what PostgreSQL's
// backends were doing meanwhile (docs/performance.md, "Pick confirm's bursts").
/**
 * The slow ones of `samples` ({ at: ms since the run's start, ms: latency }) grouped into bursts (a
 * slow request within `gapMs` of the last one joins its burst): a tail that comes in bursts at a fixed
 * period is a timer or a cache expiry, one in a few long bursts a stall, one spread thin the load.
 */
export function burstsOf(samples, slowMs, gapMs = 50) {
  const slow = samples.filter((s) => s.ms > slowMs).sort((a, b) => a.at - b.at);
  const bursts = [];
  for (const s of slow) {
    const last = bursts.at(-1);
    if (last && s.at - last.end < gapMs) {
      last.end = s.at;
      last.n++;
      last.max = Math.max(last.max, s.ms);
    } else bursts.push({ start: s.at, end: s.at, n: 1, max: s.ms });
  }
  return {
    bursts,
    describe: (top = Infinity) =>
      `${slow.length} over ${slowMs} ms, in ${bursts.length} bursts (start s: count, longest ms)${top < bursts.length ? `, the ${top} longest` : ''}:\n  ` +
      [...bursts]
        .sort((a, b) => b.max - a.max)
        .slice(0, top)
        .sort((a, b) => a.start - b.start)
        .map((b) => `${(b.start / 1000).toFixed(2)}: ${b.n}, ${b.max.toFixed(0)}`)
        .join(' | '),
  };
}

/**
 * What the server's PostgreSQL backends are doing, sampled from pg_stat_activity every `everyMs`
 * through `pool` (the bench's own; its own backend left out): `stop()` answers the samples, each
 * { at: ms since the start, states: ['active:IO/WALSync', 'idle in transaction:Client/ClientRead', …] }.
 * A backend `idle in transaction` waits for the server's next statement; `active` with a Lock wait
 * for another transaction; IO/WAL* for the disk.
 */
export function watchBackends(pool, everyMs = 100) {
  const samples = [];
  const started = performance.now();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const at = performance.now() - started;
      const { rows } = await pool.query(
        `SELECT state, wait_event_type, wait_event FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'`,
      );
      samples.push({ at, states: rows.map((r) => `${r.state}:${r.wait_event_type ?? '-'}/${r.wait_event ?? '-'}`) });
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return samples;
    },
  };
}

/** Counts of the backends' states in `samples` (watchBackends), the most frequent first, as text. */
function describeBackends(samples) {
  const counts = new Map();
  for (const s of samples) for (const state of s.states) counts.set(state, (counts.get(state) ?? 0) + 1);
  const n = samples.length || 1;
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([state, c]) => `${state} ${(c / n).toFixed(2)}`)
    .join(', ');
}

/**
 * The slow requests of a run in bursts (burstsOf: over `slowMs`, the 8 longest bursts), and the
 * backends' states (watchBackends) over the run and while the bursts lasted, as indented lines.
 */
export function tailReport(timeline, backendSamples, slowMs) {
  const tail = burstsOf(timeline, slowMs, 200);
  const inBursts = backendSamples.filter((b) => tail.bursts.some((x) => b.at >= x.start - 100 && b.at <= x.end + 100));
  return (
    `${tail.describe(8).replace('\n  ', '\n      ')}\n    backends (mean count per sample of ${backendSamples.length}): ` +
    `${describeBackends(backendSamples)}; in the bursts (${inBursts.length} samples): ${describeBackends(inBursts) || 'none'}`
  );
}
