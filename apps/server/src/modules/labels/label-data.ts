import {
  kindTitle,
  LABEL_FIELDS,
  LABELS_PER_JOB_MAX,
  mayPrintAnyBadge,
  type LabelKind,
  type LabelSource,
} from '@floorhand/contract/labels';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Db } from '../../db/client.ts';
import { badInput, forbidden, notFound } from '../../lib/errors.ts';
import { blindPlaces, refuseBlind } from '../../lib/blind-places.ts';
import * as data from './label-data-repository.ts';
import { tk } from '@floorhand/contract/i18n';

// Each label's data (docs/labels.md), read from the organisation's records, never the request's.

// ── label data ──

export const today = () => new Date().toISOString().slice(0, 10);

export function checkSource(source: LabelSource): void {
  const given = (['stockIds', 'locationIds', 'locationRange', 'accountIds', 'rows', 'test'] as const).filter(
    (k) => source[k] !== undefined,
  );
  if (given.length !== 1)
    throw badInput('Say what to print: exactly one of stockIds, locationIds, locationRange, accountIds, rows or test');
}

export const OTHERS_BADGE = tk(
  "Only administrators and timekeepers may print another person's badge (a badge punches the clock); you may print your own",
);

/** A staff badge punches without a PIN: one's own, or anyone's for administrators and timekeepers. */
export function refuseOthersBadges(auth: AuthContext, source: LabelSource): void {
  if (source.accountIds?.some((id) => id !== auth.accountId) && !mayPrintAnyBadge(auth.perms)) throw forbidden(OTHERS_BADGE);
}

/** The value of a row's field, trimmed; an empty one is absent. */
const field = (row: ReadonlyMap<string, string>, name: string): string | undefined => row.get(name)?.trim() || undefined;
/** A quantity of the database (numeric text) as a label prints it. */
const qtyText = (q: string): string => String(Number(q));

/**
 * Labels from rows (other areas' pick, traveller and package labels): each row names its record
 * (order and line, order and task, package) and every value of the label is read from the
 * organisation's records, never the request's; the kinds made of one record (stock, location, staff)
 * take no rows at all.
 */
async function orderLabelRows(
  db: Db,
  auth: AuthContext,
  kind: LabelKind,
  rows: Array<Map<string, string>>,
): Promise<Array<Map<string, string>>> {
  if (kind === 'pick') return pickRows(db, auth, rows);
  if (kind === 'orderTraveller') return travellerRows(db, auth, rows);
  if (kind === 'package') return packageRows(db, auth, rows);
  const from = kind === 'stock' ? 'stockIds' : kind === 'loc' ? 'locationIds or locationRange' : 'accountIds';
  throw badInput(`A ${kindTitle(kind)} label prints its record as it is: say which (${from}), not the label's values`);
}

/**
 * Pick labels: `orderId` (with `orderType` when two types share the number) and `line` name an order
 * line of the organisation; its part, description and unit are the line's item. With `stockId` the
 * record must be picked for that line: the quantity is what was picked of it, the place where it is,
 * its lot and serial. Without, the label is the line's ticket: the quantity the line asks for.
 */
