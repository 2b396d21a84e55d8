import { useEffect, useMemo, useState } from 'react';
import { Badge, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PACK_PICK_MAX_ROWS } from '@floorhand/contract/constants';
import { PACK_SORTS, PICKED_SHARES, SHIPPED_ORDER_TYPES, type BoardRow } from '@floorhand/contract/shipping';
import { orderHeaderColumns } from '../../../components/ui/order-columns.tsx';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { activeFilterCount, FilterFold } from '../../../components/ui/filter-fold.tsx';
import { SortDirectionSelect } from '../../../components/ui/sort-direction-select.tsx';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { useWarehouses } from '../../../lib/inventory-api.ts';
import { readFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { boardQuery } from '../api/get-board.ts';
import { boardArgs, useStockPackPrefs } from '../hooks/use-pack-prefs.ts';
import { boardScanMeaning } from '../utils/scan-meaning.ts';
import { tk } from '@floorhand/contract/i18n';

type PackSort = (typeof PACK_SORTS)[number];
type ShippedType = (typeof SHIPPED_ORDER_TYPES)[number];
type PickedShare = (typeof PICKED_SHARES)[number];

/** Green dark enough for white badge text at 4.5:1 (Mantine's green 9 gives 4.36:1, axe-core: serious). */
export const DONE_GREEN = '#1e6b2f';

/** A Mantine colour (`yellow.9`) or a CSS one (`#1e6b2f`) as CSS: the row's left border takes either. */
const cssColor = (color: string): string => (color.startsWith('#') ? color : `var(--mantine-color-${color.replace('.', '-')})`);

/** How much of an order is picked, in words and a colour (never the colour alone). */

const PICKED_LOOK = new Map([
  ['all', { color: DONE_GREEN, label: tk('All picked') }],
  ['part', { color: 'yellow.9', label: tk('Part picked') }],
  ['none', { color: 'gray.7', label: tk('None picked') }],
] as const);

const SORT_LABELS = new Map<PackSort, string>([
  ['dueDate', tk('Due date')],
  ['priority', tk('Priority')],
  ['number', tk('Order number')],
  ['picked', tk('Picked share')],
]);

/** The department filter: sent when the field is left or Enter is pressed, not at each keystroke. */
function DepartmentFilter({ value, onChange }: { value: string | null; onChange(v: string | null): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const commit = () => {
    const v = text.trim();
    if (v !== (value ?? '')) onChange(v || null);
  };
  return (
    <TextInput
      size="sm"
      label={t('Department')}
      placeholder={t('All')}
      value={text}
      maxLength={40}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
      data-testid="ship-filter-department"
    />
  );
}

export function Board({ onOpen }: { onOpen(number: string): void }) {
  const { t } = useTranslation();
  // The filters and sort are the stockPack session preferences: they survive a reload (spec section 3),
  // and go to the server in the board call (the filter holds before maxRows).
  const [prefs, setPrefs] = useStockPackPrefs();
  const warehouses = useWarehouses();
  const q = useQuery(boardQuery(boardArgs(prefs)));
  useScans((scan) => {
    const text = scan.text.trim();
    if (!text) return;
    readFeedback(scan);
    onOpen(boardScanMeaning(text).number);
  });
  const columns = useMemo<DataColumn<BoardRow>[]>(() => {
    const head = orderHeaderColumns<BoardRow>(t);
    return [
      head.number,
      head.type,
      head.customer,
      head.due,
      { id: 'priority', header: t('Priority'), cell: (o) => o.priority, sortValue: (o) => o.priority },
      {
        id: 'picked',
        header: t('Picked'),
        cell: (o) => (
          <Badge color={PICKED_LOOK.get(o.picked)!.color} variant="filled" autoContrast data-testid="board-picked">
            {t(PICKED_LOOK.get(o.picked)!.label)}
          </Badge>
        ),
        sortValue: (o) => o.picked,
      },
      { id: 'packages', header: t('Packages'), cell: (o) => o.packageCount, sortValue: (o) => o.packageCount },
      { id: 'status', header: t('Status'), cell: (o) => <span translate="no">{o.status}</span>, sortValue: (o) => o.status },
    ];
  }, [t]);
  return (
    <Stack gap="sm" maw={1400}>
      <ScanInput
        label={t('Order')}
        placeholder={t('Scan an order traveller or type its number')}
        data-testid="ship-order-input"
        data-scan-field="order"
        autoFocus
      />
      {/* One compact row at 1440; on a handheld the board comes first, the filters folded behind one
          button (two columns when open): each field a 44 px target, reached by Tab. */}
      <FilterFold
        active={activeFilterCount([prefs.filterWarehouse, prefs.filterOrderType, prefs.filterPicked, prefs.filterDepartment])}
        testId="ship-filters-toggle"
      >
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs" data-testid="ship-filters">
          <Select
            label={t('Warehouse')}
            placeholder={t('All')}
            clearable
            data={(warehouses.data ?? []).map((w) => w.code)}
            value={prefs.filterWarehouse}
            onChange={(v) => setPrefs({ filterWarehouse: v })}
            data-testid="ship-filter-warehouse"
          />
          <Select
            label={t('Order type')}
            placeholder={t('Both')}
            clearable
            data={SHIPPED_ORDER_TYPES.map((v) => ({ value: v, label: v.toUpperCase() }))}
            value={prefs.filterOrderType || null}
            onChange={(v) => setPrefs({ filterOrderType: (v ?? '') as ShippedType | '' })}
            data-testid="ship-filter-type"
          />
          <Select
            label={t('Picked')}
            placeholder={t('Any')}
            clearable
            data={PICKED_SHARES.map((v) => ({ value: v, label: t(PICKED_LOOK.get(v)!.label) }))}
            value={prefs.filterPicked || null}
            onChange={(v) => setPrefs({ filterPicked: (v ?? '') as PickedShare | '' })}
            data-testid="ship-filter-picked"
          />
          <DepartmentFilter value={prefs.filterDepartment} onChange={(v) => setPrefs({ filterDepartment: v })} />
          <Select
            label={t('Sort by')}
            allowDeselect={false}
            data={PACK_SORTS.map((v) => ({ value: v, label: t(SORT_LABELS.get(v)!) }))}
            value={prefs.sort}
            onChange={(v) => v && setPrefs({ sort: v as PackSort })}
            data-testid="ship-sort"
          />
          <SortDirectionSelect desc={prefs.sortDesc} onChange={(sortDesc) => setPrefs({ sortDesc })} testId="ship-sort-direction" />
        </SimpleGrid>
      </FilterFold>
      <DataTable
        rows={q.data?.orders ?? []}
        columns={columns}
        rowKey={(o) => o._id}
        rowAttrs={(o) => ({ 'data-testid': 'board-row', 'data-number': o.number, 'data-picked': o.picked })}
        rowStyle={(o) => ({ borderLeft: `6px solid ${cssColor(PICKED_LOOK.get(o.picked)!.color)}` })}
        onRowClick={(o) => onOpen(o.number)}
        loading={q.isPending}
        empty={<Text c="dimmed">{t('No order is waiting to be packed.')}</Text>}
        maxRows={PACK_PICK_MAX_ROWS}
        more={q.data?.more}
        testId="ship-board"
      />
    </Stack>
  );
}
