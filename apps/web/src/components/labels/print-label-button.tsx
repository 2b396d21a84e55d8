import { useState } from 'react';
import { ActionIcon, Button, Group, Loader, Modal, Radio, Stack, Text, type ButtonProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconAdjustmentsHorizontal, IconDownload, IconPrinter } from '@tabler/icons-react';
import type { LabelKind, LabelSource } from '@floorhand/contract/labels';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import { call } from '../../lib/api.ts';
import { devicePrinters, printOrDownload, usePrinter } from '../../lib/label-printing.ts';
import { useMachineStore } from '../../lib/machine-store.ts';
import { usePrinterStore } from '../../lib/session.ts';

export interface PrintLabelButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  kind: LabelKind;
  source: LabelSource;
  label?: string;
  testId?: string;
}

/**
 * "Print label": to this device's printer, or a PDF download when none is attached (the button says
 * which). Next to it, "Printer and template" chooses which of the device's printers and, for stock
 * labels, which stock template; the choice is kept in this device's machine settings (labelPrinter).
 * Errors show in the error dialog (the request helper's).
 */
export function PrintLabelButton({ kind, source, label, testId = 'print-label', ...rest }: PrintLabelButtonProps) {
  const { t } = useTranslation();
  const printer = usePrinter();
  const [busy, setBusy] = useState(false);
  const [choosing, setChoosing] = useState(false);
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
    <Group gap={4} wrap="nowrap" display="inline-flex">
      <Button
        variant="default"
        leftSection={printer ? <IconPrinter size={18} /> : <IconDownload size={18} />}
        loading={busy}
        onClick={() => void onClick()}
        data-testid={testId}
        data-printer={printer?.id ?? ''}
        title={printer ? t('Print on {{printer}}', { printer: printer.name }) : t('No printer attached: download the labels as a PDF')}
        {...rest}
      >
        {label ?? (printer ? t('Print label') : t('Download label'))}
      </Button>
      <ActionIcon
        variant="default"
        size={MIN_TOUCH_TARGET_PX}
        aria-label={kind === 'stock' ? t('Printer and template') : t('Printer')}
        title={kind === 'stock' ? t('Printer and template') : t('Printer')}
        onClick={() => setChoosing(true)}
        data-testid={`${testId}-choose`}
      >
        <IconAdjustmentsHorizontal size={20} />
      </ActionIcon>
      <LabelChoiceModal kind={kind} opened={choosing} onClose={() => setChoosing(false)} />
    </Group>
  );
}

/** Which of the device's printers, and for stock labels which stock template: saved as chosen. */
export function LabelChoiceModal({ kind, opened, onClose }: { kind: LabelKind; opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const settings = useMachineStore((s) => s.labelPrinter);
  const save = useMachineStore((s) => s.save);
  const attached = usePrinterStore((s) => s.printers);
  const printers = devicePrinters(attached, settings.agents);
  const current = usePrinter();
  const templates = useQuery({
    queryKey: ['labels', 'templates', 'stock'],
    queryFn: () => call('label/template/list', { kind: 'stock' }),
    enabled: opened && kind === 'stock',
    staleTime: 60_000,
  });
  const stock = templates.data?.templates ?? [];
  const chosenTemplate = stock.find((x) => x.templateId === settings.stockTemplateId) ?? stock.find((x) => x.isDefault) ?? stock[0];
  const option = { body: { minHeight: MIN_TOUCH_TARGET_PX, alignItems: 'center' } } as const;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={kind === 'stock' ? t('Printer and template') : t('Printer')}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack gap="md" data-testid="label-choice">
        {printers.length ? (
          <Radio.Group
            label={t('Print on')}
            value={current?.id ?? null}
            onChange={(printerId) => save({ labelPrinter: { ...settings, printerId } })}
            data-testid="choose-printer"
          >
            <Stack gap={0} mt={4}>
              {printers.map((p) => (
                <Radio
                  key={p.id}
                  value={p.id}
                  label={`${p.name} (${p.agent})`}
                  styles={option}
                  data-testid="printer-option"
                  data-printer={p.id}
                  data-autofocus={p.id === current?.id ? true : undefined}
                />
              ))}
            </Stack>
          </Radio.Group>
        ) : (
          <Text size="sm" data-testid="no-printer">
            {t('No label printer of this device is attached: labels download as a PDF.')}
          </Text>
        )}
        {kind === 'stock' &&
          (templates.isPending ? (
            <Loader size="sm" />
          ) : (
            <Radio.Group
              label={t('Stock label template')}
              value={chosenTemplate?.templateId ?? null}
              onChange={(stockTemplateId) => save({ labelPrinter: { ...settings, stockTemplateId } })}
              data-testid="choose-template"
            >
              <Stack gap={0} mt={4}>
                {stock.map((x) => (
                  <Radio
                    key={x.templateId}
                    value={x.templateId}
                    label={`${x.name} (${x.widthMm} x ${x.heightMm} mm)`}
                    styles={option}
                    data-testid="template-option"
                    data-template={x.templateId}
                  />
                ))}
              </Stack>
            </Radio.Group>
          ))}
        <Text size="sm" c="dimmed">
          {t('Kept on this device. Which agents it uses and the copies are on the Label Printers page.')}
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="label-choice-done">
            {t('Done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
