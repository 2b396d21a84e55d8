/*
 * The printable count sheet (counts/sheet/pdf): the sheet's locations in walk order, under each the
 * stock the system expects there now, and a blank "Counted" column to write in. The expected quantity
 * is printed only on a sheet that is not blind; on a blind sheet it is never selected from the database,
 * and neither is anything that would count it (stock ids, serials, rows per record).
 * Written by the shared PDF writer (lib/pdf.ts), in the language of the screen that asked (lib/language.ts).
 */
import { walkOrder } from '@floorhand/contract/walk-order';
import type { SheetState } from '@floorhand/contract/counts';
import { tk } from '@floorhand/contract/i18n';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { notFound } from '../../lib/errors.ts';
import type { Translate } from '../../lib/language.ts';
import { tablePdf, type PdfColumn } from '../../lib/pdf.ts';
import { printedRows, sheetById, sheetRow } from './sheet-repository.ts';

/** A sheet's state as the heading says it. */
const STATE_NAMES: ReadonlyMap<SheetState, string> = new Map<SheetState, string>([
  ['open', tk('open')],
  ['counting', tk('counting')],
  ['review', tk('in review')],
  ['posted', tk('posted')],
  ['cancelled', tk('cancelled')],
]);

/** The sheet as a PDF, its texts in the language of `t` (the request's). */
export async function sheetPdf(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/pdf'>,
  t: Translate,
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
        { header: t('Location'), width: 14 },
        { header: t('Stock id'), width: 13 },
        { header: t('Item'), width: 13 },
        { header: t('Description'), width: 20 },
        { header: t('Lot / serial'), width: 12 },
        { header: t('Expected'), width: 8, align: 'right' as const },
        { header: t('Counted'), width: 10 },
      ]
    : [
        { header: t('Location'), width: 16 },
        { header: t('Item'), width: 16 },
        { header: t('Description'), width: 48 },
        { header: t('Counted'), width: 10 },
      ];
  const nothingExpected = t('(nothing expected)');
  const cells = walkOrder(rows, (r) => r.location).map((r) =>
    withExpected
      ? [
          r.location,
          r.stock_id ?? '',
          r.part_number ?? '',
          r.description ?? (r.stock_id ? '' : nothingExpected),
          r.serial ?? r.lot ?? '',
          r.qty === null ? '' : formatQty(qtyUnits(r.qty)),
          '__________',
        ]
      : [r.location, r.part_number ?? '', r.description ?? '', '__________'],
  );
  const n = sheet.locationCount;
  const bytes = await tablePdf({
    title: t('Count sheet {{code}}', { code: sheet.code }),
    heading: [
      t('Warehouse {{warehouse}} · {{locations}} in walk order · {{state}}', {
        warehouse: sheet.warehouse,
        locations: n === 1 ? t('{{n}} location', { n }) : t('{{n}} locations', { n }),
        state: t(STATE_NAMES.get(sheet.state) ?? sheet.state),
      }),
      t('Counters: {{names}}', { names: sheet.assignees.length ? sheet.assignees.join(', ') : t('anyone with Physical Inventory') }),
      withExpected
        ? t('Expected quantities as of {{time}} UTC', { time: new Date().toISOString().slice(0, 16).replace('T', ' ') })
        : t('Blind count: write what you count; expected quantities are not printed'),
      ...(sheet.description ? [sheet.description] : []),
    ],
    columns,
    rows: cells,
    footer: [
      t('Stock found that is not listed: write its location, item, quantity and lot or serial below.'),
      '',
      t('Counted by ____________________   Date __________   Checked by ____________________'),
    ],
  });
  return { fileName: `${sheet.code}.pdf`, bytes };
}
