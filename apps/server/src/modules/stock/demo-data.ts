/*
 * Inventory demo data: condition codes and departments (record layer), warehouses, locations, items
 * with barcodes, and stock with lots, serials and condition codes, each record received through the
 * ledger (its first movement). Deterministic: the same seed gives the same data set. The demo size
 * seeds in well under a second on PGlite; seed-large uses the same generator for 1,000,000 records.
 */
import { sql } from 'drizzle-orm';
import type { Tracking } from '@floorhand/contract/items';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Db } from '../../db/client.ts';
import { records, warehouses } from '../../db/schema.ts';
import { writeReceipts, type ResolvedReceipt } from './service.ts';
import type { Actor } from './ledger.ts';
import { insertRows, query } from '../../db/sql.ts';
import { seededRandom } from '@floorhand/contract/random';

export interface InventorySize {
  /** Warehouse code prefix, so a large set can sit beside the demo's. */
  prefix: string;
  warehouses: number;
  /** Aisles × bays × levels per warehouse. */
  aisles: number;
  bays: number;
  levels: number;
  items: number;
  /** Average stock records per item (0 to twice this, at random). */
  stockPerItem: number;
  /** Exactly this many stock records (going round the items again if need be); one pass when absent. */
  stockTotal?: number;
}

export const DEMO_INVENTORY: InventorySize = { prefix: '', warehouses: 2, aisles: 6, bays: 10, levels: 4, items: 3000, stockPerItem: 2 };

const CONDITION_CODES = [
  ['NE', 'New'],
  ['NS', 'New surplus'],
  ['OH', 'Overhauled'],
  ['SV', 'Serviceable'],
  ['AR', 'As removed'],
  ['US', 'Unserviceable'],
] as const;
const DEPARTMENTS = [
  ['ASSY', 'Assembly'],
  ['MACH', 'Machining'],
  ['ELEC', 'Electrical'],
  ['STORES', 'Stores'],
  ['QA', 'Quality'],
] as const;
const WAREHOUSE_NAMES = ['Main Warehouse', 'East Annex', 'North Yard', 'South Depot'];
const NOUNS = [
  'Hex bolt',
  'Washer',
  'Bearing',
  'Bracket',
  'Gasket',
  'Valve',
  'Hose',
  'Relay',
  'Fuse',
  'Sensor',
  'Pump',
  'Filter',
  'Cable',
  'Spring',
  'Seal',
  'Pin',
];
const SIZES = ['M4', 'M6', 'M8', 'M10', '1/4"', '3/8"', '1/2"', '10 mm', '25 mm', '50 mm', 'small', 'large'];
const FINISHES = ['zinc', 'stainless', 'black oxide', 'brass', 'nylon', 'steel', 'rubber', 'aluminium'];

