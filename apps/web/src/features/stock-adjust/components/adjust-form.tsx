import { useState, type FormEvent } from 'react';
import { Button, Select, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StockRecord } from '@floorhand/contract/stock';
import { showQty } from '../../../lib/inventory-format.ts';
import type { StockAdjustPrefs } from '../hooks/use-stock-adjust-prefs.ts';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { adjustOutcome, type AdjustMode } from '../utils/outcomes.ts';
import { isTyped, type QtyField } from '../utils/scan-meaning.ts';
import { tProblem } from '../../../lib/translate-text.ts';

export interface AdjustRequest {
  deltaType: StockAdjustPrefs['deltaType'];
  /** Signed for a delta, the new quantity for absolute. */
  qty: string;
  after: number;
  reason: string;
}

export interface AdjustFormProps {
  stock: StockRecord;
  reasons: string[];
  deltaType: StockAdjustPrefs['deltaType'];
  onDeltaType(deltaType: StockAdjustPrefs['deltaType']): void;
  /** The worker's last reason: chosen beforehand while the settings still offer it, so digits and Enter adjust. */
  lastReason: string | null;
  /** The quantity is the page's: a scan must know whether one is typed (utils/scan-meaning.ts). */
  qty: QtyField;
  onQtyText(text: string): void;
  /** Escape in the quantity prompt. */
  onCancel(): void;
  busy: boolean;
  /** Resolves true when the change was made (the quantity field is cleared then). */
  onSubmit(request: AdjustRequest): Promise<boolean>;
}

/**
 * Adjust the quantity: add, remove (deltaType delta) or set (absolute), with a reason from the app
 * settings. Add and remove are separate choices because a handheld's number pad often has no minus.
 */
export function AdjustForm({
  stock,
  reasons,
  deltaType,
  onDeltaType,
  lastReason,
  qty,
  onQtyText,
  onCancel,
  busy,
  onSubmit,
}: AdjustFormProps) {
  const { t } = useTranslation();
  const [sign, setSign] = useState<'add' | 'remove'>('add');
  // Undefined until the worker chooses: the settings' reasons may arrive after the form.
  const [chosen, setChosen] = useState<string | null>();
  const reason = chosen !== undefined ? chosen : lastReason !== null && reasons.includes(lastReason) ? lastReason : null;
  const [tried, setTried] = useState(false);
  const mode: AdjustMode = deltaType === 'absolute' ? 'set' : sign;
  const outcome = adjustOutcome(stock.quantity, mode, qty.text, stock.serial !== null, stock.uom);
  const qtyError = (tried || isTyped(qty)) && !outcome.ok ? tProblem(outcome) : undefined;
  const reasonError = tried && !reason ? t('must be provided') : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!outcome.ok || !reason) return;
    if (await onSubmit({ deltaType, qty: outcome.qty, after: outcome.after, reason })) {
      onQtyText('');
      setTried(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="adjust-form">
      <Stack gap="sm">
        <SegmentedControl
          fullWidth
          size="md"
          value={mode}
          onChange={(v) => {
            if (v === 'set') onDeltaType('absolute');
            else {
              setSign(v as 'add' | 'remove');
              onDeltaType('delta');
            }
          }}
          data={[
            { value: 'add', label: t('Add') },
            { value: 'remove', label: t('Remove') },
            { value: 'set', label: t('Set to') },
          ]}
          data-testid="adjust-mode"
        />
        {/* A new mode is a new prompt: Set to's proposal (the record's quantity) comes selected. */}
        <QuantityInput
          key={mode}
          label={mode === 'set' ? t('New quantity') : mode === 'add' ? t('Quantity to add') : t('Quantity to remove')}
          value={qty.text}
          onChange={onQtyText}
          uom={stock.uom}
          error={qtyError}
          prompt={{ onCancel }}
          data-testid="adjust-qty"
        />
        <Select
          label={t('Reason')}
          placeholder={t('Choose a reason')}
          data={reasons}
          value={reason}
          onChange={setChosen}
          error={reasonError}
          size="md"
          data-testid="adjust-reason"
        />
        <Text size="sm" c="dimmed" data-testid="adjust-preview">
          {outcome.ok
            ? t('{{before}} → {{after}}', { before: showQty(stock.quantity), after: showQty(outcome.after, stock.uom) })
            : t('On hand: {{qty}}', { qty: showQty(stock.quantity, stock.uom) })}
        </Text>
        <Button type="submit" loading={busy} data-testid="adjust-submit">
          {t('Adjust quantity')}
        </Button>
      </Stack>
    </form>
  );
}
