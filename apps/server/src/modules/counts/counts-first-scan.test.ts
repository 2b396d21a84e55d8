// Counters who start one sheet at the same moment (issue 25): every first scan moves the sheet from
// open to counting, and every one of them answers 200. A first scan used to hold the sheet FOR SHARE
// and then ask FOR UPDATE: two of them at once waited on each other and PostgreSQL killed one as a
// deadlock (DB_ERR). PGlite has one connection, so the deadlock only shows with DATABASE_URL; the test
// runs on both (docs/physical-inventory.md).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import type { Sheet } from '@floorhand/contract/counts';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let admin: string;
let counters: string[] = [];
let PART = '';
const key = () => randomUUID();
const rows = async (q: SQL) => ((await t.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

const COUNTERS = 8;
const ROUNDS = 20;

beforeAll(async () => {
  t = await createTestApp();
  admin = await tokenFor(t.app, 'admin');
  // Eight sessions of the three demo accounts that count: eight requests at once is what matters.
  const users = ['clerk', 'admin', 'tcadmin'];
  counters = [];
  for (let i = 0; i < COUNTERS; i++) counters.push(await tokenFor(t.app, users[i % users.length]!));
  PART = String(
    (
      await rows(
        sql`SELECT part_number FROM items WHERE org_id = 'demo' AND active AND uom = 'EA' AND tracking = 'none' ORDER BY part_number LIMIT 1`,
      )
    )[0]!.part_number,
  );
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

describe('counters starting one sheet at once', () => {
  it(
    `${COUNTERS} first scans at the same moment all answer 200 and the sheet leaves open, ${ROUNDS} times`,
    { timeout: 240_000 },
    async () => {
      // A location and a stock record per counter; a fresh sheet over them each round.
      const stamp = Date.now() % 100000;
      const locs = Array.from({ length: COUNTERS }, (_, i) => `FS-${stamp}-${i + 1}`);
      const stock: string[] = [];
      for (const code of locs) {
        const saved = await call(
          t.app,
          'location/save',
          { record: { warehouse: 'MAIN', code, description: 'First scan test', type: 'bin' } },
          admin,
        );
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
        const received = await call(
          t.app,
          'stock/receive',
          { idempotencyKey: key(), record: { partNumber: PART, warehouse: 'MAIN', location: code, quantity: 5 } },
          admin,
        );
        expect(received.status, JSON.stringify(received.body)).toBe(200);
        stock.push(received.body.stock!.stockId);
      }
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const created = await call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', locations: locs, blind: false }, admin);
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const sheet: Sheet = created.body.sheet!;
        expect(sheet.state).toBe('open');
        // Half the counters scan their location first, the other half scan a label straight away.
        const answers = await Promise.all(
          counters.map((token, i) =>
            i % 2 === 0
              ? call(t.app, 'counts/scanLocation', { sheetId: sheet._id, location: locs[i]! }, token)
              : call(
                  t.app,
                  'counts/record',
                  { idempotencyKey: key(), sheetId: sheet._id, location: locs[i]!, stockId: stock[i]!, qty: 5 },
                  token,
                ),
          ),
        );
        answers.forEach((a, i) => {
          if (a.status !== 200) failures.push(`round ${round + 1}, counter ${i + 1}: ${a.status} ${JSON.stringify(a.body)}`);
        });
        const after = await call(t.app, 'counts/sheet/get', { sheetId: sheet._id }, admin);
        const state = after.body.sheet?.state;
        const visited = after.body.locations?.filter((l) => l.visited).length;
        const lines = after.body.sheet?.lineCount;
        if (state !== 'counting' || visited !== COUNTERS || lines !== COUNTERS / 2)
          failures.push(`round ${round + 1}: sheet ${state}, ${visited} locations visited, ${lines} lines`);
      }
      expect(failures).toEqual([]);
    },
  );
});
