import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { fillLogin, useMachine } from './support.ts';

// The built app calls the server that sent it on any port: on localhost:8001-8999 only the development
// build calls the fixed development server on 8080 (issue 10 item 11). A second server on such a port.

async function freePortIn(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port += 7) {
    const free = await new Promise<boolean>((ok) => {
      const s = createServer().once('error', () => ok(false));
      s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port');
}

let server: ChildProcess | undefined;
let dataDir = '';
let port = 0;

test.beforeAll(async () => {
  port = await freePortIn(8101, 8999);
  dataDir = mkdtempSync(join(tmpdir(), 'floorhand-origin-'));
  server = spawn(process.execPath, [fileURLToPath(new URL('../apps/server/dist/server.js', import.meta.url))], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO_SEED: 'on', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`http://localhost:${port}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the second server did not start');
});
test.afterAll(() => {
  server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the app served on localhost:81xx logs in against its own origin, not 8080', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: `http://localhost:${port}` });
  const page = await context.newPage();
  const hosts = new Set<string>();
  page.on('request', (r) => hosts.add(new URL(r.url()).host));
  await useMachine(page);
  await page.goto('/');
  await fillLogin(page, 'clerk');
  await expect(page).toHaveURL(/\/tasks$/);
  expect([...hosts]).toEqual([`localhost:${port}`]);
  await context.close();
});
