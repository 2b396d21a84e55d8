import { useMemo, useRef, useState } from 'react';
import { Alert, Button, FileButton, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
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
import { DataTable, type DataColumn } from './data-table.tsx';

export interface CsvTransferProps {
  entity: CsvEntity;
  /** Export only this warehouse's rows. */
  warehouse?: string | null;
}

/** A refused row's problem, numbered (a row may have the same problem twice). */
type Problem = ImportReport['rejected'][number] & { n: number };

function RejectedRows({ report, onClose }: { report: ImportReport; onClose(): void }) {
  const { t } = useTranslation();
  const problemColumns = useMemo<DataColumn<Problem>[]>(
    () => [
      { id: 'row', header: t('Row'), cell: (p) => p.row, sortValue: (p) => p.row },
      { id: 'field', header: t('Field'), cell: (p) => p.field, sortValue: (p) => p.field },
      { id: 'problem', header: t('Problem'), cell: (p) => p.message, tdProps: { style: { overflowWrap: 'anywhere' } } },
    ],
    [t],
  );
  const problems = useMemo(() => report.rejected.map((p, n) => ({ ...p, n })), [report.rejected]);
  return (
    <Modal opened onClose={onClose} title={t('Import refused')} size="lg" data-testid="import-report">
      <Stack>
        <Alert color="red">{importRefusalSummary(report, t)}</Alert>
        <ScrollArea.Autosize mah="50vh" type="auto">
          <DataTable
            rows={problems}
            columns={problemColumns}
            rowKey={(p) => String(p.n)}
            rowAttrs={() => ({ 'data-testid': 'import-problem' })}
            tableProps={{ striped: true, verticalSpacing: 4, highlightOnHover: false }}
            scroll={false}
          />
        </ScrollArea.Autosize>
        {report.rejected.length < report.rejectedCount && (
          <Text size="sm">{t('Only the first {{n}} problems are listed.', { n: report.rejected.length })}</Text>
        )}
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
      const res = await call(
        'import/csv',
        { entity, csv: await file.text(), idempotencyKey: crypto.randomUUID() },
        { suppress: /^ERR_BAD_INPUT$/ },
      );
      const r = res.report;
      notifications.show({
        color: 'green',
        message: t('{{file}}: {{imported}} rows imported ({{inserted}} new, {{updated}} updated)', {
          file: file.name,
          imported: r?.imported ?? 0,
          inserted: r?.inserted ?? 0,
          updated: r?.updated ?? 0,
        }),
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
    } catch {
      // The request helper has shown the error.
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
      <Button
        variant="default"
        leftSection={<IconDownload size={18} />}
        onClick={() => void exportFile()}
        loading={busy === 'export'}
        data-testid="csv-export"
      >
        {t('Export')}
      </Button>
      {report && <RejectedRows report={report} onClose={() => setReport(null)} />}
    </Group>
  );
}
