/*
 * CSV import plan of orders (import/csv entity `orders`; the runner is lib/csv-import.ts). One row per
 * order line; the rows of one type and number are one order, saved as order/save saves it: created,
 * or the stored one updated (its lines become the file's, matched by lineNo; lines left out are removed
 * unless picked), never a second one. Header cells may be given on one row of the order only; an
 * empty one keeps the stored value on update. Every row is checked before anything is written, and
 * every problem is reported at once with its row.
 */
import { ORDER_CSV_HEADER_FIELDS, orderInputSchema, type OrderType } from '@floorhand/contract/orders';
import { checkedOf, type Planner, type Problem } from '../../lib/csv-import.ts';
import type { Db } from '../../db/client.ts';
import { linesOf, type LineRow, type OrderRow } from './queries.ts';
import { ordersByTypeAndNumber, ordersWithActivePicks } from './repository.ts';
import {
  emitOrdersChanged,
  loadOrderRefs,
  orderProblems,
  pickStatusesOf,
  updateProblems,
  writeOrder,
  type ParsedOrder,
} from './service.ts';
import { tk } from '@floorhand/contract/i18n';

/** A row as the record engine converted it. */
interface OrderCsvRow {
  orderType: OrderType;
  orderNumber: string;
  status?: string;
  warehouse?: string;
  customer?: string;
  dueDate?: string;
  priority?: number;
  notes?: string;
  stagingLocation?: string;
  department?: string;
  lineNo?: number;
  partNumber: string;
  qty: number;
}
type HeaderField = (typeof ORDER_CSV_HEADER_FIELDS)[number];

/** The rows of one order in the file. */
interface Group {
  type: OrderType;
  number: string;
  rows: Array<{ row: number; value: OrderCsvRow }>;
  /** Header values and the row that gave each first. */
  header: Map<HeaderField, { value: string | number; row: number }>;
}

/** Zod's path names of the order back to the file's columns. */
const COLUMN_OF = new Map<string, string>([
  ['type', 'orderType'],
  ['number', 'orderNumber'],
]);

const orderKey = (type: string, number: string) => `${type}\u0000${number}`;

/** Stored orders of these types and numbers, keyed by orderKey, with their lines and whether they hold picked stock. */
async function storedOrders(db: Db, orgId: string, groups: readonly Group[]) {
  const found = new Map<string, { order: OrderRow; lines: LineRow[]; hasPicks: boolean }>();
  if (groups.length === 0) return found;
  const orders = await ordersByTypeAndNumber(db, orgId, groups);
  if (orders.length === 0) return found;
  const ids = orders.map((o) => o.id);
  const lines = await linesOf(db, ids);
  const picked = new Set(await ordersWithActivePicks(db, ids));
  for (const order of orders) {
    found.set(orderKey(order.type, order.number), {
      order,
      lines: lines.filter((l) => l.order_id === order.id),
      hasPicks: picked.has(order.id),
    });
  }
  return found;
}

