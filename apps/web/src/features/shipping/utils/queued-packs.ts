import type { Package, Staged } from '@floorhand/contract/shipping';
import type { OutboxItem } from '../../../lib/offline/replay.ts';

/** A pack or unpack of this order kept in the device's outbox (issue 27), as the pack screen shows it. */
export interface QueuedPack {
  id: string;
  kind: 'pack' | 'unpack';
  stockId: string;
  packageId: string;
  label: string;
  /** The stock is among the order's picked stock as last read; otherwise only the server can tell ("to check"). */
  known: boolean;
}

export interface QueuedPackView {
  staged: Staged[];
  packages: Package[];
  queued: QueuedPack[];
}

/**
 * The order's picked stock and packages with the packs and unpacks still in the outbox applied, so a
 * packer working offline sees each scanned record in its box (docs/offline.md). Items the server
 * refused are left out (they show in the outbox list); the refresh after the replay replaces the rest.
 */
export function withQueuedPacks(staged: readonly Staged[], packages: readonly Package[], items: readonly OutboxItem[]): QueuedPackView {
  const ours = new Set(packages.map((p) => p._id));
  const stagedOut = staged.map((s) => ({ ...s }));
  const packagesOut = packages.map((p) => ({ ...p, stockIds: [...p.stockIds] }));
  const queued: QueuedPack[] = [];
  for (const item of [...items].sort((a, b) => a.seq - b.seq)) {
    if ((item.path !== 'package/pack' && item.path !== 'package/unpack') || item.state === 'refused') continue;
    const packageId = String(item.args.packageId ?? '');
    const stockId = String(item.args.stockId ?? '');
    if (!ours.has(packageId)) continue;
    const record = stagedOut.find((s) => s.stockId === stockId);
    queued.push({
      id: item.id,
      kind: item.path === 'package/pack' ? 'pack' : 'unpack',
      stockId,
      packageId,
      label: item.label,
      known: !!record,
    });
    if (!record) continue;
    for (const p of packagesOut) p.stockIds = p.stockIds.filter((id) => id !== stockId);
    if (item.path === 'package/pack') {
      record.packageId = packageId;
      packagesOut.find((p) => p._id === packageId)!.stockIds.push(stockId);
    } else if (record.packageId === packageId) {
      record.packageId = null;
    }
  }
  return { staged: stagedOut, packages: packagesOut, queued };
}
