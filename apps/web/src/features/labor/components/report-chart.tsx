import { BarChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import type { ReportRow } from '@floorhand/contract/labor';
import '@mantine/charts/styles.css';

/** Hours per row of a labor report; planned beside actual for operations. Loaded lazily with the report. */
export function ReportChart({ rows, scale, planned }: { rows: readonly ReportRow[]; scale: number; planned: boolean }) {
  const { t } = useTranslation();
  const round = (s: number) => Number((s / 3600).toFixed(scale));
  const data = rows.map((r) => ({ name: r.key || r.label, [t('Actual h')]: round(r.roundedSeconds), ...(planned ? { [t('Planned h')]: r.plannedMinutes == null ? 0 : round(r.plannedMinutes * 60) } : {}) }));
  const series = [{ name: t('Actual h'), color: 'blue.6' }, ...(planned ? [{ name: t('Planned h'), color: 'gray.5' }] : [])];
  return <BarChart h={280} data={data} dataKey="name" series={series} withLegend={planned} />;
}
