/*
 * The packing list of a package (package/packingList): a PDF from the shared writer (lib/pdf.ts,
 * tablePdf) with the order, its customer, the package and what is in it (line, item, description,
 * quantity, lot or serial). It goes in the box with the package label, which prints through the
 * labels area (kind `package`); the screen asks for both.
 */
import { sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import { notFound } from '../../lib/errors.ts';
import { tablePdf } from '../../lib/pdf.ts';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';
import { orderById } from '../orders/repository.ts';
import type { PackageRow } from './service.ts';

interface PackedRow {
  line_no: number;
  part_number: string;
  description: string;
  qty: string;
  uom: string;
  lot: string | null;
  serial: string | null;
  stock_id: string;
}

/** What the packing list says of its package (a package row less its state of record). */
type PackageHead = Omit<PackageRow, 'status' | 'shipped_at' | 'rev' | 'audit'> & { status: string };

const trimmed = (v: string | null) => (v === null ? null : String(Number(v)));

export async function packingList(db: Db, auth: AuthContext, body: Body<'package/packingList'>): Promise<CallResponse<'package/packingList'>> {
  const [pkg] = await query<PackageHead>(
    db,
    sql`SELECT id, order_id, package_no, type, weight::text AS weight, length::text AS length, width::text AS width, height::text AS height, carrier, service, tracking, status
    FROM packages WHERE org_id = ${auth.orgId} AND id = ${body.packageId}`,
  );
  if (!pkg) throw notFound(`No package '${body.packageId}' exists`);
  const order = (await orderById(db, auth.orgId, pkg.order_id))!;
  const rows = await query<PackedRow>(
    db,
    sql`SELECT ol.line_no, i.part_number, i.description, p.qty::text AS qty, i.uom, sr.lot, sr.serial, sr.stock_id
    FROM order_picks p JOIN order_lines ol ON ol.id = p.line_id JOIN stock_records sr ON sr.id = p.stock_record_id JOIN items i ON i.id = sr.item_id
    WHERE p.package_id = ${pkg.id} AND p.state <> 'unpicked' ORDER BY ol.line_no, sr.stock_id`,
  );
  const dims = [pkg.length, pkg.width, pkg.height].every((d) => d !== null) ? `${trimmed(pkg.length)} x ${trimmed(pkg.width)} x ${trimmed(pkg.height)} cm` : null;
  const heading = [
    `Order ${order.number} (${order.type.toUpperCase()})${order.due_date ? `, due ${order.due_date}` : ''}`,
    `Customer: ${order.customer ?? '-'}`,
    `Package ${pkg.package_no}: ${[pkg.type, pkg.weight !== null ? `${trimmed(pkg.weight)} kg` : null, dims].filter(Boolean).join(', ')}`,
    ...(pkg.carrier || pkg.tracking ? [`Carrier: ${[pkg.carrier, pkg.service].filter(Boolean).join(' ') || '-'}${pkg.tracking ? `, tracking ${pkg.tracking}` : ''}`] : []),
    `Warehouse ${order.warehouse}, printed ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ];
  const pdf = await tablePdf({
    title: `Packing list ${pkg.package_no}`,
    heading,
    columns: [
      { header: 'Line', width: 6, align: 'right' },
      { header: 'Item', width: 18 },
      { header: 'Description', width: 36 },
      { header: 'Qty', width: 10, align: 'right' },
      { header: 'UoM', width: 6 },
      { header: 'Lot / serial', width: 14 },
      { header: 'Stock id', width: 12 },
    ],
    rows: rows.map((r) => [String(r.line_no), r.part_number, r.description, String(Number(r.qty)), r.uom, [r.lot, r.serial].filter(Boolean).join(' / '), r.stock_id]),
    footer: [rows.length === 0 ? 'The package is empty.' : `${rows.length} record${rows.length === 1 ? '' : 's'} packed.`, '', 'Packed by: ____________________    Checked by: ____________________'],
  });
  return { pdf: Buffer.from(pdf).toString('base64'), fileName: `packing-list-${pkg.package_no.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`, records: rows.length };
}
