import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { CallBody, CallPath, CallResponse } from '@floorhand/contract/api';
import { APP_ID } from '@floorhand/contract/constants';
import type { ServerErr } from '@floorhand/contract/errors';
import { ROLE } from '@floorhand/contract/perms';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import { query } from '../db/sql.ts';
import { sql } from 'drizzle-orm';
import { createAccount, createOrganisation, DEMO } from '../seed/demo.ts';
import { seededPgliteDump, seededTemplate } from './seeded-database.ts';

// Builds the whole app in process on a real database: a fresh PostgreSQL database when DATABASE_URL
// is set, PGlite in memory otherwise. A new database costs seconds, so build one app per test file
// (beforeAll/afterAll) and keep tests independent of each other's data.

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  db: Db;
  config: Config;
  /** Closes the app and the database (and drops the PostgreSQL test database). Always call it. */
  close(): Promise<void>;
}

/** The base fields every body carries, for the demo site. */
export const DEMO_BASE = { locId: 'test', siteId: DEMO.siteId, appId: APP_ID, orgId: DEMO.orgId } as const;

/** The second organisation for cross-organisation tests (see createAcme). */
export const ACME = {
  orgId: 'acme',
  siteId: 'acme-main',
  host: 'acme.localhost',
  adminUserName: 'admin',
  password: DEMO.password,
} as const;
export const ACME_BASE = { locId: 'test', siteId: ACME.siteId, appId: APP_ID, orgId: ACME.orgId } as const;

export const DEMO_WORKSTATION = DEMO.workstations[0];

/**
 * A fresh PostgreSQL database on the server of `url` (a copy of `template` when given); returns its
 * URL and a function dropping it.
 */
async function createPgDatabase(url: string, template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fh_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  return {
    url: testUrl.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The app with the demo data on a database of its own; `overrides` are environment variables. */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const serverUrl = process.env.DATABASE_URL;
  // A copy of the run's seeded database (test/global-setup.ts) where the app would seed the demo data anyway.
  const seeded = (overrides.DEMO_SEED ?? 'on') === 'on';
  const pgDb = serverUrl ? await createPgDatabase(serverUrl, seeded ? seededTemplate() : undefined) : undefined;
  let database: Database | undefined;
  try {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'on',
      TOKEN_LIFETIME_SECS: '3600',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      // With REDIS_URL set (CI's PostgreSQL run), socket.io goes through the Redis adapter as on several nodes;
      // each test app has its own keys there (limiter counts), shared with its second node only.
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `fhtest-${randomBytes(6).toString('hex')}` } : {}),
      // Tests log in as the demo accounts from unique addresses all day; the per-account and
      // per-address limits have their own tests with the defaults (login-limits.test.ts).
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '100000',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
      // Likewise the badge limits of shared devices (fuzzed unknown badges on WS0001); their defaults
      // are tested in modules/timeclock/badge-limits.test.ts.
      BADGE_MAX_UNKNOWN_PER_DEVICE: '100000',
      BADGE_MAX_WRONG_PINS_PER_DEVICE: '100000',
      BADGE_MAX_UNKNOWN_PER_ORG: '1000000',
      ...overrides,
    });
    database = await openDatabase({
      databaseUrl: pgDb?.url,
      poolSize: config.DATABASE_POOL_SIZE,
      loadDataDir: !pgDb && seeded ? seededPgliteDump() : undefined,
    });
    const app = await buildApp({ config, database });
    await app.ready();
    const opened = database;
    return {
      app,
      database: opened,
      db: opened.db,
      config,
      async close() {
        try {
          await app.close();
        } finally {
          await opened.close();
          await pgDb?.drop();
        }
      },
    };
  } catch (e) {
    await database?.close();
    await pgDb?.drop();
    throw e;
  }
}

/**
 * A second server node on the same database (and the same Redis, when REDIS_URL is set), as behind a
 * load balancer. Close it before `t`.
 */
export async function createSecondNode(t: TestApp): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const url = t.config.DATABASE_URL;
  const database = url ? await openDatabase({ databaseUrl: url }) : t.database;
  const app = await buildApp({ config: t.config, database });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      if (database !== t.database) await database.close();
    },
  };
}

