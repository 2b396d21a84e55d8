import type { OutboxItem } from '../../../lib/offline/replay.ts';

/**
 * A change of the record that waits in the device's outbox (queued, or waiting for its person to
 * sign in): the record takes no other change until it is sent, as its revision moves on then
 * (docs/offline.md, Stock changes offline). A refused one no longer waits.
 */
export const waitingChange = (items: readonly OutboxItem[], stockId: string | undefined): OutboxItem | undefined =>
  stockId === undefined ? undefined : items.find((i) => i.state !== 'refused' && i.path.startsWith('stock/') && i.args.stockId === stockId);
