import { lazy, Suspense, useState } from 'react';
import { Button, Group, Loader, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { tk } from '@floorhand/contract/i18n';
import { IconDownload } from '@tabler/icons-react';
import { ATTENDANCE_GROUPS, type ReportGroup, type ReportRow } from '@floorhand/contract/labor';
import { showHours } from '../utils/hours.ts';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { downloadPunchesCsv, localDayRange } from '../../../lib/punch-export.ts';
import { downloadLaborCsv } from '../api/export-labor.ts';
import { useLaborReport } from '../api/labor-report.ts';

// The chart is its own chunk, loaded only when a report shows.
const ReportChart = lazy(() => import('./report-chart.tsx').then((m) => ({ default: m.ReportChart })));

const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const GROUPS: ReadonlyArray<{ value: ReportGroup; label: string }> = [
  { value: 'worker', label: tk('Per worker') },
  { value: 'task', label: tk('Per task') },
  { value: 'order', label: tk('Per order') },
  { value: 'day', label: tk('Per day') },
  { value: 'operation', label: tk('Planned vs actual') },
  { value: 'attendance', label: tk('Attendance') },
];

/**
 * Labor reports for supervisors (admins and timeclockAdmin): totals per worker, task, order and day,
 * planned versus actual per operation, as a table and a chart, and the CSV export of the entries.
 * Hours are each entry's total rounded once to roundToMinutes, shown with displayScale decimals.
 */
export function LaborReports() {
  const { t } = useTranslation();
  const today = new Date();
  const [from, setFrom] = useState(isoDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 6)));
  const [to, setTo] = useState(isoDay(today));
  const [groupBy, setGroupBy] = useState<ReportGroup>('worker');
  const [exporting, setExporting] = useState(false);
  const [exportingPunches, setExportingPunches] = useState(false);
  const tzOffsetMinutes = -today.getTimezoneOffset();
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to);
  const report = useLaborReport({ from, to, tzOffsetMinutes, groupBy }, valid && from <= to);
  const rows = valid ? (report.data?.rows ?? []) : [];
  const scale = report.data?.settings?.displayScale ?? 1;
  const hours = (s: number) => showHours(s, scale);
  const withAttendance = ATTENDANCE_GROUPS.has(groupBy);

  const columns: DataColumn<ReportRow>[] = [
    {
      id: 'key',
      header:
        groupBy === 'worker'
          ? t('Worker')
          : groupBy === 'day'
            ? t('Day')
            : groupBy === 'order'
              ? t('Order')
              : groupBy === 'attendance'
                ? t('Worker and day')
                : t('Task'),
      cell: (r) => r.label || r.key,
      sortValue: (r) => r.label || r.key,
      card: 'title',
    },
    { id: 'entries', header: t('Entries'), cell: (r) => r.entries, sortValue: (r) => r.entries, align: 'right' },
    { id: 'hours', header: t('Hours'), cell: (r) => hours(r.roundedSeconds), sortValue: (r) => r.roundedSeconds, align: 'right' },
    {
      id: 'exact',
      header: t('Exact h:mm'),
      cell: (r) => `${Math.floor(r.seconds / 3600)}:${String(Math.floor((r.seconds % 3600) / 60)).padStart(2, '0')}`,
      sortValue: (r) => r.seconds,
      align: 'right',
    },
    { id: 'qty', header: t('Quantity done'), cell: (r) => r.qtyDone, sortValue: (r) => r.qtyDone, align: 'right' },
    ...(withAttendance
      ? [
          {
            id: 'attendance',
            header: t('Attendance h'),
            cell: (r: ReportRow) => hours(r.attendanceSeconds ?? 0),
            sortValue: (r: ReportRow) => r.attendanceSeconds ?? 0,
            align: 'right' as const,
          },
          {
            id: 'unallocated',
            header: t('Unallocated h'),
            cell: (r: ReportRow) => hours(r.unallocatedSeconds ?? 0),
            sortValue: (r: ReportRow) => r.unallocatedSeconds ?? 0,
            align: 'right' as const,
          },
        ]
      : []),
    ...(groupBy === 'operation'
      ? [
          {
            id: 'planned',
            header: t('Planned h'),
            cell: (r: ReportRow) => (r.plannedMinutes == null ? '–' : hours(r.plannedMinutes * 60)),
            sortValue: (r: ReportRow) => r.plannedMinutes ?? null,
            align: 'right' as const,
          },
          {
            id: 'variance',
            header: t('Actual − planned h'),
            cell: (r: ReportRow) => (r.plannedMinutes == null ? '–' : hours(r.roundedSeconds - r.plannedMinutes * 60)),
            sortValue: (r: ReportRow) => (r.plannedMinutes == null ? null : r.roundedSeconds - r.plannedMinutes * 60),
            align: 'right' as const,
          },
          {
            id: 'complete',
            header: t('Complete'),
            cell: (r: ReportRow) => (r.complete ? t('Yes') : t('No')),
            sortValue: (r: ReportRow) => (r.complete ? 1 : 0),
          },
        ]
      : []),
  ];

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadLaborCsv({ from, to, tzOffsetMinutes });
    } catch {
      // The request helper has shown the error.
    } finally {
      setExporting(false);
    }
  };

  const exportPunches = async () => {
    setExportingPunches(true);
    try {
      await downloadPunchesCsv(localDayRange({ from, to }), `punches-${from}-${to}.csv`);
    } catch {
      // The request helper has shown the error.
    } finally {
      setExportingPunches(false);
    }
  };

  return (
    <Stack gap="md" data-testid="labor-reports">
      <Title order={2} size="h3">
        {t('Labor reports')}
      </Title>
      <Group align="flex-end" wrap="wrap">
        <TextInput type="date" label={t('From')} value={from} onChange={(e) => setFrom(e.currentTarget.value)} data-testid="report-from" />
        <TextInput type="date" label={t('To')} value={to} onChange={(e) => setTo(e.currentTarget.value)} data-testid="report-to" />
        <Button
          variant="default"
          size="md"
          leftSection={<IconDownload size={18} />}
          loading={exporting}
          onClick={() => void exportCsv()}
          disabled={!valid}
          data-testid="report-export"
        >
          {t('Export labor entries (CSV)')}
        </Button>
        <Button
          variant="default"
          size="md"
          leftSection={<IconDownload size={18} />}
          loading={exportingPunches}
          onClick={() => void exportPunches()}
          disabled={!valid}
          data-testid="report-export-punches"
        >
          {t('Export punches (CSV)')}
        </Button>
      </Group>
      <SegmentedControl
        value={groupBy}
        onChange={(v) => setGroupBy(v as ReportGroup)}
        data={GROUPS.map((g) => ({ value: g.value, label: t(g.label) }))}
        data-testid="report-group"
      />
      <Group align="flex-start" grow wrap="wrap">
        <Paper withBorder p="sm" radius="md" miw={420}>
          <DataTable
            rows={rows}
            columns={columns}
            rowKey={(r) => r.key || r.label}
            loading={report.isLoading}
            empty={<Text c="dimmed">{t('No labor in this period.')}</Text>}
            testId="report-table"
            initialSort={{ column: 'key', direction: 'asc' }}
          />
        </Paper>
        <Paper withBorder p="sm" radius="md" miw={420} data-testid="report-chart">
          <Suspense fallback={<Loader size="sm" />}>
            {rows.length > 0 ? (
              <ReportChart rows={rows} scale={scale} planned={groupBy === 'operation'} attendance={withAttendance} />
            ) : (
              <Text c="dimmed">{t('Nothing to chart.')}</Text>
            )}
          </Suspense>
        </Paper>
      </Group>
      <Text size="sm" c="dimmed">
        {t(
          'Hours are each labor entry rounded once to the app settings’ rounding; exact time is the sum of the exact shares. Attendance is the time clock’s punches that count (in → out); unallocated (indirect) time is attendance minus exact labor per worker and day. The punches export flags edited punches.',
        )}
      </Text>
    </Stack>
  );
}
