/*
 * Physical inventory demo data: open blind count sheets of aisle A, bays 01 and 02 of MAIN, that anyone
 * may count. Sheets only: every count comes from a scan. Neither names a counter: a named counter of a
 * blind sheet sees no stock quantity of its locations anywhere (counts/blind.ts), and the demo clerk
 * is the account that looks up and moves the demo stock (aisle A included) in the demo and the tests.
 */
import { sql } from 'drizzle-orm';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';
import { nextSheetCode } from './sheet-repository.ts';

export async function seedDemoCounts(db: Db, orgId: string, adminId: string): Promise<void> {
  const audit = JSON.stringify(auditStamp(adminId));
  const sheets = [
    { pattern: 'A-01-%', description: 'Aisle A bay 01: cycle count', assignees: [] as string[] },
    { pattern: 'A-02-%', description: 'Aisle A bay 02: spot check', assignees: [] as string[] },
  ];
  for (const s of sheets) {
    const id = newId();
    const code = await nextSheetCode(db);
    await query(
      db,
      sql`INSERT INTO count_sheets (id, org_id, code, warehouse_id, description, blind, assignees, created_by, audit)
      SELECT ${id}, ${orgId}, ${code}, w.id, ${s.description}, true, ${JSON.stringify(s.assignees)}::jsonb, ${adminId}, ${audit}::jsonb
      FROM warehouses w WHERE w.org_id = ${orgId} AND w.code = 'MAIN'`,
    );
    await query(
      db,
      sql`INSERT INTO count_sheet_locations (org_id, sheet_id, location_id)
      SELECT ${orgId}, ${id}, l.id FROM locations l JOIN warehouses w ON w.id = l.warehouse_id
      WHERE w.org_id = ${orgId} AND w.code = 'MAIN' AND l.code LIKE ${s.pattern}`,
    );
  }
}
