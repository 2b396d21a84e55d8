import { Alert, Badge, Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconCircleCheck } from '@tabler/icons-react';
import type { StockRecord } from '@floorhand/contract/stock';
import { StockRecordSummary } from '../../../components/ui/stock-record-summary.tsx';
import { PrintLabelButton } from './print-label.tsx';

export interface ChangeOutcome {
  message: string;
  stock?: StockRecord;
  /** The record a split or a part move made. */
  newStock?: StockRecord;
}

export interface ChangeResultProps {
  outcome: ChangeOutcome;
  onOpen(stockId: string): void;
}

/** What the last change did, with the label of each record it touched (and the new one to open). */
export function ChangeResult({ outcome, onOpen }: ChangeResultProps) {
  const { t } = useTranslation();
  return (
    <Alert color="green" icon={<IconCircleCheck />} title={outcome.message} data-testid="change-result">
      <Stack gap="sm">
        {outcome.newStock && (
          <>
            <StockRecordSummary stock={outcome.newStock} badge={<Badge color="green">{t('New')}</Badge>} />
            <Group gap="xs">
              <PrintLabelButton stockId={outcome.newStock.stockId} />
              <Button variant="light" onClick={() => onOpen(outcome.newStock!.stockId)} data-testid="open-new-stock">
                {t('Open {{stockId}}', { stockId: outcome.newStock.stockId })}
              </Button>
            </Group>
          </>
        )}
        {!outcome.newStock && outcome.stock && (
          <Group gap="xs">
            <PrintLabelButton stockId={outcome.stock.stockId} />
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
