import { useRef, useState } from 'react';
import { Alert, Button, FileButton, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { importRefusalSummary, importReportOf, type CsvEntity, type ImportReport } from '@floorhand/contract/csv-transfer';
import { isAdmin } from '@floorhand/contract/perms';
import { dialogs } from '../dialogs/dialog-store.ts';
import { ApiError, call } from '../../lib/api.ts';
import { downloadCsv, inventoryKeys } from '../../lib/inventory-api.ts';
import { useSessionStore } from '../../lib/session-store.ts';

export interface CsvTransferProps {
  entity: CsvEntity;
  /** Export only this warehouse's rows. */
  warehouse?: string | null;
}

function RejectedRows({ report, onClose }: { report: ImportReport; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t('Import refused')} size="lg" data-testid="import-report">
      <Stack>
        <Alert color="red">
          {t(importRefusalSummary(report))}
        </Alert>
        <ScrollArea.Autosize mah="50vh" type="auto">
          <Table striped verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Row')}</Table.Th>
                <Table.Th>{t('Field')}</Table.Th>
                <Table.Th>{t('Problem')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.rejected.map((p, i) => (
                <Table.Tr key={i} data-testid="import-problem">
                  <Table.Td>{p.row}</Table.Td>
                  <Table.Td>{p.field}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{p.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {report.rejected.length < report.rejectedCount && <Text size="sm">{t('Only the first {{n}} problems are listed.', { n: report.rejected.length })}</Text>}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('OK')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** CSV import (all or nothing, with the report of refused rows) and export of one entity, for administrators. */
export function CsvTransfer({ entity, warehouse }: CsvTransferProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const perms = useSessionStore((s) => s.perms);
  const [busy, setBusy] = useState<'import' | 'export' | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  // Cleared after each import, so choosing the same (corrected) file again is a new choice.
  const resetFile = useRef<() => void>(null);
  if (!perms || !isAdmin(perms)) return null;

  const importFile = async (file: File | null) => {
    if (!file) return;
    setBusy('import');
    try {
      // One key per file chosen: a retry of the same upload after a dropped answer imports once.
      const res = await call('import/csv', { entity, csv: await file.text(), idempotencyKey: crypto.randomUUID() }, { suppress: /^ERR_BAD_INPUT$/ });
      const r = res.report;
      notifications.show({
        color: 'green',
        message: t('{{file}}: {{imported}} rows imported ({{inserted}} new, {{updated}} updated)', { file: file.name, imported: r?.imported ?? 0, inserted: r?.inserted ?? 0, updated: r?.updated ?? 0 }),
      });
      await qc.invalidateQueries({ queryKey: inventoryKeys.all });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const refused = importReportOf(e.err);
      if (refused) setReport(refused);
      else if (e.err.code === 'ERR_BAD_INPUT') void dialogs.error(e.err);
    } finally {
      setBusy(null);
      resetFile.current?.();
    }
  };

  const exportFile = async () => {
    setBusy('export');
    try {
      await downloadCsv(entity, warehouse ?? undefined);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Group gap="xs" data-testid={`csv-${entity}`}>
      <FileButton onChange={(f) => void importFile(f)} accept=".csv,text/csv" resetRef={resetFile}>
        {(props) => (
          <Button {...props} variant="default" leftSection={<IconUpload size={18} />} loading={busy === 'import'} data-testid="csv-import">
            {t('Import')}
          </Button>
        )}
      </FileButton>
      <Button variant="default" leftSection={<IconDownload size={18} />} onClick={() => void exportFile()} loading={busy === 'export'} data-testid="csv-export">
        {t('Export')}
      </Button>
      {report && <RejectedRows report={report} onClose={() => setReport(null)} />}
    </Group>
  );
}
