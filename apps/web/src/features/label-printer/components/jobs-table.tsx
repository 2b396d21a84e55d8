import type { ReactNode } from 'react';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconPlayerPlay, IconRepeat } from '@tabler/icons-react';
import type { JobState, LabelJob } from '@floorhand/contract/labels';
import { printerProblemInWords } from '@floorhand/contract/printer-words';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { showTimestamp } from '../../../lib/inventory-format.ts';
import { printedCount, printerName } from '../../../lib/label-printing.ts';
import { useAgents } from '../api/agents.ts';
import { useJobs, usePrintRest, useReprint } from '../api/jobs.ts';

const JOB_COLOURS = new Map<JobState, string>([
  ['queued', 'blue'],
  ['sent', 'blue'],
  ['printed', 'green'],
  ['held', 'yellow'],
  ['failed', 'red'],
]);

/** One key per job's rest on this page: a second tap answers the same job instead of a 409. */
const restKeys = new Map<string, string>();
const restKey = (jobId: string) => restKeys.get(jobId) ?? restKeys.set(jobId, crypto.randomUUID()).get(jobId)!;

/** An interrupted job whose rest has not been asked for: "Print the rest" (label/job/printRest). */
const hasRest = (j: LabelJob) => j.state === 'failed' && typeof j.printed === 'number' && j.printed < j.labels * j.copies && !j.restJob;

/**
 * The site's recent print jobs with their results: "5 of 20 printed" while a job prints or when it
 * stopped part way (the printer's own count), printers by name, reasons in words; a reprint sends the
 * same bytes again, "Print the rest" only the labels an interrupted job did not print.
 */
export function JobsTable() {
  const { t } = useTranslation();
  const jobs = useJobs();
  const agents = useAgents();
  const reprint = useReprint();
  const printRest = usePrintRest();
  const printers = (agents.data?.agents ?? []).flatMap((a) => a.printers);
  const columns: DataColumn<LabelJob>[] = [
    { id: 'createdAt', header: t('Time'), cell: (j) => showTimestamp(j.createdAt), sortValue: (j) => j.createdAt, card: 'title' },
    {
      id: 'state',
      header: t('Result'),
      cell: (j) => (
        // Never cut ("PRINT…"): the column is as wide as the word.
        <Badge
          color={JOB_COLOURS.get(j.state) ?? 'gray'}
          data-testid="job-state"
          style={{ maxWidth: 'none', overflow: 'visible' }}
          styles={{ label: { overflow: 'visible' } }}
        >
          {t(j.state)}
        </Badge>
      ),
      sortValue: (j) => j.state,
    },
    {
      id: 'printed',
      header: t('Printed'),
      cell: (j) => (
        <Text size="sm" data-testid="job-printed">
          {printedCount(j) ?? (j.state === 'printed' && j.printed === null ? t('not counted') : '')}
        </Text>
      ),
      sortValue: (j) => j.printed ?? -1,
    },
    {
      id: 'reason',
      header: t('Reason'),
      cell: (j) => <Text size="sm">{j.reason ? printerProblemInWords(j.reason, t) : ''}</Text>,
      sortValue: (j) => j.reason,
    },
    { id: 'kind', header: t('Label'), cell: (j) => `${j.kind} · ${j.templateId} v${j.templateVersion}`, sortValue: (j) => j.kind },
    { id: 'labels', header: t('Labels × copies'), cell: (j) => `${j.labels} × ${j.copies}`, align: 'right', sortValue: (j) => j.labels },
    {
      id: 'printer',
      header: t('Printer'),
      cell: (j) => printerName(j.printerId, printers),
      sortValue: (j) => printerName(j.printerId, printers),
    },
    { id: 'by', header: t('By'), cell: (j) => j.requestedBy, sortValue: (j) => j.requestedBy },
  ];
  const actions: RowAction<LabelJob>[] = [
    {
      id: 'reprint',
      label: () => t('Reprint'),
      ariaLabel: (j) => t('Reprint job of {{at}}', { at: showTimestamp(j.createdAt) }),
      icon: <IconRepeat size={18} />,
      testId: 'reprint',
      onClick: (j) =>
        void reprint.mutateAsync({ idempotencyKey: crypto.randomUUID(), jobId: j.jobId }).then(
          () => notifications.show({ closeButtonProps: { 'aria-label': t('Close') }, color: 'blue', message: t('Reprint sent') }),
          () => undefined,
        ),
    },
    {
      id: 'printRest',
      label: () => t('Print the rest'),
      ariaLabel: (j) => t('Print the rest of the job of {{at}}', { at: showTimestamp(j.createdAt) }),
      icon: <IconPlayerPlay size={18} />,
      testId: 'print-rest',
      allowed: hasRest,
      onClick: (j) =>
        void printRest.mutateAsync({ idempotencyKey: restKey(j.jobId), jobId: j.jobId }).then(
          (res) =>
            notifications.show({
              closeButtonProps: { 'aria-label': t('Close') },
              color: 'blue',
              message: t('The other {{count}} label(s) sent', { count: (res.job?.labels ?? 0) * (res.job?.copies ?? 0) }),
            }),
          () => undefined,
        ),
    },
  ];
  // A handheld's card: the values, then the actions under them (two buttons beside the values would
  // squeeze them to a letter a line at 360 px).
  const renderCard = (j: LabelJob, rowActions: ReactNode) => (
    <Stack gap={4}>
      <Text fw={600}>{showTimestamp(j.createdAt)}</Text>
      {columns
        .filter((c) => c.card !== 'title')
        .map((c) => (
          <Group key={c.id} gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              {c.header}
            </Text>
            <div style={{ minWidth: 0, overflowWrap: 'anywhere', fontSize: 'var(--mantine-font-size-sm)' }}>{c.cell(j)}</div>
          </Group>
        ))}
      {rowActions}
    </Stack>
  );
  return (
    <DataTable
      rows={jobs.data?.jobs ?? []}
      columns={columns}
      renderCard={renderCard}
      rowKey={(j) => j.jobId}
      rowAttrs={(j) => ({ 'data-testid': 'job-row', 'data-job': j.jobId, 'data-state': j.state })}
      actions={actions}
      actionsHeader={t('Actions')}
      loading={jobs.isPending}
      empty={<Text c="dimmed">{t('No label has been printed on this site yet.')}</Text>}
      testId="jobs-table"
    />
  );
}
