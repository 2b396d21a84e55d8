/*
 * The packing list of a package (package/packingList): a PDF from the shared writer (lib/pdf.ts,
 * tablePdf) with the package's barcode (Code 128 of its number, as on the package label), the order,
 * its customer and ship-to address, the package, and one row per order line in it (line, item,
 * description, what of the line is in this package and of how much ordered, lots or serials). It goes
 * in the box with the package label, which prints through the labels area (kind `package`); the
 * screen asks for both.
 */
import type { CallResponse } from '@floorhand/contract/api';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import { notFound } from '../../lib/errors.ts';
import { tablePdf } from '../../lib/pdf.ts';
import type { Db } from '../../db/client.ts';
import { orderById } from '../orders/queries.ts';
import { packageHead, packedLines } from './repository.ts';

const trimmed = (v: string | null) => (v === null ? null : String(Number(v)));

export async function packingList(
  db: Db,
  auth: AuthContext,
  body: Body<'package/packingList'>,
): Promise<CallResponse<'package/packingList'>> {
  const pkg = await packageHead(db, auth.orgId, body.packageId);
  if (!pkg) throw notFound(`No package '${body.packageId}' exists`);
  const order = (await orderById(db, auth.orgId, pkg.order_id))!;
  const lines = await packedLines(db, pkg.id);
  const records = lines.reduce((sum, l) => sum + l.records, 0);
  const shipTo = (order.ship_to ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const dims = [pkg.length, pkg.width, pkg.height].every((d) => d !== null)
    ? `${trimmed(pkg.length)} x ${trimmed(pkg.width)} x ${trimmed(pkg.height)} cm`
    : null;
  const heading = [
    `Order ${order.number} (${order.type.toUpperCase()})${order.due_date ? `, due ${order.due_date}` : ''}`,
    `Customer: ${order.customer ?? '-'}`,
    ...(shipTo.length > 0
      ? shipTo.map((l, i) => `${i === 0 ? 'Ship to: ' : '               '}${l}`)
      : ['Ship to: no address on the order']),
    `Package ${pkg.package_no}: ${[pkg.type, pkg.weight !== null ? `${trimmed(pkg.weight)} kg` : null, dims].filter(Boolean).join(', ')}`,
    ...(pkg.carrier || pkg.service || pkg.tracking
      ? [`Carrier: ${[pkg.carrier, pkg.service].filter(Boolean).join(' ') || '-'}${pkg.tracking ? `, tracking ${pkg.tracking}` : ''}`]
      : []),
    `Warehouse ${order.warehouse}, printed ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ];
  const pdf = await tablePdf({
    title: `Packing list ${pkg.package_no}`,
    heading,
    barcode: pkg.package_no,
    columns: [
      // The part number is what the packer checks: its column holds some 25 characters uncut (an e2e
      // part of 16 was cut at 18 %); a long description is the one cut.
      { header: 'Line', width: 5, align: 'right' },
      { header: 'Item', width: 28 },
      { header: 'Description', width: 27 },
      { header: 'Packed', width: 9, align: 'right' },
      { header: 'Ordered', width: 9, align: 'right' },
      { header: 'UoM', width: 5 },
      { header: 'Lot / serial', width: 17 },
    ],
    rows: lines.map((l) => [String(l.line_no), l.part_number, l.description, trimmed(l.qty)!, trimmed(l.ordered)!, l.uom, l.lots ?? '']),
    footer: [
      lines.length === 0
        ? 'The package is empty.'
        : `${lines.length} line${lines.length === 1 ? '' : 's'}, ${records} stock record${records === 1 ? '' : 's'} packed.`,
      '',
      'Packed by: ____________________    Checked by: ____________________',
    ],
  });
  return {
    pdf: Buffer.from(pdf).toString('base64'),
    fileName: `packing-list-${pkg.package_no.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`,
    records,
    lines: lines.length,
  };
}
