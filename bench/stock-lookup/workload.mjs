// The stock lookup benches' workload, shared by run.mjs and tail.mjs: what people scan, and the
// rows statement the plain client runs beside the API.

/** What people scan, in a fixed mix: 40 % stock ids, 30 % part numbers, 15 % barcodes, 15 % location codes. */
export async function sampleValues(pool) {
  const q = async (text, n) => (await pool.query(text, [n])).rows.map((r) => r.v);
  const values = [
    ...(await q(`SELECT stock_id AS v FROM stock_records WHERE org_id = 'demo' AND quantity > 0 ORDER BY md5(id) LIMIT $1`, 400)),
    ...(await q(`SELECT part_number AS v FROM items WHERE org_id = 'demo' ORDER BY md5(id) LIMIT $1`, 300)),
    ...(await q(`SELECT barcode AS v FROM item_barcodes WHERE org_id = 'demo' ORDER BY md5(barcode) LIMIT $1`, 150)),
    ...(await q(`SELECT code AS v FROM locations WHERE org_id = 'demo' ORDER BY md5(id) LIMIT $1`, 150)),
  ];
  // Interleave deterministically so every stretch of the run has the same mix.
  return values
    .map((v, i) => ({ v, k: (i * 7919) % values.length }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.v);
}

// The rows stock/lookup reads (apps/server/src/modules/stock/lookup-repository.ts): the value's
// matches (a stock id, location, part number, barcode or order number; an order's stock is what was
// picked for it), then their stock with item, location and warehouse, sorted by location, 500 rows at
// most. Each record's columns as they are, where the server's statement writes them as JSON.
export const LOOKUP = `WITH m AS (SELECT 'stockId' AS kind, id FROM stock_records WHERE org_id = $1 AND stock_id = $2
    UNION ALL SELECT 'location', id FROM locations WHERE org_id = $1 AND code = $2
    UNION ALL SELECT 'partNumber', id FROM items WHERE org_id = $1 AND part_number = $2
    UNION ALL SELECT 'barcode', item_id FROM item_barcodes WHERE org_id = $1 AND barcode = $2
    UNION ALL SELECT 'order', id FROM orders WHERE org_id = $1 AND number = $2)
SELECT sr.id, sr.stock_id, sr._rev AS rev, sr.quantity::text AS quantity, sr.condition_code, sr.lot, sr.serial, sr.cert_source,
  to_char(sr.received_date, 'YYYY-MM-DD') AS received_date, to_char(sr.changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS changed_at,
  i.id AS item_id, i.part_number, i.description, i.uom, i.department, i.tracking, w.id AS warehouse_id, w.code AS warehouse, l.id AS location_id, l.code AS location,
  (SELECT string_agg(DISTINCT kind, ',') FROM m) AS matched
FROM stock_records sr
CROSS JOIN LATERAL (SELECT id, part_number, description, uom, department, tracking FROM items WHERE id = sr.item_id LIMIT 1) i
CROSS JOIN LATERAL (SELECT id, code FROM locations WHERE id = sr.location_id LIMIT 1) l
CROSS JOIN LATERAL (SELECT id, code FROM warehouses WHERE id = sr.warehouse_id LIMIT 1) w
WHERE sr.org_id = $1 AND (sr.id = ANY(ARRAY(SELECT id FROM m WHERE kind IN ('stockId'))) OR sr.location_id = ANY(ARRAY(SELECT id FROM m WHERE kind IN ('location')))
  OR sr.item_id = ANY(ARRAY(SELECT id FROM m WHERE kind IN ('partNumber', 'barcode')))
  OR sr.id = ANY(ARRAY(SELECT op.stock_record_id FROM order_picks op WHERE op.order_id IN (SELECT id FROM m WHERE kind = 'order') AND op.state <> 'unpicked'))) AND sr.quantity > 0
ORDER BY w.code, l.code, i.part_number, sr.stock_id LIMIT 500`;
