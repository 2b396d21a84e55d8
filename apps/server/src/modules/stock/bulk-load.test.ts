import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import type { Db } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { DEMO } from '../../seed/demo.ts';
import { copyReceipts, copyText, droppableDefinitions, STOCK_TABLES, withoutIndexes } from './bulk-load.ts';
import { seedInventory, type InventorySize } from './demo-data.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';
import { nextStockIds } from './repository.ts';

describe('copyText', () => {
  it('writes null as \\N and escapes what COPY reserves', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText('plain 1/4" bolt')).toBe('plain 1/4" bolt');
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
    expect(copyText('\\N')).toBe('\\\\N');
  });
});

// The bulk load (seed:large) is PostgreSQL only: COPY and the catalog.
describe.skipIf(!process.env.DATABASE_URL)('bulk stock load on PostgreSQL', () => {
  let t: TestApp;
  let client: pg.PoolClient;
  let db: Db;
  const size: InventorySize = { prefix: 'BK', warehouses: 2, aisles: 3, bays: 4, levels: 2, items: 300, stockPerItem: 4, stockTotal: 2500 };
  const count = async (table: string) =>
    Number(((await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0] as { n: number }).n);

  beforeAll(async () => {
    t = await createTestApp();
    client = await (t.db as unknown as { $client: pg.Pool }).$client.connect();
    db = drizzle({ client, schema }) as unknown as Db;
  });
  afterAll(async () => {
    client?.release();
    await t?.close();
  });

  const load = () =>
    withoutIndexes(client, STOCK_TABLES, () =>
      seedInventory(db, DEMO.orgId, size, 3, {
        writeStock: async (receipts, actor) => copyReceipts(client, actor, receipts, await nextStockIds(db, receipts.length)),
      }),
    );

  it('copies stock with a receive movement each and leaves every index and foreign key as the migrations made them', async () => {
    const before = await droppableDefinitions(client, STOCK_TABLES);
    // What the migrations made: foreign keys and indexes of both tables (a guard that the catalog query finds them).
    expect(before.filter((d) => d.kind === 'foreignKey').map((d) => d.name)).toContain('movements_stock_record_id_stock_records_id_fk');
    expect(before.filter((d) => d.kind === 'index').map((d) => d.name)).toContain('stock_records_org_stock_id');
    const stockBefore = await count('stock_records');
    const movementsBefore = await count('movements');
    await client.query('BEGIN');
    expect(await load()).toBe(true);
    await client.query('COMMIT');
    expect(await count('stock_records')).toBe(stockBefore + 2500);
    expect(await count('movements')).toBe(movementsBefore + 2500);
    expect(await droppableDefinitions(client, STOCK_TABLES)).toEqual(before);
    expect(await ledgerMismatches(db)).toEqual([]);
    // Each copied record has its receive movement of its quantity into its location.
    const made = await client.query<{
      n: number;
    }>(`SELECT count(*)::int AS n FROM stock_records sr JOIN warehouses w ON w.id = sr.warehouse_id
      JOIN movements m ON m.stock_record_id = sr.id AND m.type = 'receive' AND m.qty_delta = sr.quantity AND m.to_location_id = sr.location_id
      WHERE w.code LIKE 'BK%'`);
    expect(made.rows[0]?.n).toBe(2500);
  });

  it('fails as a whole when a copied row breaks a foreign key: nothing is left and the constraints are back', async () => {
    const before = await droppableDefinitions(client, STOCK_TABLES);
    const stockBefore = await count('stock_records');
    await client.query('BEGIN');
    const [item] = (await client.query<{ id: string }>(`SELECT id FROM items WHERE org_id = 'demo' AND tracking = 'none' LIMIT 1`)).rows;
    const [place] = (await client.query<{ warehouse_id: string }>(`SELECT warehouse_id FROM locations WHERE org_id = 'demo' LIMIT 1`)).rows;
    const actor = {
      orgId: DEMO.orgId,
      siteId: null,
      accountId: 'system',
      audit: { create: { user: 'system', ts: '' }, modify: { user: 'system', ts: '' } },
      idempotencyKey: null,
    };
    const receipt = {
      itemId: item!.id,
      warehouseId: place!.warehouse_id,
      locationId: 'no-such-location',
      quantity: 10_000n,
      conditionCode: null,
      lot: null,
      serial: null,
      certSource: null,
      receivedDate: null,
    };
    const broken = withoutIndexes(client, STOCK_TABLES, async () => copyReceipts(client, actor, [receipt], await nextStockIds(db, 1)));
    await expect(broken).rejects.toThrow(/foreign key/);
    await client.query('ROLLBACK');
    expect(await count('stock_records')).toBe(stockBefore);
    expect(await droppableDefinitions(client, STOCK_TABLES)).toEqual(before);
  });
});
