import { useState, type FormEvent } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StockRecord } from '@floorhand/contract/stock';
import { showQty } from '../../../lib/inventory-format.ts';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { splitOutcome } from '../utils/outcomes.ts';

export interface SplitRequest {
  qty: string;
  remaining: number;
}

export interface SplitFormProps {
  stock: StockRecord;
  busy: boolean;
  onSubmit(request: SplitRequest): Promise<boolean>;
}

/** Split part of a record's quantity off into a new record in the same location (it gets its own label). */
export function SplitForm({ stock, busy, onSubmit }: SplitFormProps) {
  const { t } = useTranslation();
  const [qtyText, setQtyText] = useState('');
  const [tried, setTried] = useState(false);
  const outcome = splitOutcome(stock.quantity, qtyText, stock.serial !== null, stock.uom);
  const qtyError = (tried || qtyText !== '' || stock.serial !== null) && !outcome.ok ? t(outcome.message, outcome.values) : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!outcome.ok) return;
    if (await onSubmit({ qty: outcome.qty, remaining: outcome.remaining })) {
      setQtyText('');
      setTried(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="split-form">
      <Stack gap="sm">
        <QuantityInput
          label={t('Quantity for the new record')}
          value={qtyText}
          onChange={setQtyText}
          uom={stock.uom}
          error={qtyError}
          disabled={stock.serial !== null}
          data-testid="split-qty"
        />
        <Text size="sm" c="dimmed" data-testid="split-preview">
          {outcome.ok
            ? t('New record: {{qty}}; {{left}} stay on {{stockId}}', { qty: showQty(Number(outcome.qty), stock.uom), left: showQty(outcome.remaining, stock.uom), stockId: stock.stockId })
            : t('On hand: {{qty}}', { qty: showQty(stock.quantity, stock.uom) })}
        </Text>
        <Button type="submit" loading={busy} disabled={stock.serial !== null} data-testid="split-submit">
          {t('Split')}
        </Button>
      </Stack>
    </form>
  );
}
