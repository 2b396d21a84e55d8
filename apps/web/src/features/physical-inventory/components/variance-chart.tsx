import { BarChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import type { CallResponse } from '@floorhand/contract/api';
import '@mantine/charts/styles.css';

type ByLocation = NonNullable<CallResponse<'counts/review'>['byLocation']>;

/**
 * The review summary's chart: overage and shortage per location, the largest absolute variance first.
 * Review is for supervisors only (physicalInventory.post): a counter never loads this chunk nor its data.
 * Loaded lazily with the review screen, so recharts stays out of the counting screen's chunk.
 */
export function VarianceChart({ data }: { data: ByLocation }) {
  const { t } = useTranslation();
  const over = t('Over');
  const short = t('Short');
  const rows = data.map((d) => ({ location: d.location, [over]: d.over, [short]: d.short }));
  return (
    <BarChart
      h={Math.max(160, 28 * rows.length + 60)}
      data={rows}
      dataKey="location"
      orientation="vertical"
      type="stacked"
      // Shortages left of zero, overages right of it, each from zero.
      barChartProps={{ stackOffset: 'sign' }}
      yAxisProps={{ width: 110 }}
      series={[
        { name: short, color: 'red.8' },
        { name: over, color: 'blue.8' },
      ]}
      withLegend
      referenceLines={[{ x: 0, color: 'gray.6' }]}
    />
  );
}
