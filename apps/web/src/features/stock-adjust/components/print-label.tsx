import { Checkbox, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PrintLabelButton as LabelButton } from '../../../components/labels/print-label-button.tsx';
import type { StockAdjustPrefs } from '../hooks/use-stock-adjust-prefs.ts';

/** The label of a stock record: to this device's label printer, or a PNG download without one. */
export function PrintLabelButton({ stockId, testId }: { stockId: string; testId?: string }) {
  return <LabelButton kind="stock" source={{ stockIds: [stockId] }} data-stock-id={stockId} {...(testId ? { testId } : {})} />;
}

export interface PrintLabelPrefsProps {
  prefs: StockAdjustPrefs;
  onChange(patch: Partial<StockAdjustPrefs>): void;
}

/** Print a label after each kind of change: remembered in the stockAdjust preferences. */
export function PrintLabelPrefs({ prefs, onChange }: PrintLabelPrefsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="print-prefs">
      <Text fw={600}>{t('Print a label after')}</Text>
      <Group gap="md">
        <Checkbox
          label={t('Adjust')}
          checked={prefs.printOnAdjust}
          onChange={(e) => onChange({ printOnAdjust: e.currentTarget.checked })}
          data-testid="print-on-adjust"
        />
        <Checkbox
          label={t('Move')}
          checked={prefs.printOnMove}
          onChange={(e) => onChange({ printOnMove: e.currentTarget.checked })}
          data-testid="print-on-move"
        />
        <Checkbox
          label={t('Split')}
          checked={prefs.printOnSplit}
          onChange={(e) => onChange({ printOnSplit: e.currentTarget.checked })}
          data-testid="print-on-split"
        />
      </Group>
      <Text size="sm" c="dimmed">
        {t('Printed on this device’s label printer (Label Printers page); nothing prints when none is attached.')}
      </Text>
    </Stack>
  );
}
