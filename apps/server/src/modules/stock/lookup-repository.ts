/*
 * The SQL of stock lookup (the rules are lookup.ts): one scanned or typed value is tried as a stock id, a location code, a part number and
 * a barcode alias at once (each an org-scoped unique or indexed code), then the stock of every match
 * is read through the indexes on stock_records(id), (location_id) and (item_id): one statement of a
 * handful of index probes, whatever the size of the organisation's stock.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { LOOKUP_MATCHES } from '@floorhand/contract/stock';
import { formatQty, QTY_MAX_UNITS, QTY_SCALE, qtyUnits } from '@floorhand/contract/quantity';
import type { Db } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { isoSql } from '../../db/sql.ts';
import { type Body } from '../../lib/call-body.ts';
import { STOCK_FROM } from './repository.ts';
import { selectStock } from './queries.ts';

type Match = (typeof LOOKUP_MATCHES)[number];

// The value tried as each kind of code; every branch is one probe of an org-scoped index.
const matchesOf = (
  orgId: SQLWrapper | string,
  value: SQLWrapper | string,
) => sql`SELECT 'stockId' AS kind, id FROM stock_records WHERE org_id = ${orgId} AND stock_id = ${value}
    UNION ALL SELECT 'location', id FROM locations WHERE org_id = ${orgId} AND code = ${value}
    UNION ALL SELECT 'partNumber', id FROM items WHERE org_id = ${orgId} AND part_number = ${value}
    UNION ALL SELECT 'barcode', item_id FROM item_barcodes WHERE org_id = ${orgId} AND barcode = ${value}
    UNION ALL SELECT 'order', id FROM orders WHERE org_id = ${orgId} AND number = ${value}`;

/** Sort keys per sort; `desc` reverses the first (the others only break ties). */
const SORTS: Record<Body<'stock/lookup'>['sort'], SQL[]> = {
  location: [sql`w.code`, sql`l.code`, sql`i.part_number`, sql`sr.stock_id`],
  partNumber: [sql`i.part_number`, sql`w.code`, sql`l.code`, sql`sr.stock_id`],
  stockId: [sql`sr.stock_id`],
  receivedDate: [sql`sr.received_date`, sql`sr.stock_id`],
  quantity: [sql`sr.quantity`, sql`sr.stock_id`],
};

/** The parts of a lookup that change its statement's text; everything else is a placeholder's value. */
export type LookupShape = Pick<Body<'stock/lookup'>, 'sort' | 'desc' | 'showZeroQty'> & {
  warehouse: boolean;
  conditionCode: boolean;
  department: boolean;
  orderType: boolean;
};

export const shapeOf = (body: Body<'stock/lookup'>): LookupShape => ({
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
    where.push(
      sql`EXISTS (SELECT 1 FROM order_picks op JOIN orders o ON o.id = op.order_id WHERE op.stock_record_id = sr.id AND op.state = 'picked' AND o.type = ${sql.placeholder('orderType')})`,
    );
  }
  // Zero-quantity records are history: shown only on request, and only those changed recently.
  where.push(
    shape.showZeroQty
      ? sql`(sr.quantity > 0 OR sr.changed_at >= now() - make_interval(months => ${sql.placeholder('zeroQtyMonths')}::int))`
      : sql`sr.quantity > 0`,
  );
  return where;
}

/**
 * A JSON object's text from named values, in their order, by concatenation: cheaper for PostgreSQL
 * than row_to_json of a sub-select per record and per group (a location lookup, 111 records on
 * average, took a tenth to a fifth less of its time; docs/inventory.md, 26 November). `string` values go
 * through to_json (JSON's escaping, the same as row_to_json's); `number` values are written as
 * PostgreSQL's text of them; `plain` values are strings known to need no escaping (dates from
 * to_char). NULL becomes null.
 */
