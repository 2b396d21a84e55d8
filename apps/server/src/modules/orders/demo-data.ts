/*
 * Orders demo data: a few sales orders and a work order in MAIN whose lines ask for items on hand
 * there, so the picking screen shows something to pick on a fresh start.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';
import { auditStamp, newId } from '../../lib/audit.ts';

const DEMO_ORDERS = [
  { type: 'sos', number: 'SO-1001', customer: 'Northwind Traders', dueDate: '2026-12-01', priority: 5, lines: 3 },
  { type: 'sos', number: 'SO-1002', customer: 'Contoso Ltd.', dueDate: '2026-12-02', priority: 3, lines: 2 },
  { type: 'sms', number: 'SM-2001', customer: 'East Annex', dueDate: '2026-12-03', priority: 1, lines: 2 },
  { type: 'wos', number: 'WO-3001', customer: 'Assembly line 2', dueDate: '2026-12-04', priority: 2, lines: 3 },
] as const;

export async function seedDemoOrders(db: Db, orgId: string): Promise<void> {
  const [main] = await query<{ id: string }>(db, sql`SELECT id FROM warehouses WHERE org_id = ${orgId} AND code = 'MAIN'`);
  if (!main) return;
  const needed = DEMO_ORDERS.reduce((n, o) => n + o.lines, 0);
  // Items of whole units with at least 2 on hand in MAIN, one per line.
  const items = await query<{ item_id: string }>(
    db,
    sql`SELECT sr.item_id FROM stock_records sr JOIN items i ON i.id = sr.item_id
    WHERE sr.org_id = ${orgId} AND sr.warehouse_id = ${main.id} AND sr.quantity >= 2 AND i.tracking = 'none' AND i.uom = 'EA'
    GROUP BY sr.item_id ORDER BY min(i.part_number) LIMIT ${needed}`,
  );
  const audit = JSON.stringify(auditStamp('system'));
  let at = 0;
  for (const o of DEMO_ORDERS) {
    const id = newId();
    await query(
      db,
      sql`INSERT INTO orders (id, org_id, type, number, status, warehouse_id, customer, due_date, priority, audit)
      VALUES (${id}, ${orgId}, ${o.type}, ${o.number}, 'open', ${main.id}, ${o.customer}, ${o.dueDate}::date, ${o.priority}, ${audit}::jsonb)`,
    );
    for (let line = 1; line <= o.lines && at < items.length; line++, at++) {
      await query(
        db,
        sql`INSERT INTO order_lines (id, org_id, order_id, line_no, item_id, qty) VALUES (${newId()}, ${orgId}, ${id}, ${line}, ${items[at]!.item_id}, ${line === 1 ? 2 : 1})`,
      );
    }
  }
}