async function pickRows(db: Db, auth: AuthContext, rows: Array<Map<string, string>>): Promise<Array<Map<string, string>>> {
  const numbers = [...new Set(rows.map((r) => field(r, 'orderId') ?? ''))];
  const stockIds = [...new Set(rows.map((r) => field(r, 'stockId')).filter((s): s is string => s !== undefined))];
  const [lines, stock, picks] = await Promise.all([
    data.orderLinesByNumbers(db, auth.orgId, numbers),
    stockIds.length ? data.stockByIds(db, auth.orgId, stockIds) : [],
    stockIds.length ? data.picksOfStock(db, auth.orgId, stockIds) : [],
  ]);
  const stockById = new Map(stock.map((r) => [r.stockId, r]));
  return rows.map((row) => {
    const orderId = field(row, 'orderId');
    const lineNo = field(row, 'line');
    if (!orderId || !lineNo) throw badInput('A pick label names its order line: orderId and line');
    const type = field(row, 'orderType');
    const found = lines.filter((l) => l.number === orderId && String(l.line_no) === lineNo && (!type || l.type === type));
    if (!found.length) throw notFound(`No line ${lineNo} of order '${orderId}'`);
    if (found.length > 1) throw badInput(`Orders of several types are numbered '${orderId}'; say its orderType`);
    const line = found[0]!;
    const out = new Map([
      ['orderId', line.number],
      ['orderType', line.type],
      ['line', String(line.line_no)],
      ['partNumber', line.part_number],
      ['description', line.description],
      ['uom', line.uom],
      ['qty', qtyText(line.qty)],
      ['stockId', ''],
      ['location', ''],
      ['lot', ''],
      ['serial', ''],
      ['picker', ''],
      ['printedDate', today()],
    ]);
    const stockId = field(row, 'stockId');
    if (stockId) {
      const record = stockById.get(stockId);
      if (!record) throw notFound(`No stock record '${stockId}'`);
      const picked = picks.find(
        (p) => p.stock_id === stockId && p.number === line.number && p.type === line.type && p.line_no === line.line_no,
      );
      if (!picked) throw badInput(`The stock record '${stockId}' is not picked for line ${line.line_no} of order '${line.number}'`);
      out
        .set('stockId', record.stockId)
        .set('qty', qtyText(picked.qty))
        .set('location', record.location)
        .set('lot', record.lot ?? '')
        .set('serial', record.serial ?? '')
        .set('picker', picked.pickers);
    }
    return out;
  });
}

/**
 * Order travellers: `orderId` names an order of the organisation (its quantity is its number of
 * lines, its due date the order's); `taskBarcode` is a task of that order (the label is that
 * operation's: its description, work centre, planned time) or the order number itself (the label of
 * the order: the customer as description).
 */
async function travellerRows(db: Db, auth: AuthContext, rows: Array<Map<string, string>>): Promise<Array<Map<string, string>>> {
  const numbers = [...new Set(rows.map((r) => field(r, 'orderId') ?? ''))];
  const codes = [...new Set(rows.map((r) => field(r, 'taskBarcode')).filter((c): c is string => c !== undefined))];
  const [orders, tasks] = await Promise.all([
    data.ordersByNumbers(db, auth.orgId, numbers),
    codes.length ? data.tasksByCodes(db, auth.orgId, codes) : [],
  ]);
  const taskByCode = new Map(tasks.map((t) => [t.task_code, t]));
  return rows.map((row) => {
    const orderId = field(row, 'orderId');
    if (!orderId) throw badInput('An order traveller names its order: orderId');
    const code = field(row, 'taskBarcode') ?? orderId;
    const task = code === orderId ? undefined : taskByCode.get(code);
    if (code !== orderId && task?.order_number !== orderId) throw notFound(`No task '${code}' of order '${orderId}'`);
    const candidates = orders.filter((o) => o.number === orderId);
    const order = candidates.find((o) => o.type === task?.kind) ?? candidates[0];
    if (!order) throw notFound(`No order '${orderId}'`);
    return new Map([
      ['orderId', order.number],
      ['qty', String(order.line_count)],
      ['dueDate', order.due_date ?? ''],
      ['taskBarcode', task ? task.task_code : order.number],
      ['operation', task?.operation_number ?? ''],
      ['description', task ? task.description : (order.customer ?? '')],
      ['workCenter', task?.work_centre ?? ''],
      ['plannedTime', task?.planned_minutes == null ? '' : `${Number(task.planned_minutes)} min`],
      ['partNumber', ''],
      ['printedDate', today()],
    ]);
  });
}

/** Package labels: `packageNo` names a package of the organisation; everything on the label is the package's and its order's. */
async function packageRows(db: Db, auth: AuthContext, rows: Array<Map<string, string>>): Promise<Array<Map<string, string>>> {
  const numbers = [...new Set(rows.map((r) => field(r, 'packageNo') ?? ''))];
  const byNo = new Map((await data.packagesByNumbers(db, auth.orgId, numbers)).map((p) => [p.package_no, p]));
  return rows.map((row) => {
    const packageNo = field(row, 'packageNo');
    if (!packageNo) throw badInput('A package label names its package: packageNo');
    const p = byNo.get(packageNo);
    if (!p) throw notFound(`No package '${packageNo}'`);
    const n = (v: string | null) => (v === null ? null : Number(v));
    const [length, width, height] = [n(p.length), n(p.width), n(p.height)];
    return new Map([
      ['packageNo', p.package_no],
      ['orderId', p.number],
      ['orderType', p.order_type],
      ['customer', p.customer ?? ''],
      ['warehouse', p.warehouse],
      ['packageType', p.type],
      ['weight', p.weight === null ? '' : `${Number(p.weight)} kg`],
      ['dimensions', length !== null && width !== null && height !== null ? `${length} x ${width} x ${height} cm` : ''],
      ['carrier', p.carrier ?? ''],
      ['service', p.service ?? ''],
      ['tracking', p.tracking ?? ''],
      ['items', String(p.items)],
      ['printedDate', today()],
    ]);
  });
}

