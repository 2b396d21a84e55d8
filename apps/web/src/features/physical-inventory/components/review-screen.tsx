import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, List, Loader, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../../../lib/offline/connection.ts';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import {
  CHART_LOCATIONS_MAX,
  isSheetDecidable,
  mayDecide,
  REVIEW_PAGE_MAX,
  postRefusalSchema,
  type InvalidLine,
  type LineDecision,
  type ReviewLine,
} from '@floorhand/contract/counts';
import { ERR } from '@floorhand/contract/errors';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { ApiError } from '../../../lib/api.ts';
import { exportCounts } from '../api/export-counts.ts';
import { showQty } from '../../../lib/inventory-format.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { useCountChange } from '../api/change-counts.ts';
import { useReview } from '../api/get-review.ts';
import { STATE_COLORS } from './sheet-list.tsx';
import { tk } from '@floorhand/contract/i18n';

// recharts loads with the review only: the counting screen on a handheld never fetches it.
const VarianceChart = lazy(() => import('./variance-chart.tsx').then((m) => ({ default: m.VarianceChart })));

const FLAG_LABELS: ReadonlyMap<string, string> = new Map([
  ['disputed', tk('counters disagree')],
  ['serialOver1', tk('serial above 1')],
  ['overThreshold', tk('over threshold')],
]);

/** Reads a refused post's detail: every invalid line. */
function invalidOf(e: unknown): InvalidLine[] | null {
  if (!(e instanceof ApiError) || e.err.code !== ERR.badInput || !e.err.detail) return null;
  try {
    return postRefusalSchema.parse(JSON.parse(e.err.detail)).invalid;
  } catch {
    return null;
  }
}

