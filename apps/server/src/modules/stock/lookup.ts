/*
 * Stock lookup: one scanned or typed value is tried as a stock id, a location code, a part number and
 * a barcode alias at once (each an org-scoped unique or indexed code), then the stock of every match
 * is read through the indexes on stock_records(id), (location_id) and (item_id): one statement of a
 * handful of index probes, whatever the size of the organisation's stock.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import { LOOKUP_MATCHES, MOVEMENT_HISTORY_MAX, type LookupGroup } from '@floorhand/contract/stock';
import { qtyNumber, qtyUnits } from '@floorhand/contract/quantity';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Db } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { guarded } from '../../db/errors.ts';
import { notFound } from '../../lib/errors.ts';
import { query } from '../../db/sql.ts';
import { type Body } from '../../lib/call-body.ts';
import { LISTED_STOCK_COLUMNS, movementsOf, selectStock, STOCK_FROM, toLookupRecord, toPlacedItem, type StockRow } from './repository.ts';

type Match = (typeof LOOKUP_MATCHES)[number];

// The value tried as each kind of code; every branch is one probe of an org-scoped index.
const matchesOf = (orgId: SQLWrapper | string, value: SQLWrapper | string) => sql`SELECT 'stockId' AS kind, id FROM stock_records WHERE org_id = ${orgId} AND stock_id = ${value}
    UNION ALL SELECT 'location', id FROM locations WHERE org_id = ${orgId} AND code = ${value}
    UNION ALL SELECT 'partNumber', id FROM items WHERE org_id = ${orgId} AND part_number = ${value}
    UNION ALL SELECT 'barcode', item_id FROM item_barcodes WHERE org_id = ${orgId} AND barcode = ${value}
    UNION ALL SELECT 'order', id FROM orders WHERE org_id = ${orgId} AND number = ${value}`;

const kindsOf = (found: readonly Match[]) => LOOKUP_MATCHES.filter((k) => found.includes(k));

/** Sort keys per sort; `desc` reverses the first (the others only break ties). */
const SORTS: Record<Body<'stock/lookup'>['sort'], SQL[]> = {
  location: [sql`w.code`, sql`l.code`, sql`i.part_number`, sql`sr.stock_id`],
  partNumber: [sql`i.part_number`, sql`w.code`, sql`l.code`, sql`sr.stock_id`],
  stockId: [sql`sr.stock_id`],
  receivedDate: [sql`sr.received_date`, sql`sr.stock_id`],
  quantity: [sql`sr.quantity`, sql`sr.stock_id`],
};

/** The parts of a lookup that change its statement's text; everything else is a placeholder's value. */
type LookupShape = Pick<Body<'stock/lookup'>, 'sort' | 'desc' | 'showZeroQty'> & { warehouse: boolean; conditionCode: boolean; department: boolean; orderType: boolean };

const shapeOf = (body: Body<'stock/lookup'>): LookupShape => ({
  sort: body.sort,
  desc: body.desc,
  showZeroQty: body.showZeroQty,
  warehouse: body.warehouse !== undefined,
  conditionCode: body.conditionCode !== undefined,
  department: body.department !== undefined,
  orderType: body.orderType !== undefined,
});

/** The filters of a lookup as SQL conditions on sr (stock), i (item), w (warehouse). */
function filters(shape: LookupShape): SQL[] {
  const where: SQL[] = [];
  if (shape.warehouse) where.push(sql`w.code = ${sql.placeholder('warehouse')}`);
  if (shape.conditionCode) where.push(sql`sr.condition_code = ${sql.placeholder('conditionCode')}`);
  if (shape.department) where.push(sql`i.department = ${sql.placeholder('department')}`);
  // Stock held for an order of the type: picked (one active pick per record, a unique partial index) and not yet shipped or issued.
  if (shape.orderType) {
    where.push(sql`EXISTS (SELECT 1 FROM order_picks op JOIN orders o ON o.id = op.order_id WHERE op.stock_record_id = sr.id AND op.state = 'picked' AND o.type = ${sql.placeholder('orderType')})`);
  }
  // Zero-quantity records are history: shown only on request, and only those changed recently.
  where.push(
    shape.showZeroQty
      ? sql`(sr.quantity > 0 OR sr.changed_at >= now() - make_interval(months => ${sql.placeholder('zeroQtyMonths')}::int))`
      : sql`sr.quantity > 0`,
  );
  return where;
}

/** A lookup row: a stock record with its item and place, without the audit (LISTED_STOCK_COLUMNS). */
type LookupRow = Omit<StockRow, 'audit'>;

/**
 * A stored quantity (numeric(15,4) as text, "12.5000") in units of 1/10000, as a number. Exact: the
 * text has at most 15 significant digits, so Number() is off by less than 2^-53 relatively, under
 * 0.25 of a unit after scaling, and rounding gives the units back.
 */
const storedUnits = (text: string): number => Math.round(Number(text) * 10_000);

/**
 * Rows in the lookup's order, grouped by item and location (a group appears where its first row
 * does). Quantities are summed as integer units in plain numbers (exact below 2^53 units, some 900
 * billion of a unit; a larger sum is redone in bigint), and units / 10000 is the correctly rounded
 * number of the decimal, the same as Number(formatQty(units)).
 */
