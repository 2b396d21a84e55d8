import { Alert, Badge, Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { StockRecord } from '@floorhand/contract/stock';
import { useOutbox } from '../../../lib/offline/outbox.ts';
import { StockRecordSummary } from '../../../components/ui/stock-record-summary.tsx';
import { PrintLabelButton } from './print-label.tsx';

export interface ChangeOutcome {
  message: string;
  stock?: StockRecord;
  /** The record a split or a part move made. */
  newStock?: StockRecord;
  /** A change kept in the outbox (its id there): the message is its label. */
  queuedId?: string;
}

export interface ChangeResultProps {
  outcome: ChangeOutcome;
  onOpen(stockId: string): void;
}

/**
 * What the last change did, with the label of each record it touched (and the new one to open). A
 * queued change is said by the record's panel while it waits; refused on its replay, it is said here
 * (never shown as done); once sent, the page replaces it with the server's answer.
 */
export function ChangeResult({ outcome, onOpen }: ChangeResultProps) {
  const { t } = useTranslation();
  const queued = useOutbox((s) => (outcome.queuedId ? s.items.find((i) => i.id === outcome.queuedId) : undefined));
  if (outcome.queuedId) {
    if (queued?.state !== 'refused') return null;
    return (
      <Alert color="red" icon={<IconAlertTriangle />} title={t('Refused: {{label}}', { label: queued.label })} data-testid="change-refused">
        {queued.error?.message}
      </Alert>
    );
  }
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