/** Review of a counted sheet on a desk: variances per line, accept / recount / exclude, post, CSV. */
export function ReviewScreen({ sheetId, onBack }: { sheetId: string; onBack(): void }) {
  const { t } = useTranslation();
  const [onlyVariances, setOnlyVariances] = useState(true);
  // The review pages by REVIEW_PAGE_MAX lines: a sheet of 20,000 lines is reviewed page by page.
  const [offset, setOffset] = useState(0);
  const review = useReview(sheetId, onlyVariances, offset);
  const pageLines = review.data?.lines;
  const turning = review.isPlaceholderData;
  // A page left empty (fewer lines than before) goes back to the first.
  useEffect(() => {
    if (offset > 0 && !turning && pageLines?.length === 0) setOffset(0);
  }, [offset, turning, pageLines]);
  const decide = useCountChange('counts/decide');
  const post = useCountChange('counts/post', { suppress: /^ERR_BAD_INPUT$/ });
  const [postKey, setPostKey] = useState(() => crypto.randomUUID());
  const [invalid, setInvalid] = useState<InvalidLine[]>([]);
  const sheet = review.data?.sheet;
  const summary = review.data?.summary;
  const inReview = !!sheet && isSheetDecidable(sheet.state);

  // Review and posting are not offline (issue 27): their buttons wait for the server and say so.
  const online = useConnection((c) => c.state === 'online');
  const decideLines = (decision: LineDecision, lineIds: string[], all = false) => decide.mutateAsync({ sheetId, decision, lineIds, all });

  const onPost = async () => {
    const answer = await dialogs.confirm({
      type: 'question',
      title: t('Post count sheet'),
      message: t('Post the count adjustments of {{code}} to the ledger? Excluded lines are left out.', { code: sheet?.code ?? '' }),
      neg: t('Cancel'),
      pos: t('Post'),
      focus: 'pos',
    });
    if (answer !== 'pos') return;
    try {
      const res = await post.mutateAsync({ sheetId, idempotencyKey: postKey });
      setInvalid([]);
      notifications.show({
        color: 'green',
        message: t('{{code}} posted: {{n}} count adjustments', { code: sheet?.code ?? '', n: res.movements ?? 0 }),
      });
    } catch (e) {
      const lines = invalidOf(e);
      if (lines) setInvalid(lines);
      // A definite refusal: the next try is a new request.
      if (e instanceof ApiError && e.status < 500) setPostKey(crypto.randomUUID());
    }
  };

  const onExport = async () => {
    const res = await exportCounts(sheetId);
    if (res.csv !== undefined) saveFile(new Blob([res.csv], { type: 'text/csv' }), res.fileName ?? 'count-sheet.csv');
  };

  const columns: DataColumn<ReviewLine>[] = [
    { id: 'location', header: t('Location'), cell: (l) => l.location, sortValue: (l) => l.location },
    {
      id: 'stockId',
      header: t('Stock id'),
      cell: (l) => l.stockId ?? '—',
      sortValue: (l) => l.stockId,
      card: 'title',
      tdProps: { fw: 600 },
    },
    // Lot or serial under the part, and the counter under the status (issue 25): the table fits 1440x900 with every row action in view.
    {
      id: 'part',
      header: t('Part, lot / serial'),
      cell: (l) => (
        <>
          {l.partNumber}
          {(l.serial ?? l.lot) && (
            <Text size="xs" c="dimmed">
              {l.serial ?? l.lot}
            </Text>
          )}
        </>
      ),
      sortValue: (l) => l.partNumber,
    },
    { id: 'system', header: t('System'), cell: (l) => showQty(l.systemQty), sortValue: (l) => l.systemQty, align: 'right' },
    { id: 'counted', header: t('Counted'), cell: (l) => showQty(l.counted), sortValue: (l) => l.counted, align: 'right' },
    {
      id: 'variance',
      header: t('Variance'),
      cell: (l) => (
        <Text span fw={700} c={l.variance < 0 ? 'red' : l.variance > 0 ? 'blue' : undefined}>
          {l.variance > 0 ? `+${showQty(l.variance)}` : showQty(l.variance)}
        </Text>
      ),
      sortValue: (l) => l.variance,
      align: 'right',
    },
    {
      id: 'pct',
      header: t('%'),
      cell: (l) => (l.variancePct === null ? '—' : `${l.variancePct}%`),
      sortValue: (l) => l.variancePct,
      align: 'right',
    },
    {
      id: 'flags',
      header: t('Flags'),
      cell: (l) => (
        <Text size="sm" maw={200}>
          {[
            l.movedSince ? t('moved since scan') : '',
            l.locationNow !== null && l.locationNow !== l.location ? t('now in {{location}}', { location: l.locationNow }) : '',
            l.found ? t('found') : '',
            l.notFound ? t('not found') : '',
            ...l.flags.map((f) => t(FLAG_LABELS.get(f) ?? f)),
          ]
            .filter(Boolean)
            .join(', ')}
        </Text>
      ),
    },
    {
      id: 'status',
      header: t('Status, counted by'),
      cell: (l) => (
        <>
          <Text size="sm" fw={l.status === 'recount' ? 700 : 400} style={{ whiteSpace: 'nowrap' }}>
            {l.status === 'recount' ? `⚠ ${t('recount')}` : t(l.status)}
          </Text>
          {l.countedBy && (
            <Text size="xs" c="dimmed">
              {t('by {{name}}', { name: l.countedBy })}
            </Text>
          )}
        </>
      ),
      sortValue: (l) => l.status,
    },
  ];

  return (
    <Stack gap="sm" maw={1600} data-testid="pi-review">
      <Group gap="sm">
        <Button variant="subtle" leftSection={<IconArrowLeft size={18} />} onClick={onBack} data-testid="pi-back">
          {t('Sheets')}
        </Button>
        <Title order={2} fz="xl">
          {sheet ? t('Review of {{code}} · {{warehouse}}', { code: sheet.code, warehouse: sheet.warehouse }) : t('Review')}
        </Title>
        {sheet && (
          <Badge color={STATE_COLORS.get(sheet.state) ?? 'gray'} data-testid="pi-review-state">
            {t(sheet.state)}
          </Badge>
        )}
      </Group>
      {summary && (
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 8 }} spacing="xs" data-testid="pi-summary">
          {[
            [t('Lines'), summary.lines],
            [t('With variance'), summary.withVariance],
            [t('Recount due'), summary.recount],
            [t('Accepted'), summary.accepted],
            [t('Excluded'), summary.excluded],
            [t('Moved since scan'), summary.movedSince],
            [t('Net variance'), showQty(summary.netVariance)],
            [t('Locations not scanned'), summary.uncountedLocations],
          ].map(([label, value]) => (
            <Paper key={String(label)} withBorder p="xs">
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={700} fz="lg">
                {value}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {review.data?.byLocation && review.data.byLocation.length > 0 && (
        <Paper withBorder p="sm" data-testid="pi-variance-chart">
          <Text fw={600} size="sm" mb="xs">
            {t('Variance by location, the largest first (up to {{n}})', { n: CHART_LOCATIONS_MAX })}
          </Text>
          <Suspense fallback={<Loader size="sm" />}>
            <VarianceChart data={review.data.byLocation} />
          </Suspense>
        </Paper>
      )}
      <Group gap="sm">
        <Switch
          label={t('Only lines with a variance')}
          checked={onlyVariances}
          onChange={(e) => {
            setOnlyVariances(e.currentTarget.checked);
            setOffset(0);
          }}
          size="md"
          data-testid="pi-only-variances"
        />
        {inReview && (
          <Button
            variant="default"
            onClick={() => void decideLines('accept', [], true)}
            loading={decide.isPending}
            disabled={!online}
            data-testid="pi-accept-all"
          >
            {t('Accept all counted')}
          </Button>
        )}
        <Button variant="default" leftSection={<IconDownload size={18} />} onClick={() => void onExport()} data-testid="pi-export">
          {t('Export CSV')}
        </Button>
        {inReview && (
          <Button color="green" onClick={() => void onPost()} loading={post.isPending} disabled={!online} data-testid="pi-post" ml="auto">
            {t('Post to the ledger')}
          </Button>
        )}
      </Group>
      {inReview && !online && (
        <Alert color="orange" data-testid="pi-needs-server">
          {t('Needs the server: review and posting wait until the connection returns.')}
        </Alert>
      )}
      {invalid.length > 0 && (
        <Alert color="red" title={t('{{n}} lines cannot be posted', { n: invalid.length })} data-testid="pi-invalid">
          <List size="sm">
            {invalid.slice(0, 50).map((l) => (
              <List.Item key={l.lineId}>{`${l.location} ${l.stockId ?? ''}: ${l.problems.join('; ')}`}</List.Item>
            ))}
          </List>
          {invalid.length > 50 && <Text size="sm">{t('and {{n}} more (export the CSV for all)', { n: invalid.length - 50 })}</Text>}
        </Alert>
      )}
      <DataTable
        rows={review.data?.lines ?? []}
        columns={columns}
        rowKey={(l) => l.lineId}
        rowAttrs={(l) => ({ 'data-testid': 'pi-review-row', 'data-stock': l.stockId ?? '', 'data-status': l.status })}
        loading={review.isPending}
        more={false}
        empty={onlyVariances ? t('No line has a variance.') : t('No line on this sheet.')}
        actions={
          inReview
            ? [
                {
                  id: 'accept',
                  label: () => t('Accept'),
                  onClick: (l) => void decideLines('accept', [l.lineId]),
                  allowed: (l) => online && mayDecide('accept', l.status),
                  testId: 'pi-accept',
                },
                {
                  id: 'recount',
                  label: () => t('Recount'),
                  onClick: (l) => void decideLines('recount', [l.lineId]),
                  allowed: (l) => online && mayDecide('recount', l.status),
                  testId: 'pi-recount',
                },
                {
                  id: 'exclude',
                  label: () => t('Exclude'),
                  onClick: (l) => void decideLines('exclude', [l.lineId]),
                  allowed: (l) => online && mayDecide('exclude', l.status),
                  color: 'red',
                  testId: 'pi-exclude',
                },
              ]
            : []
        }
        testId="pi-review-table"
      />
      {/* While the next page loads the last one stays on screen: no range is claimed for it. */}
      <Pager
        offset={offset}
        count={pageLines?.length ?? 0}
        total={onlyVariances ? summary?.withVariance : summary?.lines}
        more={!!review.data?.more}
        busy={turning}
        onPrevious={() => setOffset(Math.max(0, offset - REVIEW_PAGE_MAX))}
        onNext={() => setOffset(offset + REVIEW_PAGE_MAX)}
        previousLabel={t('Previous {{n}}', { n: REVIEW_PAGE_MAX })}
        nextLabel={t('Next {{n}}', { n: REVIEW_PAGE_MAX })}
        rangeText={(r) => t('Lines {{from}}–{{to}} of {{total}}', { ...r, total: r.total ?? '' })}
        testId="pi"
      />
    </Stack>
  );
}
