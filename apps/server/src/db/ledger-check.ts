import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { query } from './sql.ts';

/** A stock record whose ledger disagrees with it. */
export interface LedgerMismatch {
  stockId: string;
  quantity: string;
  ledgerSum: string;
  lastQtyAfter: string | null;
  movements: number;
}

/**
 * The ledger invariant, checked over every stock record: its movements' qty_delta sum to its
 * quantity, the newest movement's qty_after is its quantity, and it has at least one movement.
 * Answers the records that break it (none, always); tests run it after every test.
 */
export async function ledgerMismatches(db: Db): Promise<LedgerMismatch[]> {
  return query<LedgerMismatch>(
    db,
    sql`SELECT sr.stock_id AS "stockId", sr.quantity::text AS quantity, coalesce(m.total, 0)::text AS "ledgerSum", m.last_after::text AS "lastQtyAfter",
      coalesce(m.n, 0)::int AS movements
    FROM stock_records sr
    LEFT JOIN (
      SELECT stock_record_id, sum(qty_delta) AS total, count(*) AS n, (array_agg(qty_after ORDER BY id DESC))[1] AS last_after
      FROM movements GROUP BY stock_record_id
    ) m ON m.stock_record_id = sr.id
    WHERE m.n IS NULL OR m.total <> sr.quantity OR m.last_after <> sr.quantity
    ORDER BY sr.stock_id`,
  );
}
