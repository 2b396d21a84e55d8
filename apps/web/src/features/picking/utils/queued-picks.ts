import type { Pick, PickLine } from '@floorhand/contract/orders';
import { parseQty, qtyNumber, qtyUnits } from '@floorhand/contract/quantity';
import type { OutboxItem } from '../../../lib/offline/replay.ts';

/** A pick, short or skip of this order kept in the device's outbox (issue 27), as the screen shows it. */
export interface QueuedPickAction {
  id: string;
  kind: 'pick' | 'short' | 'skip';
  lineId: string;
  label: string;
}

export interface QueuedView {
  /** The lines as they will be once the queued actions reach the server, in walk order. */
  lines: PickLine[];
  /** The queued actions of this order's lines, in the order they were taken. */
  queued: QueuedPickAction[];
}

const KINDS = new Map([
  ['pick/confirm', 'pick'],
  ['pick/short', 'short'],
  ['pick/skip', 'skip'],
] as const);

/**
 * The order's lines with the picks, shorts and skips still waiting in the outbox applied, so a picker
 * working offline goes on to the next line (docs/offline.md). Only items not refused count: a refused
 * one shows in the outbox list and its line is open again here. A pick takes its quantity off the
 * line and off the record it was scanned from (the stock label, or the location's one record of the
 * item); a short closes the line for now (the server's setting may keep it open, walked last: the
 * refresh after the replay says which); a skip walks the line last. The server's answer replaces all
 * of it when the queries refresh after the replay.
 */
export function withQueued(lines: readonly PickLine[], items: readonly OutboxItem[]): QueuedView {
  const byId = new Map(lines.map((l) => [l._id, { ...l, sources: [...l.sources], picks: [...l.picks] }]));
  const queued: QueuedPickAction[] = [];
  let skipSeq = Math.max(0, ...lines.map((l) => l.skipSeq));
  for (const item of [...items].sort((a, b) => a.seq - b.seq)) {
    const kind = KINDS.get(item.path as 'pick/confirm');
    const lineId = String(item.args.lineId ?? '');
    const line = byId.get(lineId);
    if (!kind || !line || item.state === 'refused') continue;
    queued.push({ id: item.id, kind, lineId, label: item.label });
    if (line.status !== 'open') continue;
    if (kind === 'skip') {
      line.skipSeq = skipSeq += 1;
    } else if (kind === 'short') {
      line.short = Math.max(0, qtyNumber(qtyUnits(line.qty) - qtyUnits(line.picked)));
      line.status = 'short';
      line.shortReason = String(item.args.reason ?? '');
    } else {
      const read = parseQty(item.args.qty);
      if (!read.ok || read.units <= 0n) continue;
      const units = read.units;
      const qty = qtyNumber(units);
      const location = String(item.args.location ?? '');
      const scan = String(item.args.scan ?? '');
      const here = line.sources.filter((s) => s.location === location);
      const record = line.sources.find((s) => s.stockId === scan) ?? (here.length === 1 ? here[0] : undefined);
      if (record) {
        const left = qtyNumber(qtyUnits(record.quantity) - units);
        line.sources =
          left > 0 ? line.sources.map((s) => (s === record ? { ...s, quantity: left } : s)) : line.sources.filter((s) => s !== record);
      }
      line.picked = qtyNumber(qtyUnits(line.picked) + units);
      const pick: Pick = {
        _id: item.id,
        lineId,
        stockId: record?.stockId ?? scan,
        qty,
        fromLocation: location,
        toLocation: '',
        pickedBy: { id: item.person.accountId, name: item.person.name },
        ts: item.deviceTime,
      };
      line.picks.push(pick);
      if (qtyUnits(line.picked) + qtyUnits(line.short) >= qtyUnits(line.qty)) line.status = 'picked';
    }
  }
  // Walk order as the server gives it: open lines not skipped (as they came), skipped ones by when, then the done ones.
  const all = lines.map((l) => byId.get(l._id)!);
  const open = all.filter((l) => l.status === 'open');
  const ordered = [
    ...open.filter((l) => l.skipSeq === 0),
    ...open.filter((l) => l.skipSeq > 0).sort((a, b) => a.skipSeq - b.skipSeq),
    ...all.filter((l) => l.status !== 'open'),
  ];
  return { lines: ordered, queued };
}
