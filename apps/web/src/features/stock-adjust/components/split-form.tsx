import { useState, type FormEvent } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StockRecord } from '@floorhand/contract/stock';
import { showQty } from '../../../lib/inventory-format.ts';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { splitOutcome } from '../utils/outcomes.ts';
import { isTyped, type QtyField } from '../utils/scan-meaning.ts';
import { tProblem } from '../../../lib/translate-text.ts';

export interface SplitRequest {
  qty: string;
  remaining: number;
}

export interface SplitFormProps {
  stock: StockRecord;
  /** The quantity is the page's: a scan must know whether one is typed (utils/scan-meaning.ts). */
  qty: QtyField;
  onQtyText(text: string): void;
  /** Escape in the quantity prompt. */
  onCancel(): void;
  busy: boolean;
  onSubmit(request: SplitRequest): Promise<boolean>;
}

/** Split part of a record's quantity off into a new record in the same location (it gets its own label). */
export function SplitForm({ stock, qty, onQtyText, onCancel, busy, onSubmit }: SplitFormProps) {
  const { t } = useTranslation();
  const [tried, setTried] = useState(false);
  const outcome = splitOutcome(stock.quantity, qty.text, stock.serial !== null, stock.uom);
  const qtyError = (tried || isTyped(qty) || stock.serial !== null) && !outcome.ok ? tProblem(outcome) : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!outcome.ok) return;
    if (await onSubmit({ qty: outcome.qty, remaining: outcome.remaining })) {
      onQtyText('');
      setTried(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="split-form">
      <Stack gap="sm">
        <QuantityInput
          label={t('Quantity for the new record')}
          value={qty.text}
          onChange={onQtyText}
          uom={stock.uom}
          error={qtyError}
          disabled={stock.serial !== null}
          prompt={{ onCancel }}
          data-testid="split-qty"
        />
        <Text size="sm" c="dimmed" data-testid="split-preview">
          {outcome.ok
            ? t('New record: {{qty}}; {{left}} stay on {{stockId}}', {
                qty: showQty(Number(outcome.qty), stock.uom),
                left: showQty(outcome.remaining, stock.uom),
                stockId: stock.stockId,
              })
            : t('On hand: {{qty}}', { qty: showQty(stock.quantity, stock.uom) })}
        </Text>
        <Button type="submit" loading={busy} disabled={stock.serial !== null} data-testid="split-submit">
          {t('Split')}
        </Button>
      </Stack>
    </form>
  );
}
