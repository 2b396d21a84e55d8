import { BarChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import type { ReportRow } from '@floorhand/contract/labor';
import { showDecimal } from '../../../lib/inventory-format.ts';
import '@mantine/charts/styles.css';

/**
 * Hours per row of a labor report; planned beside actual for operations; labor stacked on unallocated
 * time (their sum is attendance, or more when labor was booked outside it) for the attendance groups.
 * Loaded lazily with the report.
 */
export function ReportChart({
  rows,
  scale,
  planned,
  attendance = false,
}: {
  rows: readonly ReportRow[];
  scale: number;
  planned: boolean;
  attendance?: boolean;
}) {
  const { t } = useTranslation();
  const round = (s: number) => Number((s / 3600).toFixed(scale));
  // The axis and the tooltip write hours as the screen does ("1,5" in Spanish).
  const valueFormatter = (hours: number) => showDecimal(String(hours));
  if (attendance) {
    const labor = t('Labor h');
    const unallocated = t('Unallocated h');
    const data = rows.map((r) => ({ name: r.label || r.key, [labor]: round(r.seconds), [unallocated]: round(r.unallocatedSeconds ?? 0) }));
    return (
      <BarChart
        h={280}
        data={data}
        dataKey="name"
        type="stacked"
        series={[
          { name: labor, color: 'blue.6' },
          { name: unallocated, color: 'orange.6' },
        ]}
        withLegend
        valueFormatter={valueFormatter}
      />
    );
  }
  const data = rows.map((r) => ({
    name: r.key || r.label,
    [t('Actual h')]: round(r.roundedSeconds),
    ...(planned ? { [t('Planned h')]: r.plannedMinutes == null ? 0 : round(r.plannedMinutes * 60) } : {}),
  }));
  const series = [{ name: t('Actual h'), color: 'blue.6' }, ...(planned ? [{ name: t('Planned h'), color: 'gray.5' }] : [])];
  return <BarChart h={280} data={data} dataKey="name" series={series} withLegend={planned} valueFormatter={valueFormatter} />;
}
