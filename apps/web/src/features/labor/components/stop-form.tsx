import { Button, Checkbox, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import { qtyNumber } from '@floorhand/contract/quantity';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { readQtyInput } from '../../../lib/inventory-format.ts';
import { EMPTY_STOP, type StopDraft } from '../utils/scan-meaning.ts';

export interface StopRequest {
  qtyDone?: number;
  complete: boolean;
}

interface StopFormProps {
  /** What the form holds: the page keeps it, since its scan table asks (utils/scan-meaning.ts). */
  draft: StopDraft;
  onDraft(draft: StopDraft): void;
  onStop(r: StopRequest): void;
  /** Where given, a Cancel button, and Escape in the quantity cancels; without it Escape clears the form. */
  onCancel?: () => void;
  busy?: boolean;
  testId: string;
}

/**
 * Quantity done and the complete flag, then Stop. Quantity done is a quantity prompt: it takes the focus
 * when the form opens, Enter stops. Its proposed value is empty: a task carries no quantity to be made
 * (an operation's order quantity may have been done partly by others), so there is nothing to propose.
 */
export function StopForm({ draft, onDraft, onStop, onCancel, busy, testId }: StopFormProps) {
  const { t } = useTranslation();
  // Blank is "no quantity"; anything typed is read as every quantity is ("2,5" on a Spanish screen).
  const read = draft.qty.trim() === '' ? undefined : readQtyInput(draft.qty);
  const value = read?.ok ? qtyNumber(read.units) : undefined;
  const error = read && (!read.ok || read.units < 0n) ? t('Enter a quantity of 0 or more') : undefined;
  return (
    <form
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        if (error) return;
        onStop({ ...(value !== undefined ? { qtyDone: value } : {}), complete: draft.complete });
      }}
    >
      <Stack gap="xs">
        <QuantityInput
          label={t('Quantity done')}
          value={draft.qty}
          onChange={(qty) => onDraft({ ...draft, qty })}
          error={error}
          prompt={{ onCancel: onCancel ?? (() => onDraft(EMPTY_STOP)) }}
          data-testid={`${testId}-qty`}
        />
        <Checkbox
          label={t('Task complete')}
          checked={draft.complete}
          onChange={(e) => onDraft({ ...draft, complete: e.currentTarget.checked })}
          data-testid={`${testId}-complete`}
          styles={{ body: { alignItems: 'center', minHeight: MIN_TOUCH_TARGET_PX } }}
        />
        <Group grow>
          {onCancel && (
            <Button variant="default" size="md" onClick={onCancel}>
              {t('Cancel')}
            </Button>
          )}
          <Button type="submit" color="red" size="md" loading={busy} data-testid={`${testId}-submit`}>
            {t('Stop')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
