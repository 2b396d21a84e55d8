import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Collapse, Group, Loader, Stack, Text } from '@mantine/core';
import { BlindNotices } from '../../../components/ui/blind-notice.tsx';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconAdjustments, IconClockPause, IconEyeOff, IconInfoCircle } from '@tabler/icons-react';
import { INVENTORY_MAX_ROWS } from '@floorhand/contract/common';
import { LOOKUP_VALUE_MAX } from '@floorhand/contract/stock';
import { CsvTransfer } from '../../../components/ui/csv-transfer.tsx';
import { FetchedAt } from '../../../components/ui/fetched-at.tsx';
import { noAnswer, useReadConnection } from '../../../lib/offline-cache/connection.ts';
import { useToCheckStore } from '../../../lib/offline-cache/to-check.ts';
import { MruChips } from '../../../components/ui/mru-chips.tsx';
import { useStockChangedRefresh } from '../../../lib/inventory-api.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { readFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { lookupQuery, useLookupStock } from '../api/lookup-stock.ts';
import { useStockLookupPrefs } from '../hooks/use-stock-lookup-prefs.ts';
import { activeFilterCount, groupByItem, lookupArgs, lookupValueFits, MATCH_LABELS } from '../utils/lookup.ts';
import { LookupFilters } from './lookup-filters.tsx';
import { LookupResults } from './lookup-results.tsx';
import { StockDetailDrawer } from './stock-detail-drawer.tsx';

const MRU_KEY = 'stockLookup';

/**
 * Stock Lookup: one value (scanned anywhere on the page or typed) looked up as a stock id, part
 * number, barcode alias and location code at once. The value lives in the URL (?q=), so the header's
 * scan button, the home screen's wedge scans and a reload all land on the same lookup.
 */
