import { useState, type FormEvent } from 'react';
import { ActionIcon, Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconBarcode } from '@tabler/icons-react';
import type { Warehouse } from '@floorhand/contract/locations';
import type { StockRecord } from '@floorhand/contract/stock';
import { showQty } from '../../../lib/inventory-format.ts';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { moveOutcome } from '../utils/outcomes.ts';
import { isTyped, type QtyField } from '../utils/scan-meaning.ts';
import { tProblem } from '../../../lib/translate-text.ts';

export interface MoveRequest {
  /** Absent: the whole record moves. */
  qty?: string;
  moved: number;
  whole: boolean;
  toWarehouse: string;
  toLocation: string;
}

export interface MoveFormProps {
  stock: StockRecord;
  warehouses: Warehouse[];
  /** The destination is the page's: scans fill it while this form is open. */
  destination: string;
  onDestination(value: string): void;
  /** The camera button: the next scan is the destination even if one is filled in. */
  onScanDestination(): void;
  /** The quantity is the page's: a scan must know whether one is typed (utils/scan-meaning.ts). */
  qty: QtyField;
  onQtyText(text: string): void;
  /** Escape in the quantity prompt. */
  onCancel(): void;
  busy: boolean;
  onSubmit(request: MoveRequest): Promise<boolean>;
}

/** Move all of a record (quantity left blank) or part of it (a new record at the destination). */
export function MoveForm({
  stock,
  warehouses,
  destination,
  onDestination,
  onScanDestination,
  qty,
  onQtyText,
  onCancel,
  busy,
  onSubmit,
}: MoveFormProps) {
  const { t } = useTranslation();
  const [warehouse, setWarehouse] = useState(stock.warehouse);
  const [tried, setTried] = useState(false);
  const outcome = moveOutcome(stock.quantity, qty.text, stock.serial !== null, stock.uom);
  const qtyError = (tried || isTyped(qty)) && !outcome.ok ? tProblem(outcome) : undefined;
  const to = destination.trim();
  const destError = tried && !to ? t('must be provided') : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!outcome.ok || !to) return;
    if (
      await onSubmit({
        qty: outcome.whole ? undefined : outcome.qty,
        moved: outcome.moved,
        whole: outcome.whole,
        toWarehouse: warehouse,
        toLocation: to,
      })
    ) {
      onQtyText('');
      setTried(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="move-form">
      <Stack gap="sm">
        <TextInput
          label={t('To location')}
          placeholder={t('Scan or type the location')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={destination}
          onChange={(e) => onDestination(e.currentTarget.value)}
          error={destError}
          rightSectionWidth={52}
          rightSection={
            <ActionIcon
              size={44}
              variant="subtle"
              onClick={onScanDestination}
              aria-label={t('Scan the location with the camera')}
              data-testid="move-dest-camera"
            >
              <IconBarcode size={24} />
            </ActionIcon>
          }
          data-testid="move-dest"
        />
        {warehouses.length > 1 && (
          <Select
            label={t('In warehouse')}
            data={warehouses.map((w) => ({ value: w.code, label: `${w.code} – ${w.name}` }))}
            value={warehouse}
            onChange={(v) => v && setWarehouse(v)}
            allowDeselect={false}
            size="md"
            data-testid="move-warehouse"
          />
        )}
        <QuantityInput
          label={t('Quantity to move')}
          placeholder={t('All ({{qty}})', { qty: showQty(stock.quantity) })}
          value={qty.text}
          onChange={onQtyText}
          uom={stock.uom}
          error={qtyError}
          prompt={{ onCancel }}
          data-testid="move-qty"
        />
        <Text size="sm" c="dimmed" data-testid="move-preview">
          {outcome.ok && !outcome.whole
            ? t('{{moved}} move to a new record; {{left}} stay here', {
                moved: showQty(outcome.moved, stock.uom),
                left: showQty(outcome.left, stock.uom),
              })
            : t('The whole record moves')}
        </Text>
        <Button type="submit" loading={busy} data-testid="move-submit">
          {t('Move')}
        </Button>
      </Stack>
    </form>
  );
}
