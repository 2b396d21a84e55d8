/*
 * The printable count sheet (counts/sheet/pdf): the sheet's locations in walk order, under each the
 * stock the system expects there now, and a blank "Counted" column to write in. The expected quantity
 * is printed only on a sheet that is not blind; on a blind sheet it is never selected from the database,
 * and neither is anything that would count it (stock ids, serials, rows per record).
 * Written by the shared PDF writer (lib/pdf.ts).
 */
import { walkOrder } from '@floorhand/contract/walk-order';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { notFound } from '../../lib/errors.ts';
import { tablePdf, type PdfColumn } from '../../lib/pdf.ts';
import { printedRows, sheetById, sheetRow } from './sheet-repository.ts';

export async function sheetPdf(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/pdf'>,
): Promise<{ fileName: string; bytes: Uint8Array }> {
  const row = await sheetRow(deps.db, auth.orgId, body.sheetId);
  const sheet = row && (await sheetById(deps.db, auth.orgId, row.id));
  if (!row || !sheet) throw notFound(`No count sheet '${body.sheetId}' exists`);
  // In review the sheet is printed for its recount, which is blind on every sheet.
  const withExpected = !row.blind && row.state !== 'review';
  // A blind sheet prints what to look for, an item per location, and nothing that counts it (printedRows).
  const rows = await printedRows(deps.db, row.id, withExpected);
  const columns: PdfColumn[] = withExpected
    ? [
        { header: 'Location', width: 14 },
        { header: 'Stock id', width: 13 },
        { header: 'Item', width: 13 },
        { header: 'Description', width: 20 },
        { header: 'Lot / serial', width: 12 },
        { header: 'Expected', width: 8, align: 'right' as const },
        { header: 'Counted', width: 10 },
      ]
    : [
        { header: 'Location', width: 16 },
        { header: 'Item', width: 16 },
        { header: 'Description', width: 48 },
        { header: 'Counted', width: 10 },
      ];
  const cells = walkOrder(rows, (r) => r.location).map((r) =>
    withExpected
      ? [
          r.location,
          r.stock_id ?? '',
          r.part_number ?? '',
          r.description ?? (r.stock_id ? '' : '(nothing expected)'),
          r.serial ?? r.lot ?? '',
          r.qty === null ? '' : formatQty(qtyUnits(r.qty)),
          '__________',
        ]
      : [r.location, r.part_number ?? '', r.description ?? '', '__________'],
  );
  const bytes = await tablePdf({
    title: `Count sheet ${sheet.code}`,
    heading: [
      `Warehouse ${sheet.warehouse} · ${sheet.locationCount} location${sheet.locationCount === 1 ? '' : 's'} in walk order · ${sheet.state}`,
      `Counters: ${sheet.assignees.length ? sheet.assignees.join(', ') : 'anyone with Physical Inventory'}`,
      withExpected
        ? `Expected quantities as of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`
        : 'Blind count: write what you count; expected quantities are not printed',
      ...(sheet.description ? [sheet.description] : []),
    ],
    columns,
    rows: cells,
    footer: [
      'Stock found that is not listed: write its location, item, quantity and lot or serial below.',
      '',
      'Counted by ____________________   Date __________   Checked by ____________________',
    ],
  });
  return { fileName: `${sheet.code}.pdf`, bytes };
}
