import { Button, Checkbox, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconPrinter } from '@tabler/icons-react';
import type { StockAdjustPrefs } from '../hooks/use-stock-adjust-prefs.ts';

const NOT_YET = 'Label printing arrives with the Label Printers work area.';

/**
 * The label of a stock record. Printing comes with the label printers work; until then the action is
 * shown disabled with the reason, so nobody wonders where it went.
 */
export function PrintLabelButton({ stockId }: { stockId: string }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t(NOT_YET)} events={{ hover: true, focus: true, touch: true }}>
      {/* data-disabled rather than disabled: a disabled button gets no hover, so no tooltip. */}
      <Button variant="default" leftSection={<IconPrinter size={18} />} data-disabled onClick={(e) => e.preventDefault()} aria-disabled data-testid="print-label" data-stock-id={stockId}>
        {t('Print label')}
      </Button>
    </Tooltip>
  );
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
        <Checkbox label={t('Adjust')} checked={prefs.printOnAdjust} onChange={(e) => onChange({ printOnAdjust: e.currentTarget.checked })} data-testid="print-on-adjust" />
        <Checkbox label={t('Move')} checked={prefs.printOnMove} onChange={(e) => onChange({ printOnMove: e.currentTarget.checked })} data-testid="print-on-move" />
        <Checkbox label={t('Split')} checked={prefs.printOnSplit} onChange={(e) => onChange({ printOnSplit: e.currentTarget.checked })} data-testid="print-on-split" />
      </Group>
      <Text size="sm" c="dimmed">
        {t(NOT_YET)}
      </Text>
    </Stack>
  );
}
