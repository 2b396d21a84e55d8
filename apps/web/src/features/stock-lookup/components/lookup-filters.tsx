import { ActionIcon, Group, NumberInput, Select, SimpleGrid, Switch, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { LOOKUP_SORTS } from '@floorhand/contract/stock';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import { useWarehouses } from '../../../lib/inventory-api.ts';
import { useCodes } from '../api/list-codes.ts';
import type { StockLookupPrefs } from '../hooks/use-stock-lookup-prefs.ts';
import { tk } from '@floorhand/contract/i18n';

const SORT_LABELS: Record<(typeof LOOKUP_SORTS)[number], string> = {
  location: tk('Location'),
  partNumber: tk('Part number'),
  stockId: tk('Stock id'),
  receivedDate: tk('Received date'),
  quantity: tk('Quantity'),
};

export interface LookupFiltersProps {
  prefs: StockLookupPrefs;
  onChange(patch: Partial<StockLookupPrefs>): void;
}

/** The lookup's filters and sort, kept in the stockLookup preferences. */
export function LookupFilters({ prefs, onChange }: LookupFiltersProps) {
  const { t } = useTranslation();
  const warehouses = useWarehouses();
  const conditions = useCodes('conditionCode');
  const departments = useCodes('department');
  const SortIcon = prefs.sortDesc ? IconSortDescending : IconSortAscending;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 6 }} spacing="sm" verticalSpacing="xs" data-testid="lookup-filters">
      <Select
        label={t('Warehouse')}
        placeholder={t('All warehouses')}
        data={(warehouses.data ?? []).map((w) => ({ value: w.code, label: `${w.code} – ${w.name}` }))}
        value={prefs.filterWarehouse}
        onChange={(v) => onChange({ filterWarehouse: v })}
        clearable
        size="md"
        data-testid="filter-warehouse"
      />
      <Select
        label={t('Condition')}
        placeholder={t('Any condition')}
        data={conditions.data ?? []}
        value={prefs.filterConditionCode}
        onChange={(v) => onChange({ filterConditionCode: v })}
        clearable
        size="md"
        data-testid="filter-condition"
      />
      <Select
        label={t('Department')}
        placeholder={t('Any department')}
        data={departments.data ?? []}
        value={prefs.filterDepartment}
        onChange={(v) => onChange({ filterDepartment: v })}
        clearable
        size="md"
        data-testid="filter-department"
      />
      <Select
        label={t('Order type')}
        placeholder={t('Any stock')}
        description={t('Stock picked for orders of this type')}
        data={ORDER_TYPES.map((v) => ({ value: v, label: v.toUpperCase() }))}
        value={prefs.filterOrderType}
        onChange={(v) => onChange({ filterOrderType: v })}
        clearable
        size="md"
        data-testid="filter-order-type"
      />
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Select
          label={t('Sort by')}
          data={LOOKUP_SORTS.map((s) => ({ value: s, label: t(SORT_LABELS[s]) }))}
          value={prefs.sort}
          onChange={(v) => v && onChange({ sort: v as StockLookupPrefs['sort'] })}
          allowDeselect={false}
          size="md"
          style={{ flex: 1 }}
          data-testid="filter-sort"
        />
        <Tooltip label={prefs.sortDesc ? t('Descending') : t('Ascending')}>
          <ActionIcon
            size={44}
            variant="default"
            onClick={() => onChange({ sortDesc: !prefs.sortDesc })}
            aria-label={prefs.sortDesc ? t('Sorted descending; sort ascending') : t('Sorted ascending; sort descending')}
            data-testid="filter-sort-desc"
          >
            <SortIcon size={22} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Switch
          label={t('Zero quantity')}
          checked={prefs.showZeroQty}
          onChange={(e) => onChange({ showZeroQty: e.currentTarget.checked })}
          data-testid="filter-zero"
        />
        <NumberInput
          label={t('Months')}
          aria-label={t('Zero quantity changed within this many months')}
          value={prefs.zeroQtyMonths}
          onChange={(v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1200 && onChange({ zeroQtyMonths: v })}
          min={0}
          max={1200}
          allowDecimal={false}
          allowNegative={false}
          disabled={!prefs.showZeroQty}
          size="md"
          w={96}
          data-testid="filter-zero-months"
        />
      </Group>
    </SimpleGrid>
  );
}
