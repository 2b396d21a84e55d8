import { Group, Text } from '@mantine/core';
import type { Staged } from '@floorhand/contract/shipping';
import { QueuedBadge } from '../../../components/offline/queued-mark.tsx';
import { showQty } from '../../../lib/inventory-format.ts';

/** A staged stock record on the pack screen: id, part and quantity; an action beside it. */
export function StagedLine({ s, action, queued }: { s: Staged; action?: React.ReactNode; queued?: boolean }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid="staged-line" data-stock={s.stockId} data-queued={queued || undefined}>
      <Text size="sm" ff="monospace" truncate style={{ flex: 1, minWidth: 0 }}>
        {`${s.stockId} · ${s.partNumber} · ${showQty(s.qty, s.uom)}`}
      </Text>
      {queued && <QueuedBadge />}
      {action}
    </Group>
  );
}
