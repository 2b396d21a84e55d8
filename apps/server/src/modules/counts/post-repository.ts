/*
 * SQL of a sheet's review and post: the lines with their variances, the summary and chart, the
 * decisions, and the set-based post. The post of a whole sheet is a handful of statements whatever
 * its size: one that finds every invalid line, one that books the variances of counted stock records
 * with their movements, one that creates found stock with its movements, one that closes the lines.
 * No per-line round trip.
 */
import { sql } from 'drizzle-orm';
import { COUNT_REASON, DECIDED_FROM, variancePct, type InvalidLine, type LineDecision, type ReviewLine } from '@floorhand/contract/counts';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';
import type { Actor } from '../stock/ledger.ts';
import type { LineHeadRow } from './repository.ts';
import type { SheetRow } from './sheet-repository.ts';

// ---------------------------------------------------------------------------------------------
// Review

interface ReviewRow extends LineHeadRow {
  not_found: boolean;
  system_qty: string;
  counted: string;
  moved: boolean;
  location_now: string | null;
  disputed: boolean;
  serial_over_1: boolean;
  over_threshold: boolean;
  counted_by: string | null;
  round: number;
}

const MOVED = sql`(cl.stock_record_id IS NOT NULL AND cl.status <> 'posted' AND cl.anchor_movement_id IS DISTINCT FROM (SELECT max(m.id) FROM movements m WHERE m.stock_record_id = cl.stock_record_id))`;
const HAS_VARIANCE = sql`(cl.counted <> cl.system_qty OR cl.disputed OR cl.serial_over_1 OR cl.status = 'recount')`;

export async function reviewLines(db: Db, sheetId: string, onlyVariances: boolean, offset: number, limit: number): Promise<ReviewLine[]> {
  const rows = await query<ReviewRow>(
    db,
    sql`SELECT cl.id, l.code AS location, coalesce(sr.stock_id, cl.stock_label) AS stock_id, i.part_number, i.description, cl.lot, cl.serial, cl.found, cl.not_found,
      cl.status, cl.system_qty::text AS system_qty, cl.counted::text AS counted, ${MOVED} AS moved, ln.code AS location_now, cl.disputed, cl.serial_over_1, cl.over_threshold,
      a.user_name AS counted_by, cl.round
    FROM count_lines cl JOIN locations l ON l.id = cl.location_id JOIN items i ON i.id = cl.item_id
    LEFT JOIN stock_records sr ON sr.id = cl.stock_record_id LEFT JOIN locations ln ON ln.id = sr.location_id LEFT JOIN accounts a ON a.id = cl.counted_by
    WHERE cl.sheet_id = ${sheetId} ${onlyVariances ? sql`AND ${HAS_VARIANCE}` : sql``}
    ORDER BY l.code COLLATE "C", coalesce(sr.stock_id, cl.stock_label) COLLATE "C", cl.id
    OFFSET ${offset} LIMIT ${limit}`,
  );
  return rows.map((r) => {
    const systemQty = Number(r.system_qty);
    const counted = Number(r.counted);
    const flags: ReviewLine['flags'] = [];
    if (r.disputed) flags.push('disputed');
    if (r.serial_over_1) flags.push('serialOver1');
    if (r.over_threshold) flags.push('overThreshold');
    return {
      lineId: r.id,
      location: r.location,
      stockId: r.stock_id,
      partNumber: r.part_number,
      description: r.description,
      lot: r.lot,
      serial: r.serial,
      found: r.found,
      notFound: r.not_found,
      status: r.status,
      systemQty,
      counted,
      variance: Number((BigInt(Math.round(counted * 10_000)) - BigInt(Math.round(systemQty * 10_000))).toString()) / 10_000,
      variancePct: variancePct(systemQty, counted),
      movedSince: r.moved,
      locationNow: r.location_now,
      flags,
      countedBy: r.counted_by,
      round: r.round,
    };
  });
}

