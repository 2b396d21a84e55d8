import { Alert, Button, Divider, Drawer, Group, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { MovementHistory } from '../../../components/ui/movement-history.tsx';
import { StockRecordSummary } from '../../../components/ui/stock-record-summary.tsx';
import { PrintLabelButton } from '../../../components/labels/print-label-button.tsx';
import { stockQuery } from '../../../lib/inventory-api.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';

export interface StockDetailDrawerProps {
  stockId: string | null;
  onClose(): void;
  onAdjust(stockId: string): void;
}

/** One stock record and its movement history, beside the lookup (full screen on a handheld). */
export function StockDetailDrawer({ stockId, onClose, onAdjust }: StockDetailDrawerProps) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  const q = useQuery({ ...stockQuery(stockId ?? ''), enabled: !!stockId });
  return (
    <Drawer
      opened={!!stockId}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'xl'}
      title={<Title order={3}>{t('Stock record')}</Title>}
      data-testid="stock-detail"
    >
      {q.isPending && <Loader />}
      {q.isError && <Alert color="red">{q.error.message}</Alert>}
      {q.data?.stock && (
        <Stack>
          <StockRecordSummary stock={q.data.stock} />
          <Group>
            <Button
              leftSection={<IconAdjustmentsHorizontal size={18} />}
              onClick={() => onAdjust(q.data.stock!.stockId)}
              data-testid="detail-adjust"
            >
              {t('Adjust, move or split')}
            </Button>
            <PrintLabelButton kind="stock" source={{ stockIds: [q.data.stock.stockId] }} />
          </Group>
          <Divider label={t('Movements')} labelPosition="left" />
          <MovementHistory movements={q.data.movements ?? []} more={q.data.moreMovements} />
        </Stack>
      )}
    </Drawer>
  );
}
