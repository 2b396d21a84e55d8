/*
 * A large inventory for benchmarks: 100,000 items and 1,000,000 stock records (each with its receive
 * movement) in the demo organisation of the PostgreSQL database in DATABASE_URL, beside the demo data
 * (codes start with LG). Deterministic; does nothing when the data set is there already.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/floorhand_bench npm run seed:large
 *   LARGE_ITEMS=10000 LARGE_STOCK=100000 …   a smaller set
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase, type Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { DEMO, seedDemo } from '../seed/demo.ts';
import { copyReceipts, STOCK_TABLES, withoutIndexes } from '../modules/stock/bulk-load.ts';
import { inventorySeeded, seedInventory, stockCount, type InventorySize } from '../modules/stock/demo-data.ts';
import { ledgerMismatches } from '../db/ledger-check.ts';
import { nextStockIds } from '../modules/stock/repository.ts';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error('Set DATABASE_URL to a PostgreSQL database (postgres://…); the large data set is for PostgreSQL only.');
  process.exit(2);
}
const items = Number(process.env.LARGE_ITEMS ?? 100_000);
const stock = Number(process.env.LARGE_STOCK ?? 1_000_000);
// Two warehouses of about 10,000 and 5,000 locations: some 65 records per location on average.
const size: InventorySize = {
  prefix: 'LG',
  warehouses: 2,
  aisles: 40,
  bays: 50,
  levels: 5,
  items,
  stockPerItem: Math.max(1, Math.round(stock / items)),
  stockTotal: stock,
};

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
// Migrations and the demo organisation through the server's own opening of the database.
const database = await openDatabase({ databaseUrl: url });
try {
  if (await seedDemo(database.db)) console.log('demo organisation created (log in as admin / demo1234)');
} finally {
  await database.close();
}

// The inventory in one transaction on one connection: masters through drizzle, stock through COPY
// with the stock tables' indexes and foreign keys dropped and made again before commit
// (modules/stock/bulk-load.ts). A failure leaves nothing behind.
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const db = drizzle({ client, schema }) as unknown as Db;
  if (await inventorySeeded(db, DEMO.orgId, size)) {
    console.log('the large data set is there already');
  } else {
    await client.query('BEGIN');
    let last = 0;
    await withoutIndexes(client, STOCK_TABLES, () =>
      seedInventory(db, DEMO.orgId, size, 7, {
        writeStock: async (receipts, actor) =>
          copyReceipts(client, actor, receipts, await nextStockIds(db, receipts.filter((r) => !r.stockId).length)),
        onChunk: (n) => {
          if (n - last >= 100_000 || n === stock) {
            last = n;
            console.log(`${n.toLocaleString('en')} stock records copied (${seconds()} s)`);
          }
        },
      }),
    );
    console.log(`indexes and foreign keys made again (${seconds()} s)`);
    const mismatches = await ledgerMismatches(db);
    if (mismatches.length > 0)
      throw new Error(`the ledger disagrees with ${mismatches.length} stock records, e.g. ${JSON.stringify(mismatches[0])}`);
    await client.query('COMMIT');
    console.log(`committed; the ledger sums to on-hand for every record (${seconds()} s)`);
    await db.execute(sql`ANALYZE`);
  }
  console.log(
    `${(await stockCount(db, DEMO.orgId)).toLocaleString('en')} stock records in organisation ${DEMO.orgId}; ${seconds()} s in all`,
  );
} catch (error) {
  await client.query('ROLLBACK').catch(() => undefined);
  throw error;
} finally {
  await client.end();
}
