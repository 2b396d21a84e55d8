import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconPrinter } from '@tabler/icons-react';
import { LABELS_PER_PDF_MAX } from '@floorhand/contract/labels';
import { printOrDownload, usePrinter } from '../../lib/label-printing.ts';

/** Location labels of a whole range of one warehouse (codes from … to, in text order), as one print job. */
export function PrintRangeButton({ warehouse }: { warehouse: string }) {
  const { t } = useTranslation();
  const printer = usePrinter();
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await printOrDownload({ kind: 'loc', source: { locationRange: { warehouse, from: from.trim(), to: to.trim() } } });
      setOpen(false);
    } catch {
      // The error dialog has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="default" leftSection={<IconPrinter size={18} />} onClick={() => setOpen(true)} data-testid="location-print-range">
        {t('Print labels…')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('Location labels of {{warehouse}}', { warehouse })}>
        <Stack gap="sm">
          <Group grow>
            <TextInput
              label={t('From code')}
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              size="md"
              data-autofocus
              data-testid="range-from"
            />
            <TextInput label={t('To code')} value={to} onChange={(e) => setTo(e.currentTarget.value)} size="md" data-testid="range-to" />
          </Group>
          <Text size="sm" c="dimmed">
            {printer
              ? t('Every active location from the first code to the last prints on {{printer}}.', { printer: printer.name })
              : t('No printer attached: the labels download as a PDF (at most {{max}}).', { max: LABELS_PER_PDF_MAX })}
          </Text>
          <Button onClick={() => void submit()} loading={busy} disabled={!from.trim() || !to.trim()} data-testid="range-print">
            {t('Print')}
          </Button>
        </Stack>
      </Modal>
    </>
  );
}
