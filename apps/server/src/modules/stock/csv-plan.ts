/*
 * CSV import plan of stock (the runner is lib/csv-import.ts): each row is a receipt that makes a new
 * stock record with its first movement (receive), resolved and written as stock/receive does. A stock
 * id already in use is refused; a row without one gets a server-made id.
 */
import { checkedOf, refuseRepeats, type Planner } from '../../lib/csv-import.ts';
import { dup } from '../../lib/errors.ts';
import { mapDuplicates } from '../../db/errors.ts';
import { serialsOnHand, takenStockIds } from './repository.ts';
import { loadReceiptRefs, resolveReceipt, writeReceipts, type ReceiptInput, type ResolvedReceipt } from './service.ts';
import { actorOf } from './ledger.ts';
import { tk } from '@floorhand/contract/i18n';

export const planStock: Planner = async (db, auth, sheet, idempotencyKey) => {
  const { problems } = sheet;
  const rows = checkedOf<ReceiptInput>(sheet);
  await refuseRepeats(rows, (v) => v.stockId, 'stockId', tk('This stock id'), problems);
  await refuseRepeats(
    rows,
    (v) => (v.serial ? `${v.partNumber}\u0000${v.serial}` : undefined),
    'serial',
    tk('This serial of the part'),
    problems,
  );
  const refs = await loadReceiptRefs(
    db,
    auth.orgId,
    rows.map((r) => r.value),
  );
  const taken = await takenStockIds(
    db,
    auth.orgId,
    rows.flatMap((r) => (r.value.stockId ? [r.value.stockId] : [])),
  );
  const serialRows = rows.filter((r) => r.value.serial && refs.items.has(r.value.partNumber));
  const onHand = await serialsOnHand(
    db,
    serialRows.map((r) => ({ itemId: refs.items.get(r.value.partNumber)!.id, serial: r.value.serial! })),
  );
  const receipts: ResolvedReceipt[] = [];
  for (const { row, value } of rows) {
    if (value.stockId && taken.has(value.stockId))
      problems.push({ row, field: 'stockId', message: dup('Stock Record', value.stockId).message });
    const item = refs.items.get(value.partNumber);
    if (item && value.serial && onHand.has(`${item.id}\u0000${value.serial}`)) {
      problems.push({ row, field: 'serial', message: tk(`The serial '${value.serial}' of '${value.partNumber}' is on hand already`) });
    }
    const resolved = resolveReceipt(value, refs);
    if ('errors' in resolved)
      for (const [field, messages] of Object.entries(resolved.errors))
        for (const message of messages) problems.push({ row, field, message });
    else receipts.push(resolved.stock);
  }
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      const actor = actorOf(auth, idempotencyKey);
      await mapDuplicates(() => writeReceipts(tx, actor, receipts), {
        stock_records_org_stock_id: () =>
          dup('Stock Record', '(one of the file)', 'A stock id of the file was taken meanwhile; import again'),
        stock_records_item_serial: () => dup('Serial', '(one of the file)', 'A serial of the file came on hand meanwhile; import again'),
      });
      return {
        inserted: receipts.length,
        updated: 0,
        changed: { stockIds: [], locationIds: [...new Set(receipts.map((r) => r.locationId))] },
      };
    },
  };
};
