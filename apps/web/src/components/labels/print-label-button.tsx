import { useState } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import type { LabelKind, LabelSource } from '@floorhand/contract/labels';
import { printOrDownload, usePrinter } from '../../lib/label-printing.ts';

export interface PrintLabelButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  kind: LabelKind;
  source: LabelSource;
  label?: string;
  testId?: string;
}

/**
 * "Print label": to this device's printer, or a PNG download when none is attached (the button says
 * which). Errors show in the error dialog (the request helper's).
 */
export function PrintLabelButton({ kind, source, label, testId = 'print-label', ...rest }: PrintLabelButtonProps) {
  const { t } = useTranslation();
  const printer = usePrinter();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await printOrDownload({ kind, source });
    } catch {
      // The error dialog has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={printer ? <IconPrinter size={18} /> : <IconDownload size={18} />}
      loading={busy}
      onClick={() => void onClick()}
      data-testid={testId}
      data-printer={printer?.id ?? ''}
      title={printer ? t('Print on {{printer}}', { printer: printer.name }) : t('No printer attached: download the label as a picture')}
      {...rest}
    >
      {label ?? (printer ? t('Print label') : t('Download label'))}
    </Button>
  );
}