export async function reviewSummary(db: Db, sheetId: string) {
  const [row] = await query<Record<string, string | number>>(
    db,
    sql`SELECT count(*)::int AS lines,
      count(*) FILTER (WHERE ${HAS_VARIANCE})::int AS with_variance,
      count(*) FILTER (WHERE cl.status = 'recount')::int AS recount,
      count(*) FILTER (WHERE cl.status = 'excluded')::int AS excluded,
      count(*) FILTER (WHERE cl.status = 'accepted')::int AS accepted,
      count(*) FILTER (WHERE ${MOVED})::int AS moved,
      coalesce(sum(cl.counted - cl.system_qty) FILTER (WHERE cl.status <> 'excluded'), 0)::text AS net,
      coalesce(sum(abs(cl.counted - cl.system_qty)) FILTER (WHERE cl.status <> 'excluded'), 0)::text AS abs,
      (SELECT count(*)::int FROM count_sheet_locations sl WHERE sl.sheet_id = ${sheetId} AND sl.visited_movement_id IS NULL) AS uncounted
    FROM count_lines cl WHERE cl.sheet_id = ${sheetId}`,
  );
  return {
    lines: Number(row!.lines),
    withVariance: Number(row!.with_variance),
    recount: Number(row!.recount),
    excluded: Number(row!.excluded),
    accepted: Number(row!.accepted),
    movedSince: Number(row!.moved),
    netVariance: Number(row!.net),
    absVariance: Number(row!.abs),
    uncountedLocations: Number(row!.uncounted),
  };
}

/** The chart of the review: per location, the sum of overages and of shortages (lines not excluded), the largest absolute variance first. */
export async function varianceByLocation(
  db: Db,
  sheetId: string,
  limit: number,
): Promise<Array<{ location: string; over: number; short: number }>> {
  const rows = await query<{ location: string; over: string; short: string }>(
    db,
    sql`SELECT l.code AS location, sum(greatest(cl.counted - cl.system_qty, 0))::text AS over, sum(least(cl.counted - cl.system_qty, 0))::text AS short
    FROM count_lines cl JOIN locations l ON l.id = cl.location_id
    WHERE cl.sheet_id = ${sheetId} AND cl.status <> 'excluded' AND cl.counted <> cl.system_qty
    GROUP BY l.code ORDER BY sum(abs(cl.counted - cl.system_qty)) DESC, l.code COLLATE "C" LIMIT ${limit}`,
  );
  return rows.map((r) => ({ location: r.location, over: Number(r.over), short: Number(r.short) }));
}

/** The locations of a sheet's lines due for a recount. */
export async function recountLocationIds(db: Db, sheetId: string): Promise<string[]> {
  const rows = await query<{ location_id: string }>(
    db,
    sql`SELECT DISTINCT location_id FROM count_lines WHERE sheet_id = ${sheetId} AND status = 'recount'`,
  );
  return rows.map((r) => r.location_id);
}

// ---------------------------------------------------------------------------------------------
// Posting

/** The lines a post books: the whole sheet, or one line (adjustWithCount). */
const postable = (sheetId: string, lineId?: string) =>
  sql`cl.sheet_id = ${sheetId} AND cl.status IN ('counted', 'accepted', 'recount') ${lineId ? sql`AND cl.id = ${lineId}` : sql``}`;