export function StockLookupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const narrow = useNarrow();
  // Read raw: the router's JSON search parser would turn a scanned '12345' or 'true' into a number or a boolean.
  const q = new URLSearchParams(useRouterState({ select: (s) => s.location.searchStr })).get('q')?.trim() ?? '';
  const [prefs, setPrefs] = useStockLookupPrefs();
  const mru = useSessionStore((s) => s.mru[MRU_KEY]);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [detail, setDetail] = useState<string | null>(null);
  // A value longer than anything that exists is said so once, never sent, never remembered.
  const fits = lookupValueFits(q);
  const result = useLookupStock(lookupArgs(fits ? q : '', prefs));
  useStockChangedRefresh();

  useEffect(() => {
    if (q && fits) useSessionStore.getState().pushMru(MRU_KEY, q);
  }, [q, fits]);

  // Offline (issue 27 item 4): a value looked up before shows its cached answer, marked with its time;
  // one never looked up is kept "to check" and looked up as soon as the server answers again.
  const qc = useQueryClient();
  const connection = useReadConnection();
  const toCheck = useToCheckStore((s) => s.values);
  const unanswered = q !== '' && fits && result.data === undefined && (result.fetchStatus === 'paused' || noAnswer(result.error));
  useEffect(() => {
    if (unanswered) useToCheckStore.getState().add(q);
  }, [unanswered, q]);
  const checking = useRef(false);
  useEffect(() => {
    if (connection !== 'online' || toCheck.length === 0 || checking.current) return;
    checking.current = true;
    void (async () => {
      let shown: string | null = null;
      for (const v of toCheck) {
        try {
          await qc.fetchQuery(lookupQuery(lookupArgs(v, prefs)));
        } catch (e) {
          if (noAnswer(e)) break;
          // A refusal is an answer too (its dialog has shown): the value is checked.
        }
        useToCheckStore.getState().remove(v);
        shown = v;
      }
      checking.current = false;
      // The last one checked shows, as if scanned now.
      if (shown !== null) void navigate({ href: `/stockLookup?q=${encodeURIComponent(shown)}`, replace: true });
    })();
  }, [connection, toCheck, qc, prefs, navigate]);

  const lookup = (value: string) => {
    const v = value.trim();
    if (!v) return;
    if (connection !== 'online' && lookupValueFits(v) && qc.getQueryData(lookupQuery(lookupArgs(v, prefs)).queryKey) === undefined) {
      useToCheckStore.getState().add(v);
      return;
    }
    // The same label scanned again is a wish to see it fresh.
    if (v === q && fits) void result.refetch();
    else void navigate({ href: `/stockLookup?q=${encodeURIComponent(v)}`, replace: true });
  };
  useScans((scan) => {
    readFeedback(scan);
    lookup(scan.text);
  });
  const adjust = (stockId: string) => void navigate({ href: `/stockAdjust/${encodeURIComponent(stockId)}` });

  const data = result.data;
  const items = data?.groups ? groupByItem(data.groups) : [];
  const filters = activeFilterCount(prefs);

  return (
    <Stack gap="sm" maw={1400}>
      <ScanInput label={t('Stock id, part number, barcode, location or order')} data-testid="lookup-input" autoFocus={!narrow} />
      <MruChips values={mru ?? []} onPick={lookup} testId="lookup-mru" />

      {narrow && (
        <Button
          variant="default"
          leftSection={<IconAdjustments size={18} />}
          rightSection={filters > 0 ? <Badge size="sm">{filters}</Badge> : undefined}
          onClick={() => setFiltersOpen((o) => !o)}
          aria-expanded={filtersOpen}
          data-testid="filters-toggle"
        >
          {t('Filters and sort')}
        </Button>
      )}
      <Collapse in={!narrow || filtersOpen}>
        <LookupFilters prefs={prefs} onChange={setPrefs} />
      </Collapse>

      {!q && (
        <Alert icon={<IconInfoCircle />} color="dark" data-testid="lookup-empty">
          {t('Scan a stock label, item barcode or location label, or type a stock id, part number or location code and press Enter.')}
        </Alert>
      )}

      {toCheck.length > 0 && (
        <Alert icon={<IconClockPause />} color="yellow" data-testid="lookup-to-check" title={t('To check when the connection returns')}>
          <Text size="sm">
            {t('These were scanned offline and never looked up before; each is looked up as soon as the server answers.')}
          </Text>
          <Group gap="xs" mt="xs">
            {toCheck.map((v) => (
              <Badge
                key={v}
                color="dark"
                variant="outline"
                size="lg"
                ff="monospace"
                data-testid="lookup-to-check-item"
                style={{ textTransform: 'none' }}
              >
                {v}
              </Badge>
            ))}
          </Group>
        </Alert>
      )}

      {q && !fits && (
        <Alert color="orange" data-testid="lookup-too-long" title={t('This value is too long to look up')}>
          {t(
            'A stock id, part number, barcode or location code has at most {{max}} characters; this one has {{n}}. Was a different label scanned?',
            {
              max: LOOKUP_VALUE_MAX,
              n: q.length,
            },
          )}
        </Alert>
      )}

      {q && fits && (
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <Text fw={600} data-testid="lookup-val" style={{ overflowWrap: 'anywhere' }}>
              {t('Looking up: {{value}}', { value: q })}
            </Text>
            {data?.matchedAs?.map((m) => (
              <Badge key={m} variant="light" data-testid="lookup-match">
                {t(MATCH_LABELS[m])}
              </Badge>
            ))}
            {result.isFetching && <Loader size="xs" />}
            {data && <FetchedAt at={result.dataUpdatedAt} testId="lookup-fetched-at" />}
          </Group>
          {data && (
            <Text size="sm" c="dimmed" data-testid="lookup-count">
              {t('Records: {{n}}', { n: data.rowCount ?? 0 })}
            </Text>
          )}
        </Group>
      )}

      {data?.more && (
        <Alert color="yellow" data-testid="lookup-more">
          {t('Only the first {{max}} records are shown; more match. Narrow the lookup with the filters.', { max: INVENTORY_MAX_ROWS })}
        </Alert>
      )}

      {/* Stock the user counts blind is withheld by the server (docs/physical-inventory.md, Blind counts everywhere). */}
      <BlindNotices places={data?.blind} testId="lookup-blind" icon={<IconEyeOff />} />

      {q && data && items.length === 0 && !data.blind?.length && (
        <Alert color="dark" data-testid="lookup-none">
          {data.matchedAs?.length
            ? t('No stock matches the filters.') + (prefs.showZeroQty ? '' : ` ${t('Records with zero quantity are hidden.')}`)
            : t("Nothing is known as '{{value}}'.", { value: q })}
        </Alert>
      )}

      {items.length > 0 && <LookupResults items={items} onDetail={setDetail} onAdjust={adjust} />}

      <Group justify="flex-end">
        <CsvTransfer entity="stock" warehouse={prefs.filterWarehouse} />
      </Group>

      <StockDetailDrawer stockId={detail} onClose={() => setDetail(null)} onAdjust={adjust} />
    </Stack>
  );
}