type JsonField = [name: string, value: SQL, kind: 'string' | 'number' | 'plain'];
function jsonObjectSql(fields: JsonField[]): SQL {
  const parts = fields.map(([name, value, kind], k) => {
    if (!/^\w+$/.test(name)) throw new Error(`jsonObjectSql: '${name}' is not a plain property name`);
    const text = kind === 'string' ? sql`to_json(${value})::text` : kind === 'number' ? sql`(${value})::text` : sql`'"' || ${value} || '"'`;
    return sql`${sql.raw(`'${k === 0 ? '{' : ','}"${name}":'`)} || COALESCE(${text}, 'null')`;
  });
  return sql`(${sql.join(parts, sql` || `)} || '}')`;
}

/**
 * A record as the answer lists it (contract lookupRecordSchema: its properties in its order), as
 * JSON written by PostgreSQL. Quantities go out as float8, which PostgreSQL writes as the shortest
 * text that reads back as the same double, the text JavaScript writes (for the magnitudes
 * numeric(15,4) and 500 records allow).
 */
const RECORD_JSON = jsonObjectSql([
  ['_id', sql`sr.id`, 'string'],
  ['_rev', sql`sr._rev`, 'number'],
  ['stockId', sql`sr.stock_id`, 'string'],
  ['quantity', sql`sr.quantity::float8`, 'number'],
  ['conditionCode', sql`sr.condition_code`, 'string'],
  ['lot', sql`sr.lot`, 'string'],
  ['serial', sql`sr.serial`, 'string'],
  ['certSource', sql`sr.cert_source`, 'string'],
  ['receivedDate', sql`to_char(sr.received_date, 'YYYY-MM-DD')`, 'plain'],
  ['changedAt', isoSql(sql`sr.changed_at`), 'plain'],
]);
/** What a group says of its item and place, in the answer's order (lookupGroupSchema), before its quantity. */
const GROUP_NAMES = [
  'itemId',
  'partNumber',
  'description',
  'uom',
  'tracking',
  'department',
  'warehouseId',
  'warehouse',
  'locationId',
  'location',
] as const;
const GROUP_KEYS = sql`i.id AS "itemId", i.part_number AS "partNumber", i.description, i.uom, i.tracking, i.department, w.id AS "warehouseId", w.code AS warehouse, l.id AS "locationId", l.code AS location`;

/** A row of the lookup's statement: a record with its group's item and place, and what the value matched (on every row). */
export type LookupRow = { [K in (typeof GROUP_NAMES)[number]]: string | null } & {
  /** The value's kinds of match, comma-separated, in no order; null when none. */
  matched: string | null;
  /** The record's quantity as PostgreSQL's decimal text; null on the one row of a lookup without stock. */
  quantity: string | null;
  /** The record as JSON (RECORD_JSON). */
  rec: string | null;
};
type Run<T> = (values: Record<string, unknown>) => Promise<T[]>;
/** The lookup's statements per database handle, shape and kind (one value, or many), built and prepared once. */
const statements = new WeakMap<Db, Map<string, Run<unknown>>>();

/**
 * One statement, one round trip: the records in the lookup's order, each with its JSON written by
 * PostgreSQL, and the answer put together here (lookupAnswer).
 * - m: the value's matches; they turn into id arrays once (ARRAY(...) is an init plan), each `= ANY`
 *   uses its index and PostgreSQL ORs the bitmaps; item, location and warehouse are probed per row
 *   (STOCK_FROM).
 * - r: the stock in the lookup's order, numbered, one row more than maxRows (it says whether there
 *   are more), each with its record's JSON.
 * - the rows of r in order, each carrying the kinds of match; a lookup without stock gives one row
 *   that carries only them.
 * Grouping and the groups' JSON were PostgreSQL's too until 29 November: the groups' text (ten to_json
 * per group) took a third of its CPU per lookup, and PostgreSQL is the part of a two-core machine that
 * runs out first; grouping here costs the server less than it saves there (docs/performance.md). The
 * benchmark runs the same statement through a plain client (bench/stock-lookup).
 */
export const lookupSql = (shape: LookupShape): SQL => sql`${lookupBody(shape, sql`${sql.placeholder('value')}`, false)} ORDER BY r.rn`;

/**
 * Many lookups of one shape, organisation and options in one statement (lookup-batch.ts runs it when
 * lookups queue): the values as a JSON array, each run through the single lookup's statement
 * (LATERAL), its rows numbered by its place in the array (n, from 1) and in its own order. The
 * values come as JSON text and not as a text[]: PostgreSQL estimates a parameter array's unnest from
 * its length, so it would plan this statement afresh for every call; json_array_elements_text is
 * estimated the same whatever the values, so the prepared statement keeps one plan (the server's
 * connections have JIT off, db/client.ts: that estimate of 100 values would have it compiled).
 */
export const lookupBatchSql = (shape: LookupShape): SQL =>
  sql`SELECT v.n, x.* FROM json_array_elements_text(${sql.placeholder('values')}::json) WITH ORDINALITY AS v(value, n)
    CROSS JOIN LATERAL (${lookupBody(shape, sql`v.value`, true)}) x ORDER BY v.n, x.rn`;

/** The single lookup's statement for the value `value`, without its final order; `numbered` adds each row's place in it (rn). */
function lookupBody(shape: LookupShape, value: SQL, numbered: boolean): SQL {
  const orgId = sql.placeholder('orgId');
  const maxRows = sql`${sql.placeholder('maxRows')}::int`;
  const ids = (...kinds: Match[]) =>
    sql`ARRAY(SELECT id FROM m WHERE kind IN (${sql.join(
      kinds.map((k) => sql.raw(`'${k}'`)),
      sql`, `,
    )}))`;
  // An order's stock: what was picked for it and not put back (picked, shipped or issued; zero-quantity records only with showZeroQty).
  const orderIds = shape.orderType
    ? sql`SELECT m.id FROM m JOIN orders o ON o.id = m.id WHERE m.kind = 'order' AND o.type = ${sql.placeholder('orderType')}`
    : sql`SELECT id FROM m WHERE kind = 'order'`;
  const picked = sql`ARRAY(SELECT op.stock_record_id FROM order_picks op WHERE op.order_id IN (${orderIds}) AND op.state <> 'unpicked')`;
  const match = sql`(sr.id = ANY(${ids('stockId')}) OR sr.location_id = ANY(${ids('location')}) OR sr.item_id = ANY(${ids('partNumber', 'barcode')}) OR sr.id = ANY(${picked}))`;
  const where = sql.join([sql`sr.org_id = ${orgId}`, match, ...filters(shape)], sql` AND `);
  const [first, ...rest] = SORTS[shape.sort];
  const order = sql.join([shape.desc ? sql`${first} DESC` : first!, ...rest], sql`, `);
  return sql`WITH m AS (${matchesOf(orgId, value)}),
    r AS (SELECT ${GROUP_KEYS}, sr.quantity::text AS quantity, ${RECORD_JSON} AS rec, row_number() OVER (ORDER BY ${order}) AS rn ${STOCK_FROM}
      WHERE ${where} ORDER BY ${order} LIMIT ${maxRows} + 1)
    SELECT h.matched, ${sql.join(
      GROUP_NAMES.map((c) => sql`r.${sql.identifier(c)}`),
      sql`, `,
    )}, r.quantity, r.rec${numbered ? sql`, r.rn` : sql``}
      FROM (SELECT (SELECT string_agg(DISTINCT kind, ',') FROM m) AS matched) h LEFT JOIN r ON true`;
}

/**
 * A group's properties before its quantity, as JSON without the closing brace: one JSON.stringify of
 * an object of a fixed shape (a tenth of the time of one per property, measured in the server's
 * profile), its properties in GROUP_NAMES' order.
 */
function groupHead(row: LookupRow): string {
  const head: { [K in (typeof GROUP_NAMES)[number]]: string | null } = {
    itemId: row.itemId,
    partNumber: row.partNumber,
    description: row.description,
    uom: row.uom,
    tracking: row.tracking,
    department: row.department,
    warehouseId: row.warehouseId,
    warehouse: row.warehouse,
    locationId: row.locationId,
    location: row.location,
  };
  return JSON.stringify(head).slice(0, -1);
}

const SCALE = 10 ** QTY_SCALE;
/** A partial sum of at most this many units stays exact after one more quantity (at most QTY_MAX_UNITS). */
const EXACT_BELOW = Number.MAX_SAFE_INTEGER - Number(QTY_MAX_UNITS);

/**
 * A group's quantity: the exact decimal sum of its records' (PostgreSQL's text of numeric(15,4), four
 * decimals), then one rounding to a number. The sum is done on integers of 1/10,000: as numbers while
 * they are exact (below 2^53, any 500 ordinary quantities), as bigints beyond. Dividing the exact
 * integer by 10,000 rounds once, to the same number as reading the decimal text.
 */
function quantitySum(quantities: string[]): number {
  let units = 0;
  for (const q of quantities) {
    const dot = q.length - QTY_SCALE - 1;
    if (!(Math.abs(units) <= EXACT_BELOW) || q[dot] !== '.') return Number(formatQty(quantities.reduce((sum, t) => sum + qtyUnits(t), 0n)));
    units += Number(q.slice(0, dot) + q.slice(dot + 1));
  }
  return units / SCALE;
}

/**
 * The answer's JSON from the statement's rows, exactly as the contract's serializer writes it
 * (lookupResponseSchema: its properties in its order; lookup.test.ts checks it byte for byte): the
 * first maxRows records grouped by item and place, a group where its first record comes, its records
 * in the lookup's order, its quantity their exact sum.
 */
export function lookupAnswer(rows: LookupRow[], maxRows: number): string {
  const groups = new Map<string, { head: string; quantities: string[]; records: string }>();
  let listed = 0;
  let more = false;
  for (const row of rows) {
    if (row.rec === null) continue;
    if (listed === maxRows) {
      more = true;
      break;
    }
    listed++;
    const key = `${row.itemId}\u0000${row.warehouseId}\u0000${row.locationId}`;
    const group = groups.get(key);
    if (group) {
      group.quantities.push(row.quantity!);
      group.records += `,${row.rec}`;
    } else {
      groups.set(key, { head: groupHead(row), quantities: [row.quantity!], records: row.rec });
    }
  }
  let json = '{"matchedAs":';
  const matched = rows[0]?.matched?.split(',');
  json += JSON.stringify(matched ? LOOKUP_MATCHES.filter((kind) => matched.includes(kind)) : []);
  json += ',"groups":[';
  let first = true;
  for (const g of groups.values()) {
    json += `${first ? '' : ','}${g.head},"quantity":${quantitySum(g.quantities)},"records":[${g.records}]}`;
    first = false;
  }
  return `${json}],"rowCount":${listed},"more":${more}}`;
}

function prepared<T>(db: Db, key: string, build: () => SQL): Run<T> {
  let byKey = statements.get(db);
  if (!byKey) statements.set(db, (byKey = new Map()));
  let run = byKey.get(key);
  if (!run) byKey.set(key, (run = preparedStatement<unknown>(db, build())));
  return run as Run<T>;
}

/** The prepared lookup statement of a shape of request, made once per database and shape: its `value` placeholder is the value. */
export const lookupStatement = (db: Db, shape: LookupShape): Run<LookupRow> =>
  prepared(db, `one ${JSON.stringify(shape)}`, () => lookupSql(shape));

/**
 * The prepared statement of many lookups of a shape (lookupBatchSql): `values` holds the values, the
 * other placeholders are the single statement's; it answers the rows of each value, in their order.
 */
export function lookupBatchStatement(
  db: Db,
  shape: LookupShape,
): (values: Record<string, unknown>, lookupValues: string[]) => Promise<LookupRow[][]> {
  const run = prepared<LookupRow & { n: string | number }>(db, `many ${JSON.stringify(shape)}`, () => lookupBatchSql(shape));
  return async (values, lookupValues) => {
    const answers: LookupRow[][] = lookupValues.map(() => []);
    for (const row of await run({ ...values, values: JSON.stringify(lookupValues) })) answers[Number(row.n) - 1]!.push(row);
    return answers;
  };
}

/** A stock record of the organisation by its stock id, as answered. */
export async function stockByStockId(db: Db, orgId: string, stockId: string) {
  const [stock] = await selectStock(db, sql`WHERE sr.org_id = ${orgId} AND sr.stock_id = ${stockId}`);
  return stock;
}
