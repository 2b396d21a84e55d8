/*
 * A large inventory for benchmarks: 100,000 items and 1,000,000 stock records (each with its receive
 * movement) in the demo organisation of the PostgreSQL database in DATABASE_URL, beside the demo data
 * (codes start with LG). Deterministic; does nothing when the data set is there already.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/floorhand_bench npm run seed:large
 *   LARGE_ITEMS=10000 LARGE_STOCK=100000 …   a smaller set
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { DEMO, seedDemo } from '../db/seed.ts';
import { seedInventory, stockCount, type InventorySize } from '../modules/stock/demo-data.ts';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error('Set DATABASE_URL to a PostgreSQL database (postgres://…); the large data set is for PostgreSQL only.');
  process.exit(2);
}
const items = Number(process.env.LARGE_ITEMS ?? 100_000);
const stock = Number(process.env.LARGE_STOCK ?? 1_000_000);
// Two warehouses of about 10,000 and 5,000 locations: some 65 records per location on average.
const size: InventorySize = { prefix: 'LG', warehouses: 2, aisles: 40, bays: 50, levels: 5, items, stockPerItem: Math.max(1, Math.round(stock / items)), stockTotal: stock };

const started = Date.now();
const database = await openDatabase({ databaseUrl: url });
try {
  if (await seedDemo(database.db)) console.log('demo organisation created (log in as admin / demo1234)');
  let last = 0;
  const seeded = await seedInventory(database.db, DEMO.orgId, size, 7, (n) => {
    if (n - last >= 100_000 || n === stock) {
      last = n;
      console.log(`${n.toLocaleString('en')} stock records (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  });
  if (!seeded) console.log('the large data set is there already');
  await database.db.execute(sql`ANALYZE`);
  console.log(`${(await stockCount(database.db, DEMO.orgId)).toLocaleString('en')} stock records in organisation ${DEMO.orgId}; ${Math.round((Date.now() - started) / 1000)} s`);
} finally {
  await database.close();
}