export const planOrders: Planner = async (db, auth, sheet) => {
  const { problems } = sheet;
  const rows = checkedOf<OrderCsvRow>(sheet);

  // Rows grouped into orders; an order's header values must agree between its rows.
  const groups = new Map<string, Group>();
  for (const { row, value } of rows) {
    const key = orderKey(value.orderType, value.orderNumber);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { type: value.orderType, number: value.orderNumber, rows: [], header: new Map() }));
    group.rows.push({ row, value });
    for (const field of ORDER_CSV_HEADER_FIELDS) {
      const cell = value[field];
      if (cell === undefined) continue;
      const first = group.header.get(field);
      if (!first) group.header.set(field, { value: cell, row });
      else if (first.value !== cell)
        problems.push({
          row,
          field,
          message: tk(`The order '${value.orderNumber}' has ${field} '${first.value}' in row ${first.row}: one order has one ${field}`),
        });
    }
  }

  const stored = await storedOrders(db, auth.orgId, [...groups.values()]);
  const parsed: Array<{ group: Group; order: ParsedOrder; lineRows: Map<number, number> }> = [];
  for (const group of groups.values()) {
    const firstRow = group.rows[0]!.row;
    const numbered = group.rows.filter((r) => r.value.lineNo !== undefined).length;
    if (numbered > 0 && numbered < group.rows.length) {
      for (const r of group.rows)
        if (r.value.lineNo === undefined)
          problems.push({
            row: r.row,
            field: 'lineNo',
            message: tk(`Give lineNo on every line of the order '${group.number}' or on none`),
          });
      continue;
    }
    const lines = group.rows.map((r, i) => ({ lineNo: r.value.lineNo ?? i + 1, partNumber: r.value.partNumber, qty: r.value.qty }));
    const lineRows = new Map<number, number>();
    group.rows.forEach((r, i) => {
      if (!lineRows.has(lines[i]!.lineNo)) lineRows.set(lines[i]!.lineNo, r.row);
    });
    const known = stored.get(orderKey(group.type, group.number))?.order;
    // An empty header cell keeps the stored value (status excepted: left out, the order's status is kept and settled).
    const kept: Record<string, unknown> = known
      ? {
          warehouse: known.warehouse,
          customer: known.customer ?? undefined,
          // Not a CSV column: a re-import keeps the address the API gave.
          shipTo: known.ship_to ?? undefined,
          dueDate: known.due_date ?? undefined,
          priority: known.priority,
          notes: known.notes ?? undefined,
          stagingLocation: known.staging_location ?? undefined,
          department: known.department ?? undefined,
        }
      : {};
    const header = Object.fromEntries([...group.header].map(([field, v]) => [field, v.value]));
    const candidate = { ...kept, ...header, type: group.type, number: group.number, lines };
    const result = orderInputSchema.safeParse(candidate);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const [first, index, field] = issue.path;
        if (first === 'lines' && typeof index === 'number') {
          problems.push({ row: group.rows[index]?.row ?? firstRow, field: String(field ?? 'lineNo'), message: issue.message });
        } else {
          const name = String(first ?? 'orderNumber');
          const column = COLUMN_OF.get(name) ?? name;
          const where = group.header.get(column as HeaderField)?.row ?? firstRow;
          const message =
            name === 'warehouse' && issue.code === 'invalid_type'
              ? tk(`The new order '${group.number}' needs its warehouse`)
              : issue.message;
          problems.push({ row: where, field: column, message });
        }
      }
      continue;
    }
    parsed.push({ group, order: result.data, lineRows });
  }

  const refs = await loadOrderRefs(
    db,
    auth.orgId,
    parsed.map((p) => p.order),
  );
  const planned: ParsedOrder[] = [];
  for (const { group, order, lineRows } of parsed) {
    const firstRow = group.rows[0]!.row;
    const rowOf = (p: { field: string; lineNo?: number }) =>
      p.lineNo !== undefined ? (lineRows.get(p.lineNo) ?? firstRow) : (group.header.get(p.field as HeaderField)?.row ?? firstRow);
    const known = stored.get(orderKey(order.type, order.number));
    const found = [...orderProblems(order, refs), ...(known ? updateProblems(known.order, known.lines, known.hasPicks, order, refs) : [])];
    // A line given twice is reported on its second row (and third...), not on the first.
    const repeats = new Map<number, number>();
    for (const p of found) {
      if (p.field === 'lineNo' && p.lineNo !== undefined) {
        const n = (repeats.get(p.lineNo) ?? 0) + 1;
        repeats.set(p.lineNo, n);
        const again = group.rows.filter((r) => r.value.lineNo === p.lineNo)[n];
        problems.push({ row: again?.row ?? rowOf(p), field: p.field, message: p.message });
      } else problems.push({ row: rowOf(p), field: p.field, message: p.message } satisfies Problem);
    }
    if (found.length === 0) planned.push(order);
  }

  const ids: string[] = [];
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      const statuses = new Map<OrderType, Awaited<ReturnType<typeof pickStatusesOf>>>();
      for (const order of planned)
        if (!statuses.has(order.type)) statuses.set(order.type, await pickStatusesOf(tx, auth.siteId, order.type));
      let inserted = 0;
      for (const order of planned) {
        const done = await writeOrder(tx, auth, order, refs, statuses.get(order.type)!);
        if (done.created) inserted++;
        ids.push(done.orderId);
      }
      return { inserted, updated: planned.length - inserted };
    },
    afterCommit: (deps) => emitOrdersChanged(deps, auth.orgId, ids),
  };
};