/** Each label's data from its source (exactly one kind of source), read from the organisation's records. */
export async function labelRows(db: Db, auth: AuthContext, kind: LabelKind, source: LabelSource): Promise<Array<Map<string, string>>> {
  checkSource(source);
  refuseOthersBadges(auth, source);
  if (source.rows) {
    const fields = LABEL_FIELDS.get(kind)!;
    const rows = source.rows.map((row) => {
      const unknown = Object.keys(row).filter((k) => !fields.has(k));
      if (unknown.length) throw badInput(`Unknown field(s) for a ${kind} label: ${unknown.map((u) => `'${u}'`).join(', ')}`);
      return new Map(Object.entries(row));
    });
    return orderLabelRows(db, auth, kind, rows);
  }
  if (source.stockIds) {
    if (kind !== 'stock' && kind !== 'pick') throw badInput(`Stock records make stock or pick labels, not ${kind} labels`);
    const records = await data.stockByIds(db, auth.orgId, source.stockIds);
    const byId = new Map(records.map((r) => [r.stockId, r]));
    // A stock label prints its quantity: none of a location the caller counts blind (counts/blind.ts).
    const hidden = await blindPlaces(db, auth);
    return source.stockIds.map((stockId) => {
      const r = byId.get(stockId);
      if (!r) throw notFound(`No stock record '${stockId}'`);
      refuseBlind(hidden, [r.locationId]);
      return new Map([
        ['stockId', r.stockId],
        ['partNumber', r.partNumber],
        ['description', r.description],
        ['warehouse', r.warehouse],
        ['location', r.location],
        ['qty', String(r.quantity)],
        ['uom', r.uom],
        ['lot', r.lot ?? ''],
        ['serial', r.serial ?? ''],
        ['condition', r.conditionCode ?? ''],
        ['receivedDate', r.receivedDate ?? ''],
        ['printedDate', today()],
      ]);
    });
  }
  if (source.locationIds || source.locationRange) {
    if (kind !== 'loc') throw badInput(`Locations make location labels, not ${kind} labels`);
    let rows: data.LocationLabelRow[];
    if (source.locationIds) {
      rows = await data.locationsByIds(db, auth.orgId, source.locationIds);
      const missing = source.locationIds.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) throw notFound(`No location '${missing[0]}'`);
    } else {
      const { warehouse, from, to } = source.locationRange!;
      rows = await data.locationRange(db, auth.orgId, warehouse, from, to, LABELS_PER_JOB_MAX + 1);
      if (!rows.length) throw notFound(`No active location of warehouse '${warehouse}' from '${from}' to '${to}'`);
      if (rows.length > LABELS_PER_JOB_MAX) throw badInput(`The range holds more than ${LABELS_PER_JOB_MAX} locations; print it in parts`);
    }
    return rows.map(
      (r) =>
        new Map([
          ['location', r.code],
          ['warehouse', r.warehouse],
          ['description', r.description],
          ['locationType', r.type],
        ]),
    );
  }
  if (source.accountIds) {
    if (kind !== 'staff') throw badInput(`Accounts make staff labels, not ${kind} labels`);
    // refuseOthersBadges (above): someone else's badge only for administrators and timekeepers.
    const rows = await data.staffByIds(db, auth.orgId, source.accountIds);
    if (rows.length !== new Set(source.accountIds).size) throw notFound('No such account');
    return rows.map((r) => {
      if (!r.badge_code) throw badInput(`The account '${r.user_name}' has no badge code; give it one first`);
      return new Map([
        ['name', `${r.first_name} ${r.surnames}`.trim() || r.user_name],
        ['badge', r.badge_code],
        ['userName', r.user_name],
        ['org', r.org],
      ]);
    });
  }
  return [];
}