/** Every line the post would refuse, with every reason, in one statement. */
export async function invalidLines(db: Db, orgId: string, sheetId: string, lineId?: string): Promise<InvalidLine[]> {
  const rows = await query<{ id: string; stock_id: string | null; location: string; problems: string[] }>(
    db,
    sql`SELECT v.id, v.stock_id, v.location, v.problems FROM (
      SELECT cl.id, coalesce(sr.stock_id, cl.stock_label) AS stock_id, l.code AS location, array_remove(ARRAY[
        CASE WHEN cl.status = 'recount' THEN 'A blind recount by another counter is due' END,
        CASE WHEN cl.serial_over_1 AND cl.counted > 1 THEN 'A serial-tracked count above 1: recount or exclude it' END,
        CASE WHEN sr.id IS NOT NULL AND sr.quantity + (cl.counted - cl.system_qty) < 0
          THEN 'The stock holds ' || trim_scale(sr.quantity)::text || ' now: booking the variance ' || trim_scale(cl.counted - cl.system_qty)::text || ' would make it negative' END,
        CASE WHEN sr.id IS NOT NULL AND sr.serial IS NOT NULL AND sr.quantity + (cl.counted - cl.system_qty) > 1 THEN 'A serial-tracked record cannot hold more than 1' END,
        CASE WHEN cl.stock_record_id IS NULL AND cl.counted > 0 AND cl.stock_label IS NOT NULL
          AND EXISTS (SELECT 1 FROM stock_records o WHERE o.org_id = ${orgId} AND o.stock_id = cl.stock_label) THEN 'The stock id ' || cl.stock_label || ' is used by another record now' END,
        CASE WHEN cl.stock_record_id IS NULL AND cl.counted > 0 AND cl.serial IS NOT NULL
          AND EXISTS (SELECT 1 FROM stock_records o WHERE o.item_id = cl.item_id AND o.serial = cl.serial AND o.quantity > 0) THEN 'The serial ' || cl.serial || ' is on hand in another record now' END
      ]::text[], NULL) AS problems
      FROM count_lines cl JOIN locations l ON l.id = cl.location_id LEFT JOIN stock_records sr ON sr.id = cl.stock_record_id
      WHERE ${postable(sheetId, lineId)}
    ) v WHERE cardinality(v.problems) > 0
    ORDER BY v.location COLLATE "C", v.stock_id COLLATE "C"`,
  );
  return rows.map((r) => ({ lineId: r.id, stockId: r.stock_id, location: r.location, problems: r.problems }));
}

/**
 * Books the lines: counted stock records get counted minus the system quantity at the scan on top of
 * what they hold now, where they are now; only a found-elsewhere line (counted in another location of
 * the sheet's warehouse than its recorded one) moves its record to where it was found, and only if no
 * movement changed the record's location since the scan (a move after the count is newer news than the
 * count). Found stock becomes new records; each change one 'count' movement with the reason "physical count". Then the
 * lines are posted. Four statements for any number of lines. Returns the movements written and the
 * records created, and the stock ids and locations touched.
 */
