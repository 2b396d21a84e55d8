// Starts the built server (apps/server/dist/server.js) on a free port for a benchmark and waits for
// its health check; shared by every bench.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
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
 * `env` is added to this process's environment; PORT and HOST are chosen here. BENCH_SERVER_NODE_ARGS
 * passes Node options to the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
 */
export async function startBuiltServer(env) {
  const port = await freePort();
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode})`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) return { base, stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('the server did not answer /api/health within 60 s');
}
