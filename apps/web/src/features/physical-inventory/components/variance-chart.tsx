import { BarChart, ChartTooltip } from '@mantine/charts';
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
  const series = [
    { name: short, color: 'red.8' },
    { name: over, color: 'blue.8' },
  ];
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
      series={series}
      withLegend
      // The tooltip names the location it is about (issue 25): the bars of a vertical chart gave no label of their own.
      tooltipProps={{
        content: ({ payload }) => {
          const shown = [...(payload ?? [])] as unknown as Array<Record<string, unknown>>;
          const location = (shown[0]?.payload as { location?: string } | undefined)?.location;
          if (!location) return null;
          return (
            <ChartTooltip
              label={t('Location {{code}}', { code: location })}
              payload={shown}
              series={series}
              data-testid="pi-chart-tooltip"
            />
          );
        },
      }}
      referenceLines={[{ x: 0, color: 'gray.6' }]}
    />
  );
}