/** Organisation 'acme' with site 'acme-main' (host acme.localhost) and an admin; returns the admin's id. */
export async function createAcme(db: Db): Promise<{ adminId: string }> {
  await createOrganisation(db, { id: ACME.orgId, name: 'Acme Corp.', siteId: ACME.siteId, hosts: [ACME.host] });
  const adminId = await createAccount(
    db,
    ACME.orgId,
    ACME.siteId,
    { userName: ACME.adminUserName, firstName: 'Acme', surnames: 'Admin', roles: [ROLE.orgAdmin, ROLE.siteAdmin] },
    ACME.password,
  );
  return { adminId };
}

/** What a call answered: the HTTP status and the parsed body (`err` on failure). */
export interface CallResult<B> {
  status: number;
  body: B & { err?: ServerErr };
  headers: LightMyRequestResponse['headers'];
}

export interface CallOptions {
  /** The client address the server sees (the login limiter is keyed by it). */
  ip?: string;
  headers?: Record<string, string>;
}

function parseBody(res: LightMyRequestResponse): Record<string, unknown> {
  try {
    return res.json();
  } catch {
    return { raw: res.body };
  }
}

/** POST /api/<path> with the demo site's base fields unless the body gives its own. */
export async function call<P extends CallPath>(
  app: FastifyInstance,
  path: P | (string & {}),
  body: Partial<CallBody<P>> | Record<string, unknown> = {},
  token?: string,
  opts: CallOptions = {},
): Promise<CallResult<Partial<CallResponse<P>>>> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/${path}`,
    payload: { ...DEMO_BASE, ...body },
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...opts.headers },
    ...(opts.ip ? { remoteAddress: opts.ip } : {}),
  });
  return { status: res.statusCode, body: parseBody(res) as Partial<CallResponse<P>> & { err?: ServerErr }, headers: res.headers };
}

export interface LoginOptions extends CallOptions {
  password?: string;
  workstationId?: string;
  /** The device's secret; the demo workstations' unless given (undefined: sent without one). */
  workstationSecret?: string | undefined;
  lifetimeSecs?: number;
  stayLoggedIn?: boolean;
  /** Base fields of another site, e.g. ACME_BASE. */
  base?: Record<string, string>;
}

/** Logs in (password demo1234, workstation WS0001 unless given); throws unless the login succeeds. */
export async function loginAs(
  app: FastifyInstance,
  userName: string,
  opts: LoginOptions = {},
): Promise<{ token: string; login: CallResponse<'auth/login'> }> {
  const res = await call(
    app,
    'auth/login',
    {
      ...opts.base,
      userName,
      password: opts.password ?? DEMO.password,
      workstationId: opts.workstationId ?? DEMO_WORKSTATION,
      ...(('workstationSecret' in opts ? opts.workstationSecret : DEMO.workstationSecret) !== undefined
        ? { workstationSecret: 'workstationSecret' in opts ? opts.workstationSecret : DEMO.workstationSecret }
        : {}),
      ...(opts.lifetimeSecs !== undefined ? { lifetimeSecs: opts.lifetimeSecs } : {}),
      ...(opts.stayLoggedIn !== undefined ? { stayLoggedIn: opts.stayLoggedIn } : {}),
    },
    undefined,
    opts,
  );
  if (res.status !== 200 || !res.body.authToken) {
    throw new Error(`login as ${userName} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { token: res.body.authToken, login: res.body };
}

/** A client address unique to the caller, so login-limiter state never leaks between tests. */
let ipCounter = 0;
export function uniqueIp(): string {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/** Part numbers of `n` active demo items counted in whole units (EA) without lot or serial, by part number. */
export async function plainParts(db: Db, n: number): Promise<string[]> {
  const parts = await query<{ part_number: string }>(
    db,
    sql`SELECT part_number FROM items WHERE org_id = 'demo' AND active AND tracking = 'none' AND uom = 'EA' ORDER BY part_number LIMIT ${n}`,
  );
  return parts.map((p) => p.part_number);
}
