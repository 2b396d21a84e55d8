/*
 * CSV import plan of items (the runner is lib/csv-import.ts): upserted by part number, a new one
 * inserted, a known one updated, with the single save's rules and messages (service.ts). The barcodes
 * column replaces an item's aliases ('|' between them), when the column is there.
 */
import { auditStamp, newId } from '../../lib/audit.ts';
import { checkedOf, refuseRepeats, type Planner } from '../../lib/csv-import.ts';
import { dup } from '../../lib/errors.ts';
import { mapDuplicates } from '../../db/errors.ts';
import { activeCodes, barcodeOwners, itemsByPartNumber } from '../../lib/refs.ts';
import { deleteBarcodes, insertBarcodeRows, insertItemRows, itemsWithStock, updateItems } from './repository.ts';
import { barcodeTaken, noDepartment, trackingLocked, type ItemInput } from './service.ts';
import { tk } from '@floorhand/contract/i18n';

export const planItems: Planner = async (db, auth, sheet) => {
  const { problems } = sheet;
  const withBarcodes = sheet.header.includes('barcodes');
  const rows = checkedOf<ItemInput>(sheet);
  await refuseRepeats(rows, (v) => v.partNumber, 'partNumber', tk('This part number'), problems);
  const barcodeRows = rows.flatMap(({ row, value }) =>
    [...new Set(value.barcodes ?? [])].map((barcode) => ({ row, value: { barcode, partNumber: value.partNumber } })),
  );
  await refuseRepeats(barcodeRows, (v) => v.barcode, 'barcodes', tk('This barcode'), problems);
  const known = await itemsByPartNumber(
    db,
    auth.orgId,
    rows.map((r) => r.value.partNumber),
  );
  const departments = await activeCodes(
    db,
    auth.orgId,
    'department',
    rows.flatMap((r) => (r.value.department ? [r.value.department] : [])),
  );
  // A barcode may move between items of this file: it is free when its owner is here and lets it go.
  const newCodes = new Map(rows.map((r) => [r.value.partNumber, new Set(r.value.barcodes ?? [])]));
  const owners = await barcodeOwners(
    db,
    auth.orgId,
    barcodeRows.map((r) => r.value.barcode),
  );
  for (const { row, value } of barcodeRows) {
    const owner = owners.get(value.barcode);
    const released = owner !== undefined && withBarcodes && newCodes.has(owner) && !newCodes.get(owner)!.has(value.barcode);
    if (owner !== undefined && owner !== value.partNumber && !released)
      problems.push({ row, field: 'barcodes', message: barcodeTaken(value.barcode, owner) });
  }
  const changing = rows.filter(({ value }) => {
    const item = known.get(value.partNumber);
    return item && value.tracking && value.tracking !== item.tracking;
  });
  const stocked = await itemsWithStock(
    db,
    changing.map((r) => known.get(r.value.partNumber)!.id),
  );
  for (const { row, value } of rows) {
    if (value.department && !departments.has(value.department))
      problems.push({ row, field: 'department', message: noDepartment(value.department) });
    const item = known.get(value.partNumber);
    if (item && stocked.has(item.id)) problems.push({ row, field: 'tracking', message: trackingLocked(value.partNumber) });
  }
  const audit = auditStamp(auth.accountId);
  const all = rows.map((r) => ({ ...r.value, id: known.get(r.value.partNumber)?.id ?? newId(), fresh: !known.has(r.value.partNumber) }));
  const fresh = all.filter((r) => r.fresh);
  const old = all.filter((r) => !r.fresh);
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      await insertItemRows(
        tx,
        auth.orgId,
        audit,
        fresh.map((r) => ({
          id: r.id,
          partNumber: r.partNumber,
          description: r.description,
          uom: r.uom ?? 'EA',
          department: r.department ?? null,
          tracking: r.tracking ?? 'none',
          active: r.active ?? true,
        })),
      );
      await updateItems(tx, audit, old);
      if (withBarcodes) {
        await deleteBarcodes(
          tx,
          old.map((r) => r.id),
        );
        const codes = all.flatMap((r) => [...new Set(r.barcodes ?? [])].map((barcode) => ({ barcode, itemId: r.id })));
        await mapDuplicates(() => insertBarcodeRows(tx, auth.orgId, codes), {
          item_barcodes_org_barcode: () =>
            dup('Barcode', '(one of the file)', 'Another item took one of these barcodes meanwhile; import again'),
        });
      }
      return { inserted: fresh.length, updated: old.length };
    },
  };
};