/** EAN-13 with its check digit, from twelve digits. */
function ean13(twelve: string): string {
  const sum = [...twelve].reduce((acc, d, i) => acc + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

export interface GeneratedItem {
  id: string;
  partNumber: string;
  tracking: Tracking;
  uom: string;
}

interface Placed {
  id: string;
  warehouseId: string;
}

/** Condition codes and departments as record layer records (skipped when the code exists). */
async function seedReferenceData(db: Db, orgId: string): Promise<void> {
  const audit = auditStamp('system');
  const rows = [
    ...CONDITION_CODES.map(([code, description]) => ({
      orgId,
      type: 'conditionCode',
      id: code,
      data: { code, description, active: true },
      audit,
    })),
    ...DEPARTMENTS.map(([code, name]) => ({ orgId, type: 'department', id: code, data: { code, name, active: true }, audit })),
  ];
  await db.insert(records).values(rows).onConflictDoNothing();
}

/** Warehouses, locations, items and barcodes; returns what stock needs. */
async function seedMasters(
  db: Db,
  orgId: string,
  size: InventorySize,
  rand: () => number,
): Promise<{ items: GeneratedItem[]; places: Placed[] }> {
  const audit = auditStamp('system');
  const constants = { org_id: sql`${orgId}::text`, audit: sql`${JSON.stringify(audit)}::jsonb` };
  const places: Placed[] = [];
  for (let w = 0; w < size.warehouses; w++) {
    const warehouseId = newId();
    const code = `${size.prefix}${['MAIN', 'EAST', 'NORTH', 'SOUTH'][w] ?? `WH${w + 1}`}`;
    await db
      .insert(warehouses)
      .values({ id: warehouseId, orgId, code, name: `${size.prefix}${WAREHOUSE_NAMES[w] ?? `Warehouse ${w + 1}`}`.trim(), audit });
    const rows: Array<{ id: string; warehouseId: string; code: string; description: string; type: string }> = [];
    // Aisles shrink in later warehouses, as annexes are smaller.
    const aisles = Math.max(1, Math.round(size.aisles / (w + 1)));
    for (let a = 0; a < aisles; a++) {
      for (let b = 1; b <= size.bays; b++) {
        for (let l = 1; l <= size.levels; l++) {
          const aisle = a < 26 ? String.fromCharCode(65 + a) : `A${a}`;
          rows.push({
            id: newId(),
            warehouseId,
            code: `${aisle}-${String(b).padStart(2, '0')}-${l}`,
            description: `Aisle ${aisle}, bay ${b}, level ${l}`,
            type: l === 1 ? 'floor' : 'shelf',
          });
        }
      }
    }
    rows.push(
      { id: newId(), warehouseId, code: 'DOCK-1', description: 'Receiving dock', type: 'dock' },
      { id: newId(), warehouseId, code: 'STAGE-1', description: 'Outbound staging', type: 'staging' },
      { id: newId(), warehouseId, code: 'QUAR-1', description: 'Quarantine cage', type: 'quarantine' },
    );
    await insertRows(
      db,
      'locations',
      { id: 'text', warehouseId: 'text', code: 'text', description: 'text', type: 'text' },
      rows,
      constants,
    );
    places.push(...rows.filter((r) => r.type === 'floor' || r.type === 'shelf').map((r) => ({ id: r.id, warehouseId })));
  }

  const generated: GeneratedItem[] = [];
  const itemRows: Array<{ id: string; partNumber: string; description: string; uom: string; department: string; tracking: Tracking }> = [];
  const barcodeRows: Array<{ barcode: string; itemId: string }> = [];
  for (let i = 0; i < size.items; i++) {
    const r = rand();
    const tracking: Tracking = r < 0.08 ? 'serial' : r < 0.2 ? 'lot' : 'none';
    const partNumber = `${size.prefix}FH-${String(10001 + i)}`;
    const uom = tracking === 'serial' ? 'EA' : pick(rand, ['EA', 'EA', 'EA', 'BX', 'M', 'KG']);
    const id = newId();
    generated.push({ id, partNumber, tracking, uom });
    itemRows.push({
      id,
      partNumber,
      description: `${pick(rand, NOUNS)} ${pick(rand, SIZES)} ${pick(rand, FINISHES)}`,
      uom,
      department: pick(rand, DEPARTMENTS)[0],
      tracking,
    });
    barcodeRows.push({ barcode: ean13(`${size.prefix ? '29' : '20'}${String(i + 1).padStart(10, '0')}`), itemId: id });
    if (rand() < 0.2) barcodeRows.push({ barcode: `${size.prefix}ALT${String(10001 + i)}`, itemId: id });
  }
  await insertRows(
    db,
    'items',
    { id: 'text', partNumber: 'text', description: 'text', uom: 'text', department: 'text', tracking: 'text' },
    itemRows,
    constants,
  );
  await insertRows(db, 'item_barcodes', { barcode: 'text', itemId: 'text' }, barcodeRows, { org_id: constants.org_id! });
  return { items: generated, places };
}

const DAY_MS = 86_400_000;

/** Receipts for the items, in chunks (a million records never sit in memory at once). */
export function* stockChunks(
  size: InventorySize,
  made: { items: GeneratedItem[]; places: Placed[] },
  rand: () => number,
  chunk = 20_000,
): Generator<ResolvedReceipt[]> {
  let out: ResolvedReceipt[] = [];
  const start = Date.UTC(2024, 0, 1);
  let serial = 0;
  let produced = 0;
  const target = size.stockTotal ?? Number.POSITIVE_INFINITY;
  if (made.items.length === 0 || made.places.length === 0) return;
  for (let i = 0; size.stockTotal === undefined ? i < made.items.length : produced < target; i++) {
    const item = made.items[i % made.items.length]!;
    const count = Math.min(Math.floor(rand() * (2 * size.stockPerItem + 1)), target - produced);
    produced += count;
    const lot = `L${String(Math.floor(rand() * 9000) + 1000)}`;
    for (let k = 0; k < count; k++) {
      const place = pick(rand, made.places);
      const units =
        item.tracking === 'serial'
          ? 10_000n
          : item.uom === 'KG' || item.uom === 'M'
            ? BigInt(Math.floor(rand() * 5_000_000) + 1000)
            : BigInt((Math.floor(rand() * 200) + 1) * 10_000);
      const r = rand();
      out.push({
        itemId: item.id,
        warehouseId: place.warehouseId,
        locationId: place.id,
        quantity: units,
        conditionCode: r < 0.7 ? 'NE' : pick(rand, CONDITION_CODES)[0],
        lot: item.tracking === 'lot' ? `${lot}-${k + 1}` : null,
        serial: item.tracking === 'serial' ? `SN${String(++serial).padStart(8, '0')}` : null,
        certSource: rand() < 0.3 ? pick(rand, ['FAA 8130-3', 'EASA Form 1', 'CoC']) : null,
        receivedDate: new Date(start + Math.floor(rand() * 700) * DAY_MS).toISOString().slice(0, 10),
      });
      if (out.length >= chunk) {
        yield out;
        out = [];
      }
    }
  }
  if (out.length > 0) yield out;
}

/** Whether an organisation's inventory of this size is there (its first warehouse exists). */
export async function inventorySeeded(db: Db, orgId: string, size: InventorySize): Promise<boolean> {
  const [exists] = await db
    .select({ id: warehouses.id })
    .from(warehouses)
    .where(sql`${warehouses.orgId} = ${orgId} AND ${warehouses.code} = ${`${size.prefix}MAIN`}`);
  return exists !== undefined;
}

/** Writes one chunk of receipts, each with its receive movement. */
export type StockWriter = (receipts: ResolvedReceipt[], actor: Actor) => Promise<void>;

export interface SeedOptions {
  /** Called after each chunk with the number of stock records written so far. */
  onChunk?: (records: number) => void;
  /** How stock is written; by default through the ledger (writeReceipts), one transaction per chunk. */
  writeStock?: StockWriter;
}

/** Seeds an organisation's inventory unless it is there (inventorySeeded); returns whether it did. */
export async function seedInventory(db: Db, orgId: string, size: InventorySize, seed: number, options: SeedOptions = {}): Promise<boolean> {
  if (await inventorySeeded(db, orgId, size)) return false;
  const rand = seededRandom(seed);
  await seedReferenceData(db, orgId);
  const made = await seedMasters(db, orgId, size, rand);
  const actor: Actor = { orgId, siteId: null, accountId: 'system', audit: auditStamp('system'), idempotencyKey: null };
  const write: StockWriter =
    options.writeStock ?? ((receipts) => db.transaction(async (tx) => void (await writeReceipts(tx, actor, receipts))));
  let total = 0;
  for (const receipts of stockChunks(size, made, rand)) {
    await write(receipts, actor);
    total += receipts.length;
    options.onChunk?.(total);
  }
  return true;
}

/** The demo organisation's inventory (called by seedDemo). */
export async function seedDemoInventory(db: Db, orgId: string): Promise<void> {
  await seedInventory(db, orgId, DEMO_INVENTORY, 20_240_101);
}

/** How many stock records an organisation has (for scripts that report progress). */
export async function stockCount(db: Db, orgId: string): Promise<number> {
  const [row] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM stock_records WHERE org_id = ${orgId}`);
  return row?.n ?? 0;
}
