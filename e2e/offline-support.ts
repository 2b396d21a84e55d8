import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A server of the spec's own (issue 27: "with the server stopped"), on its own port and its own
 * database with the demo data: the test can stop it (kill -9, as a crash or a pulled cable would) and
 * start it again on the same data without disturbing the server every other spec uses. On the
 * PostgreSQL run it gets a fresh PostgreSQL database, dropped by `dispose`.
 */
export class OwnServer {
  private child: ChildProcess | null = null;
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'floorhand-own-'));
  private dbName: string | null = null;
  private dbUrl: string | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    const admin = process.env.DATABASE_URL;
    if (admin && !this.dbUrl) {
      this.dbName = `fh_e2e_own_${this.port}_${Date.now().toString(36)}`;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`CREATE DATABASE ${this.dbName}`);
      await c.end();
      const u = new URL(admin);
      u.pathname = `/${this.dbName}`;
      this.dbUrl = u.toString();
    }
    this.child = spawn(process.execPath, ['apps/server/dist/server.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(this.port),
        DATA_DIR: this.dataDir,
        DEMO_SEED: 'on',
        LOG_LEVEL: 'warn',
        ...(this.dbUrl ? { DATABASE_URL: this.dbUrl } : { DATABASE_URL: '' }),
      },
    });
    const until = Date.now() + 150_000;
    while (Date.now() < until) {
      if (this.child.exitCode !== null) throw new Error(`the own server stopped with ${this.child.exitCode}`);
      const ok = await fetch(`${this.url}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the own server did not answer in 150 s');
  }

  /** Stops it at once (SIGKILL): whatever it had not answered is lost to the client, as in a crash. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  async dispose(): Promise<void> {
    await this.stop();
    if (this.dbName && process.env.DATABASE_URL) {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`);
      await c.end();
    }
  }
}

/**
 * A port for a spec's own server: the suite's port plus the spec's offset (each spec its own offset,
 * 11 to 49), and 100 more in the mobile project when asked for inside a test or hook (the two projects
 * run a spec at once in two workers, each with its own server).
 */
export function ownPort(offset: number): number {
  let shift = 0;
  try {
    shift = test.info().project.name === 'mobile' ? 100 : 0;
  } catch {
    // Outside a test (a describe's body): the port as given.
  }
  return Number(process.env.E2E_PORT ?? 4180) + offset + shift;
}

/** The header's connection indicator says `state`, with `waiting` actions queued (when given). */
export async function expectConnection(
  page: Page,
  state: 'online' | 'offline' | 'reconnecting' | 'not online',
  waiting?: number,
): Promise<void> {
  const ind = page.getByTestId('connection-indicator');
  // 'not online': offline or reconnecting (a page reloaded offline may not know yet which).
  await expect(ind).toHaveAttribute('data-state', state === 'not online' ? /^(offline|reconnecting)$/ : state, { timeout: 30_000 });
  if (waiting !== undefined) await expect(ind).toHaveAttribute('data-waiting', String(waiting), { timeout: 30_000 });
}

/** Waits until the service worker controls the page (an offline reload then draws the app). */
export async function swReady(page: Page): Promise<void> {
  await page.waitForFunction(
    async () => {
      if (!('serviceWorker' in navigator)) return false;
      await navigator.serviceWorker.ready;
      return !!navigator.serviceWorker.controller;
    },
    undefined,
    { timeout: 30_000 },
  );
}
