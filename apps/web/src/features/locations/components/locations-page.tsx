import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { Location } from '@floorhand/contract/locations';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { CsvTransfer } from '../../../components/ui/csv-transfer.tsx';
import { PrintRangeButton } from '../../../components/labels/print-range-button.tsx';
import { useStockChangedRefresh, useWarehouses } from '../../../lib/inventory-api.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { readFeedback, refuseScan } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { LOCATIONS_PAGE_SIZE, useLocations } from '../api/list-locations.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { useDeactivateLocation } from '../api/save-location.ts';
import { useLocationPrefs } from '../hooks/use-location-prefs.ts';
import { LocationEditor } from './location-editor.tsx';
import { LocationList } from './location-list.tsx';
import { LocationStockDrawer } from './location-stock-drawer.tsx';
import { locationsScanMeaning } from '../utils/scan-meaning.ts';

type Ref = { warehouse: string; code: string };

/**
 * Locations: filter by warehouse and active (session prefs), search by code or description, create,
 * edit, deactivate, and see what a location holds. Scanning a location label searches for it and
 * opens its stock when exactly one location has that code (utils/scan-meaning.ts: not while the editor is open).
 */
export function LocationsPage() {
  const { t } = useTranslation();
  const [prefs, setPrefs] = useLocationPrefs();
  const [search, setSearch] = useState(prefs.lookupVal ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const warehouses = useWarehouses();
  const canEdit = useSessionStore((s) => s.featureAccess?.['location.edit'] !== false);
  const [editing, setEditing] = useState<Location | 'new' | null>(null);
  const [shown, setShown] = useState<Ref | null>(null);
  const [scanned, setScanned] = useState<string | null>(null);
  const deactivate = useDeactivateLocation();
  useStockChangedRefresh();

  useEffect(() => {
    if (debounced !== (prefs.lookupVal ?? '')) setPrefs({ lookupVal: debounced });
  }, [debounced, prefs.lookupVal, setPrefs]);

  const filter = {
    ...(prefs.filterWarehouse ? { warehouse: prefs.filterWarehouse } : {}),
    ...(prefs.filterActive ? { active: true } : {}),
    ...(prefs.lookupVal ? { search: prefs.lookupVal } : {}),
  };
  // A page of the list; another filter starts again at its first page.
  const filterKey = JSON.stringify(filter);
  const [paging, setPaging] = useState({ filterKey, offset: 0 });
  const offset = paging.filterKey === filterKey ? paging.offset : 0;
  const list = useLocations(filter, offset);
  const locations = list.data?.locations ?? [];

  // The search field's text reaches the filter (and the prefs) through the debounce, scans too.
  useScans((scan) => {
    const meaning = locationsScanMeaning({ editing: editing === null ? null : editing === 'new' ? '' : editing.code });
    if (meaning.kind === 'refused') {
      refuseScan(meaning, scan.text.trim());
      return;
    }
    readFeedback(scan);
    setSearch(scan.text.trim());
    setScanned(scan.text.trim());
  });
  // A scanned label opens its location once the list shows exactly one with that code.
  const exact = scanned !== null && !list.isFetching ? locations.filter((l) => l.code === scanned) : [];
  if (scanned !== null && !list.isFetching && prefs.lookupVal === scanned) {
    setScanned(null);
    if (exact.length === 1) setShown({ warehouse: exact[0]!.warehouse, code: exact[0]!.code });
  }

  const onDeactivate = async (l: Location) => {
    // Deactivating can be undone (tick Active again): it is no deletion and must not say so.
    const answer = await dialogs.confirm({
      type: 'warn',
      title: t('Deactivate location'),
      message: t(
        "Deactivate location '{{code}}' in warehouse '{{warehouse}}'? It leaves the lists and cannot receive stock; its history is kept, and it can be made active again.",
        {
          code: l.code,
          warehouse: l.warehouse,
        },
      ),
      neg: t('Cancel'),
      pos: t('Deactivate'),
    });
    if (answer !== 'pos') return;
    try {
      await deactivate.mutateAsync({ warehouse: l.warehouse, code: l.code, _rev: l._rev, idempotencyKey: crypto.randomUUID() });
      notifications.show({ color: 'green', message: t('Location {{code}} deactivated', { code: l.code }) });
    } catch {
      // The error dialog has said why (it holds stock, or it changed meanwhile).
    }
  };

  const warehouseCodes = (warehouses.data ?? []).map((w) => w.code);

  return (
    <Stack gap="sm" maw={1400}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={t('Search')}
          placeholder={t('Code or description')}
          leftSection={<IconSearch size={18} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          style={{ flex: '1 1 220px' }}
          data-testid="location-search"
        />
        <Select
          label={t('Warehouse')}
          placeholder={t('All warehouses')}
          data={(warehouses.data ?? []).map((w) => ({ value: w.code, label: `${w.code} – ${w.name}` }))}
          value={prefs.filterWarehouse}
          onChange={(v) => setPrefs({ filterWarehouse: v })}
          clearable
          size="md"
          style={{ flex: '1 1 200px' }}
          data-testid="location-warehouse"
        />
        <Switch
          label={t('Active only')}
          checked={prefs.filterActive}
          onChange={(e) => setPrefs({ filterActive: e.currentTarget.checked })}
          data-testid="location-active"
        />
        {canEdit && (
          <Button leftSection={<IconPlus size={20} />} onClick={() => setEditing('new')} data-testid="location-new">
            {t('New location')}
          </Button>
        )}
        <CsvTransfer entity="locations" warehouse={prefs.filterWarehouse} />
        {prefs.filterWarehouse && <PrintRangeButton warehouse={prefs.filterWarehouse} />}
      </Group>

      {list.isPending && <Loader />}
      {!list.isPending && locations.length === 0 && (
        <Alert color="dark" data-testid="location-none">
          {t('No locations match.')}
        </Alert>
      )}
      {locations.length > 0 && (
        <LocationList
          locations={locations}
          canEdit={canEdit}
          onStock={(l) => setShown({ warehouse: l.warehouse, code: l.code })}
          onEdit={setEditing}
          onDeactivate={(l) => void onDeactivate(l)}
        />
      )}
      <Text size="sm" c="dimmed" data-testid="location-count">
        {t('Shown: {{n}}', { n: locations.length })}
      </Text>
      <Pager
        offset={offset}
        count={locations.length}
        more={!!list.data?.more}
        busy={list.isPlaceholderData}
        onPrevious={() => setPaging({ filterKey, offset: Math.max(0, offset - LOCATIONS_PAGE_SIZE) })}
        onNext={() => setPaging({ filterKey, offset: offset + LOCATIONS_PAGE_SIZE })}
        testId="location"
      />

      {editing && (
        <LocationEditor
          location={editing === 'new' ? null : editing}
          warehouseCodes={warehouseCodes}
          defaultWarehouse={prefs.filterWarehouse ?? warehouseCodes[0]}
          onClose={() => setEditing(null)}
        />
      )}
      <LocationStockDrawer location={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
