import { Badge, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconRepeat } from '@tabler/icons-react';
import type { JobState, LabelJob } from '@floorhand/contract/labels';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { useJobs, useReprint } from '../api/label-api.ts';

const JOB_COLOURS = new Map<JobState, string>([
  ['queued', 'blue'],
  ['sent', 'blue'],
  ['printed', 'green'],
  ['held', 'yellow'],
  ['failed', 'red'],
]);

/** The site's recent print jobs with their results; a reprint sends the same bytes again. */
export function JobsTable() {
  const { t } = useTranslation();
  const jobs = useJobs();
  const reprint = useReprint();
  const columns: DataColumn<LabelJob>[] = [
    { id: 'createdAt', header: t('Time'), cell: (j) => new Date(j.createdAt).toLocaleString(), sortValue: (j) => j.createdAt, card: 'title' },
    {
      id: 'state',
      header: t('Result'),
      cell: (j) => (
        <Badge color={JOB_COLOURS.get(j.state) ?? 'gray'} data-testid="job-state">
          {t(j.state)}
        </Badge>
      ),
      sortValue: (j) => j.state,
    },
    { id: 'reason', header: t('Reason'), cell: (j) => <Text size="sm">{j.reason ?? ''}</Text>, sortValue: (j) => j.reason },
    { id: 'kind', header: t('Label'), cell: (j) => `${j.kind} · ${j.templateId} v${j.templateVersion}`, sortValue: (j) => j.kind },
    { id: 'labels', header: t('Labels × copies'), cell: (j) => `${j.labels} × ${j.copies}`, align: 'right', sortValue: (j) => j.labels },
    { id: 'printer', header: t('Printer'), cell: (j) => j.printerId, sortValue: (j) => j.printerId },
    { id: 'by', header: t('By'), cell: (j) => j.requestedBy, sortValue: (j) => j.requestedBy },
  ];
  const actions: RowAction<LabelJob>[] = [
    {
      id: 'reprint',
      label: () => t('Reprint'),
      ariaLabel: (j) => t('Reprint job of {{at}}', { at: new Date(j.createdAt).toLocaleString() }),
      icon: <IconRepeat size={18} />,
      testId: 'reprint',
      onClick: (j) =>
        void reprint.mutateAsync({ idempotencyKey: crypto.randomUUID(), jobId: j.jobId }).then(
          () => notifications.show({ closeButtonProps: { 'aria-label': 'Close' }, color: 'blue', message: t('Reprint sent') }),
          () => undefined,
        ),
    },
  ];
  return (
    <DataTable
      rows={jobs.data?.jobs ?? []}
      columns={columns}
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