export async function postLines(
  db: Db,
  actor: Actor,
  sheet: SheetRow,
  lineId?: string,
): Promise<{ movements: number; created: number; stockIds: string[]; locationIds: string[] }> {
  const audit = JSON.stringify(actor.audit);
  const who = sql`${actor.orgId}::text, ${actor.siteId}::text`;
  const booked = await query<{ stock_id: string; from_loc: string; to_loc: string }>(
    db,
    sql`WITH d AS (
      SELECT cl.id AS line_id, sr.id AS record_id, (cl.counted - cl.system_qty) AS delta, sr.location_id AS from_loc,
        CASE WHEN cl.found AND sr.warehouse_id = ${sheet.warehouse_id} AND cl.counted > 0
          AND NOT EXISTS (SELECT 1 FROM movements m WHERE m.stock_record_id = sr.id AND m.id > coalesce(cl.anchor_movement_id, 0)
            AND m.from_location_id IS DISTINCT FROM m.to_location_id)
        THEN cl.location_id ELSE sr.location_id END AS to_loc
      FROM count_lines cl JOIN stock_records sr ON sr.id = cl.stock_record_id
      WHERE ${postable(sheet.id, lineId)}
    ), upd AS (
      UPDATE stock_records sr SET quantity = sr.quantity + d.delta, location_id = d.to_loc, changed_at = now(), _rev = sr._rev + 1, audit = ${audit}::jsonb
      FROM d WHERE sr.id = d.record_id AND (d.delta <> 0 OR d.to_loc <> d.from_loc)
      RETURNING sr.id, sr.stock_id, sr.quantity, d.delta, d.from_loc, d.to_loc, d.line_id
    ), mv AS (
      INSERT INTO movements (org_id, site_id, stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, account_id, idempotency_key)
      SELECT ${who}, upd.id, 'count', upd.delta, upd.quantity, upd.from_loc, upd.to_loc, ${COUNT_REASON}, ${actor.accountId}::text, ${actor.idempotencyKey}::text FROM upd
      RETURNING id, stock_record_id
    ), done AS (
      UPDATE count_lines cl SET posted_movement_id = mv.id FROM mv WHERE cl.sheet_id = ${sheet.id} AND cl.stock_record_id = mv.stock_record_id RETURNING cl.id
    )
    SELECT upd.stock_id, upd.from_loc, upd.to_loc FROM upd`,
  );
  const created = await query<{ stock_id: string; location_id: string }>(
    db,
    sql`WITH f AS MATERIALIZED (
      SELECT cl.id AS line_id, gen_random_uuid()::text AS new_id, coalesce(cl.stock_label, 'S' || lpad(nextval('stock_id_seq')::text, 9, '0')) AS stock_id,
        cl.item_id, cl.location_id, cl.counted, cl.lot, cl.serial
      FROM count_lines cl WHERE ${postable(sheet.id, lineId)} AND cl.stock_record_id IS NULL AND cl.counted > 0
    ), ins AS (
      INSERT INTO stock_records (id, org_id, stock_id, item_id, warehouse_id, location_id, quantity, lot, serial, received_date, audit)
      SELECT f.new_id, ${actor.orgId}::text, f.stock_id, f.item_id, ${sheet.warehouse_id}::text, f.location_id, f.counted, f.lot, f.serial, current_date, ${audit}::jsonb FROM f
      RETURNING id
    ), mv AS (
      INSERT INTO movements (org_id, site_id, stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, account_id, idempotency_key)
      SELECT ${who}, f.new_id, 'count', f.counted, f.counted, NULL, f.location_id, ${COUNT_REASON}, ${actor.accountId}::text, ${actor.idempotencyKey}::text
      FROM f JOIN ins ON ins.id = f.new_id
      RETURNING id, stock_record_id
    ), done AS (
      UPDATE count_lines cl SET stock_record_id = f.new_id, posted_movement_id = mv.id FROM f JOIN mv ON mv.stock_record_id = f.new_id WHERE cl.id = f.line_id RETURNING cl.id
    )
    SELECT f.stock_id, f.location_id FROM f JOIN ins ON ins.id = f.new_id`,
  );
  await query(db, sql`UPDATE count_lines cl SET status = 'posted' WHERE ${postable(sheet.id, lineId)}`);
  return {
    movements: booked.length + created.length,
    created: created.length,
    stockIds: [...booked.map((b) => b.stock_id), ...created.map((c) => c.stock_id)],
    locationIds: [...new Set([...booked.flatMap((b) => [b.from_loc, b.to_loc]), ...created.map((c) => c.location_id)])],
  };
}

/** Lines of a sheet by id (the ones that exist on it). */
export async function decideLines(
  db: Db,
  sheetId: string,
  decision: LineDecision,
  lineIds: string[] | 'all',
): Promise<{ changed: number; named: number }> {
  const target = lineIds === 'all' ? sql`cl.status = 'counted'` : sql`cl.id = ANY(${arrayParam(lineIds)})`;
  const named =
    lineIds === 'all'
      ? 0
      : Number(
          (
            await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM count_lines cl WHERE cl.sheet_id = ${sheetId} AND ${target}`)
          )[0]?.n ?? 0,
        );
  // The statuses each decision changes are the contract's (DECIDED_FROM), the review screen's too.
  const from = sql`cl.status = ANY(${arrayParam(DECIDED_FROM.get(decision) ?? [])})`;
  const set =
    decision === 'accept'
      ? sql`status = 'accepted' WHERE ${from}`
      : decision === 'exclude'
        ? sql`status = 'excluded' WHERE ${from}`
        : sql`status = 'recount', round = cl.round + 1, previous_counter = cl.counted_by WHERE ${from}`;
  const rows = await query<{ id: string }>(
    db,
    sql`UPDATE count_lines cl SET ${set} AND cl.sheet_id = ${sheetId} AND ${target} RETURNING cl.id`,
  );
  return { changed: rows.length, named };
}
