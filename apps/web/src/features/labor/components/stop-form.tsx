import { useEffect, useRef, useState } from 'react';
import { Button, Checkbox, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';

export interface StopRequest {
  qtyDone?: number;
  complete: boolean;
}

/** Quantity done and the complete flag, then Stop (Enter in the quantity field stops too). */
export function StopForm({ onStop, onCancel, busy, autoFocus, testId }: { onStop(r: StopRequest): void; onCancel?: () => void; busy?: boolean; autoFocus?: boolean; testId: string }) {
  const { t } = useTranslation();
  const [qty, setQty] = useState('');
  const [complete, setComplete] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (autoFocus) box.current?.querySelector('input')?.focus();
  }, [autoFocus]);
  const text = qty.trim().replace(',', '.');
  const value = text === '' ? undefined : Number(text);
  const error = value !== undefined && (!Number.isFinite(value) || value < 0) ? t('Enter a quantity of 0 or more') : undefined;
  return (
    <form
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        if (error) return;
        onStop({ ...(value !== undefined ? { qtyDone: value } : {}), complete });
      }}
    >
      <Stack gap="xs">
        <div ref={box}>
          <QuantityInput label={t('Quantity done')} value={qty} onChange={setQty} error={error} data-testid={`${testId}-qty`} />
        </div>
        <Checkbox label={t('Task complete')} checked={complete} onChange={(e) => setComplete(e.currentTarget.checked)} data-testid={`${testId}-complete`} styles={{ body: { alignItems: 'center', minHeight: MIN_TOUCH_TARGET_PX } }} />
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
