/*
 * The packing list of a package (package/packingList): a PDF from the shared writer (lib/pdf.ts,
 * tablePdf) with the package's barcode (Code 128 of its number, as on the package label), the order,
 * its customer and ship-to address, the package, and one row per order line in it (line, item,
 * description, what of the line is in this package and of how much ordered, lots or serials). It goes
 * in the box with the package label, which prints through the labels area (kind `package`); the
 * screen asks for both. Its texts are in the language of the screen that asked (lib/language.ts).
 */
import type { CallResponse } from '@floorhand/contract/api';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import { notFound } from '../../lib/errors.ts';
import type { Translate } from '../../lib/language.ts';
import { tablePdf } from '../../lib/pdf.ts';
import type { Db } from '../../db/client.ts';
import { orderById } from '../orders/queries.ts';
import { packageHead, packedLines } from './repository.ts';

const trimmed = (v: string | null) => (v === null ? null : String(Number(v)));

export async function packingList(
  db: Db,
  auth: AuthContext,
  body: Body<'package/packingList'>,
  t: Translate,
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
  const orderLine = t('Order {{number}} ({{type}})', { number: order.number, type: order.type.toUpperCase() });
  const shipToLabel = t('Ship to:');
  const carrier = [pkg.carrier, pkg.service].filter(Boolean).join(' ') || '-';
  const heading = [
    order.due_date ? t('{{order}}, due {{date}}', { order: orderLine, date: order.due_date }) : orderLine,
    t('Customer: {{customer}}', { customer: order.customer ?? '-' }),
    // The address's further lines under its first, past the label.
    ...(shipTo.length > 0
      ? shipTo.map((l, i) => `${i === 0 ? shipToLabel : ' '.repeat(shipToLabel.length * 2)} ${l}`)
      : [t('Ship to: no address on the order')]),
    t('Package {{number}}: {{what}}', {
      number: pkg.package_no,
      what: [pkg.type, pkg.weight !== null ? `${trimmed(pkg.weight)} kg` : null, dims].filter(Boolean).join(', '),
    }),
    ...(pkg.carrier || pkg.service || pkg.tracking
      ? [
          pkg.tracking
            ? t('Carrier: {{carrier}}, tracking {{tracking}}', { carrier, tracking: pkg.tracking })
            : t('Carrier: {{carrier}}', { carrier }),
        ]
      : []),
    t('Warehouse {{warehouse}}, printed {{time}} UTC', {
      warehouse: order.warehouse,
      time: new Date().toISOString().slice(0, 16).replace('T', ' '),
    }),
  ];
  const pdf = await tablePdf({
    title: t('Packing list {{number}}', { number: pkg.package_no }),
    heading,
    barcode: pkg.package_no,
    columns: [
      // The part number is what the packer checks: its column holds some 25 characters uncut (an e2e
      // part of 16 was cut at 18 %); a long description is the one cut.
      { header: t('Line'), width: 5, align: 'right' },
      { header: t('Item'), width: 28 },
      { header: t('Description'), width: 27 },
      { header: t('Packed'), width: 9, align: 'right' },
      { header: t('Ordered'), width: 9, align: 'right' },
      { header: t('UoM'), width: 5 },
      { header: t('Lot / serial'), width: 17 },
    ],
    rows: lines.map((l) => [String(l.line_no), l.part_number, l.description, trimmed(l.qty)!, trimmed(l.ordered)!, l.uom, l.lots ?? '']),
    footer: [
      lines.length === 0
        ? t('The package is empty.')
        : t('{{lines}}, {{records}} packed.', {
            lines: lines.length === 1 ? t('{{n}} line', { n: 1 }) : t('{{n}} lines', { n: lines.length }),
            records: records === 1 ? t('{{n}} stock record', { n: 1 }) : t('{{n}} stock records', { n: records }),
          }),
      '',
      t('Packed by: ____________________    Checked by: ____________________'),
    ],
  });
  return {
    pdf: Buffer.from(pdf).toString('base64'),
    fileName: `packing-list-${pkg.package_no.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`,
    records,
    lines: lines.length,
  };
}
