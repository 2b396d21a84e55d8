import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListedStock } from '@floorhand/contract/stock';
import { showQty } from '../../../lib/inventory-format.ts';

/** A value that is not a stock id: the records a lookup of it found, to choose from (or that none was). */
export function StockCandidates({
  value,
  candidates,
  more,
  onOpen,
}: {
  value: string;
  candidates: ListedStock[];
  more: boolean;
  onOpen(stockId: string): void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t("'{{value}}' is not a stock id", { value })} data-testid="adjust-not-found">
      {candidates.length === 0 ? (
        t('No stock record was found for it.')
      ) : (
        <Stack gap={6}>
          <Text size="sm">{t('Choose one of the records found for it:')}</Text>
          {candidates.map((r) => (
            <Button
              key={r.stockId}
              variant="default"
              justify="space-between"
              fullWidth
              onClick={() => onOpen(r.stockId)}
              data-testid="adjust-candidate"
              rightSection={showQty(r.quantity, r.uom)}
            >
              {`${r.stockId} · ${r.partNumber} · ${r.warehouse} / ${r.location}`}
            </Button>
          ))}
          {more && <Text size="sm">{t('More records match; scan the stock label itself.')}</Text>}
        </Stack>
      )}
    </Alert>
  );
}