export function groupStock(rows: readonly LookupRow[]): LookupGroup[] {
  const groups: LookupGroup[] = [];
  const units: number[] = [];
  const index = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.item_id}\u0000${r.location_id}`;
    let at = index.get(key);
    if (at === undefined) {
      at = groups.length;
      index.set(key, at);
      groups.push({ ...toPlacedItem(r), quantity: 0, records: [] });
      units.push(0);
    }
    groups[at]!.records.push(toLookupRecord(r));
    units[at]! += storedUnits(r.quantity);
  }
  for (let at = 0; at < groups.length; at++) {
    const group = groups[at]!;
    group.quantity = Number.isSafeInteger(units[at]) ? units[at]! / 10_000 : qtyNumber(group.records.reduce((sum, rec) => sum + qtyUnits(rec.quantity), 0n));
  }
  return groups;
}

type LookupRun = (values: Record<string, unknown>) => Promise<Array<LookupRow & { matched: string }>>;
/** The lookup's statements per database handle and shape, built and prepared once. */
const statements = new WeakMap<Db, Map<string, LookupRun>>();

/**
 * One statement, one round trip: the matches (CTE m) turn into id arrays once (ARRAY(...) is an init
 * plan), each `= ANY` uses its index and PostgreSQL ORs the bitmaps; item, location and warehouse are
 * probed per row (STOCK_FROM). What matched rides along on every row; only when no stock comes back
 * is it asked for on its own.
 */
function lookupStatement(db: Db, shape: LookupShape): LookupRun {
  let byShape = statements.get(db);
  if (!byShape) statements.set(db, (byShape = new Map()));
  const key = JSON.stringify(shape);
  let run = byShape.get(key);
  if (!run) {
    const orgId = sql.placeholder('orgId');
    const ids = (...kinds: Match[]) => sql`ARRAY(SELECT id FROM m WHERE kind IN (${sql.join(kinds.map((k) => sql.raw(`'${k}'`)), sql`, `)}))`;
    // An order's stock: what was picked for it and not put back (picked, shipped or issued; zero-quantity records only with showZeroQty).
    const orderIds = shape.orderType
      ? sql`SELECT m.id FROM m JOIN orders o ON o.id = m.id WHERE m.kind = 'order' AND o.type = ${sql.placeholder('orderType')}`
      : sql`SELECT id FROM m WHERE kind = 'order'`;
    const picked = sql`ARRAY(SELECT op.stock_record_id FROM order_picks op WHERE op.order_id IN (${orderIds}) AND op.state <> 'unpicked')`;
    const match = sql`(sr.id = ANY(${ids('stockId')}) OR sr.location_id = ANY(${ids('location')}) OR sr.item_id = ANY(${ids('partNumber', 'barcode')}) OR sr.id = ANY(${picked}))`;
    const where = sql.join([sql`sr.org_id = ${orgId}`, match, ...filters(shape)], sql` AND `);
    const [first, ...rest] = SORTS[shape.sort];
    const order = sql.join([shape.desc ? sql`${first} DESC` : first!, ...rest], sql`, `);
    run = preparedStatement<LookupRow & { matched: string }>(
      db,
      sql`WITH m AS (${matchesOf(orgId, sql.placeholder('value'))})
      SELECT ${LISTED_STOCK_COLUMNS}, (SELECT string_agg(DISTINCT kind, ',') FROM m) AS matched ${STOCK_FROM}
      WHERE ${where} ORDER BY ${order} LIMIT ${sql.placeholder('limit')}`,
    );
    byShape.set(key, run);
  }
  return run;
}

export async function lookupStock(db: Db, auth: AuthContext, body: Body<'stock/lookup'>): Promise<CallResponse<'stock/lookup'>> {
  const run = lookupStatement(db, shapeOf(body));
  // One row more than asked says whether there are more.
  const rows = await guarded(() =>
    run({
      orgId: auth.orgId,
      value: body.value,
      warehouse: body.warehouse,
      conditionCode: body.conditionCode,
      department: body.department,
      orderType: body.orderType,
      zeroQtyMonths: body.zeroQtyMonths,
      limit: body.maxRows + 1,
    }),
  );
  // Text, not JSON: the driver would parse a JSON column once per row.
  const matched = rows[0] ? (rows[0].matched.split(',') as Match[]) : (await query<{ kind: Match }>(db, matchesOf(auth.orgId, body.value))).map((r) => r.kind);
  const more = rows.length > body.maxRows;
  const shown = more ? rows.slice(0, body.maxRows) : rows;
  return { matchedAs: kindsOf(matched), groups: groupStock(shown), rowCount: shown.length, more };
}

export async function getStock(db: Db, auth: AuthContext, body: Body<'stock/get'>): Promise<CallResponse<'stock/get'>> {
  const [stock] = await selectStock(db, sql`WHERE sr.org_id = ${auth.orgId} AND sr.stock_id = ${body.stockId}`);
  if (!stock) throw notFound(`No stock record '${body.stockId}' exists`);
  const movements = await movementsOf(db, stock._id, MOVEMENT_HISTORY_MAX + 1);
  return { stock, movements: movements.slice(0, MOVEMENT_HISTORY_MAX), moreMovements: movements.length > MOVEMENT_HISTORY_MAX };
}
