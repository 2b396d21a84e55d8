import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { seedDemo } from '../seed/demo.ts';
import { SEEDED_PGLITE_ENV, SEEDED_TEMPLATE_ENV } from './seeded-database.ts';

// Once per Vitest run, before the server's test files: a database migrated and seeded with the demo
// data, which each test app then copies instead of migrating and seeding its own (test/harness.ts).
// PGlite: a dump of the data folder in a file; PostgreSQL: a template database. Migrating and seeding
// took some 6 s per test file on these machines; a copy takes about 1 s (PGlite) or less (PostgreSQL).
// The workers read where it is from the environment, which they inherit from this process.
export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `fh_tpl_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = async (statement: string) => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(statement);
      } finally {
        await c.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    await seedDemo(database.db);
    await database.close();
    process.env[SEEDED_TEMPLATE_ENV] = name;
    return async () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  const database = await openDatabase({});
  await seedDemo(database.db);
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  await database.close();
  const dir = mkdtempSync(join(tmpdir(), 'floorhand-seeded-'));
  const file = join(dir, 'seeded.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[SEEDED_PGLITE_ENV] = file;
  return async () => rmSync(dir, { recursive: true, force: true });
}
