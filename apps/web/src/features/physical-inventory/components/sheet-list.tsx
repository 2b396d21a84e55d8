import { useState, type FormEvent } from 'react';
import { Badge, Button, Checkbox, Group, Paper, Select, Stack, Switch, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconCalendarRepeat, IconPlus } from '@tabler/icons-react';
import { isSheetCountable, isSheetReviewable, type Sheet } from '@floorhand/contract/counts';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { activeFilterCount, FilterFold } from '../../../components/ui/filter-fold.tsx';
import { useWarehouses } from '../../../lib/inventory-api.ts';
import { showTimestamp } from '../../../lib/inventory-format.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { useCountChange } from '../api/change-counts.ts';
import { useSheets } from '../api/list-sheets.ts';
import { usePhysicalInventoryPrefs } from '../hooks/use-physical-inventory-prefs.ts';
import { FrequencyPanel, SheetImport } from './sheet-tools.tsx';

export const STATE_COLORS: ReadonlyMap<string, string> = new Map([
  ['open', 'gray'],
  ['counting', 'blue'],
  ['review', 'orange'],
  ['posted', 'green'],
  ['cancelled', 'red'],
]);

/** The count sheets by the preference filters, and a new sheet. */
export function SheetList({ onCount, onReview }: { onCount(sheetId: string): void; onReview(sheetId: string): void }) {
  const { t } = useTranslation();
  const [prefs, setPrefs] = usePhysicalInventoryPrefs();
  const warehouses = useWarehouses();
  const canPost = useSessionStore((s) => s.featureAccess?.['physicalInventory.post'] !== false);
  const [creating, setCreating] = useState(false);
  const [frequencies, setFrequencies] = useState(false);
  const narrow = useNarrow();
  const filters = {
    ...(prefs.fromDate ? { fromDate: prefs.fromDate } : {}),
    filterSheetOpen: prefs.filterSheetOpen,
    filterSheetSelf: prefs.filterSheetSelf,
    ...(prefs.sheet ? { sheet: prefs.sheet } : {}),
    ...(prefs.warehouse ? { warehouse: prefs.warehouse } : {}),
  };
  const sheets = useSheets(filters);
  const warehouseCodes = (warehouses.data ?? []).map((w) => w.code);

  const columns: DataColumn<Sheet>[] = [
    { id: 'code', header: t('Sheet'), cell: (s) => s.code, sortValue: (s) => s.code, card: 'title', tdProps: { fw: 600 } },
    { id: 'warehouse', header: t('Warehouse'), cell: (s) => s.warehouse, sortValue: (s) => s.warehouse },
    {
      id: 'state',
      header: t('State'),
      cell: (s) => <Badge color={STATE_COLORS.get(s.state) ?? 'gray'}>{t(s.state)}</Badge>,
      sortValue: (s) => s.state,
    },
    { id: 'description', header: t('Description'), cell: (s) => s.description, sortValue: (s) => s.description },
    { id: 'locations', header: t('Locations'), cell: (s) => s.locationCount, sortValue: (s) => s.locationCount, align: 'right' },
    { id: 'lines', header: t('Lines'), cell: (s) => s.lineCount, sortValue: (s) => s.lineCount, align: 'right' },
    { id: 'assignees', header: t('Counters'), cell: (s) => (s.assignees.length ? s.assignees.join(', ') : t('Anyone')) },
    { id: 'blind', header: t('Blind'), cell: (s) => (s.blind ? t('Yes') : t('No')) },
    { id: 'created', header: t('Created'), cell: (s) => showTimestamp(s.createdAt), sortValue: (s) => s.createdAt },
  ];

  const filterFields = (
    <>
      <TextInput
        type="date"
        label={t('Created since')}
        value={prefs.fromDate ?? ''}
        onChange={(e) => setPrefs({ fromDate: e.currentTarget.value || null })}
        data-testid="pi-from-date"
        w={170}
      />
      <Select
        label={t('Warehouse')}
        placeholder={t('All warehouses')}
        clearable
        data={warehouseCodes}
        value={prefs.warehouse}
        onChange={(v) => setPrefs({ warehouse: v })}
        data-testid="pi-warehouse"
        w={170}
      />
      <TextInput
        label={t('Sheet')}
        placeholder={t('CS…')}
        value={prefs.sheet ?? ''}
        onChange={(e) => setPrefs({ sheet: e.currentTarget.value || null })}
        data-testid="pi-sheet"
        w={150}
      />
      <Switch
        label={t('Open only')}
        checked={prefs.filterSheetOpen}
        onChange={(e) => setPrefs({ filterSheetOpen: e.currentTarget.checked })}
        data-testid="pi-open"
        size="md"
      />
      <Switch
        label={t('Mine only')}
        checked={prefs.filterSheetSelf}
        onChange={(e) => setPrefs({ filterSheetSelf: e.currentTarget.checked })}
        data-testid="pi-self"
        size="md"
      />
    </>
  );
  const tools = canPost && (
    <Group gap="sm" ml={narrow ? undefined : 'auto'}>
      <Button
        variant="default"
        leftSection={<IconCalendarRepeat size={18} />}
        onClick={() => setFrequencies((f) => !f)}
        data-testid="pi-frequencies"
      >
        {t('Cycle frequency')}
      </Button>
      <SheetImport />
      <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating((c) => !c)} data-testid="pi-new">
        {t('New count sheet')}
      </Button>
    </Group>
  );
  const panels = (
    <>
      {frequencies && warehouseCodes.length > 0 && <FrequencyPanel warehouses={warehouseCodes} />}
      {creating && <NewSheet warehouses={warehouseCodes} blindDefault={!prefs.syscm} onDone={() => setCreating(false)} />}
    </>
  );
  const list = (
    <DataTable
      rows={sheets.data?.sheets ?? []}
      columns={columns}
      rowKey={(s) => s._id}
      rowAttrs={(s) => ({ 'data-testid': 'pi-sheet-row', 'data-code': s.code })}
      loading={sheets.isPending}
      more={sheets.data?.more}
      maxRows={499}
      empty={t('No count sheet matches the filters.')}
      actions={[
        {
          id: 'count',
          label: () => t('Count'),
          onClick: (s) => onCount(s._id),
          allowed: (s) => isSheetCountable(s.state),
          testId: 'pi-count',
        },
        {
          id: 'review',
          label: () => t('Review'),
          onClick: (s) => onReview(s._id),
          allowed: (s) => canPost && isSheetReviewable(s.state),
          testId: 'pi-review',
        },
      ]}
      testId="pi-sheets"
    />
  );

  // On a handheld the sheets come first: the filters folded behind one button, the sheet tools (a
  // supervisor's, rarely used on a phone) after the list.
  if (narrow) {
    return (
      <Stack gap="sm">
        <FilterFold
          narrow
          active={activeFilterCount([prefs.fromDate, prefs.warehouse, prefs.sheet, prefs.filterSheetOpen, prefs.filterSheetSelf])}
          testId="pi-filters-toggle"
        >
          <Paper withBorder p="sm">
            <Group gap="sm" align="flex-end" wrap="wrap">
              {filterFields}
            </Group>
          </Paper>
        </FilterFold>
        {list}
        {tools}
        {panels}
      </Stack>
    );
  }
  return (
    <Stack gap="sm" maw={1400}>
      <Paper withBorder p="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          {filterFields}
          {tools}
        </Group>
      </Paper>
      {panels}
      {list}
    </Stack>
  );
}

function NewSheet({ warehouses, blindDefault, onDone }: { warehouses: string[]; blindDefault: boolean; onDone(): void }) {
  const { t } = useTranslation();
  const create = useCountChange('counts/sheet/create');
  const [warehouse, setWarehouse] = useState<string | null>(warehouses[0] ?? null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [list, setList] = useState('');
  const [assignees, setAssignees] = useState('');
  const [description, setDescription] = useState('');
  const [blind, setBlind] = useState(blindDefault);
  const [due, setDue] = useState(false);
  const split = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!warehouse) return;
    const locations = split(list);
    const res = await create.mutateAsync({
      warehouse,
      description,
      blind,
      due,
      assignees: split(assignees),
      ...(locations.length ? { locations } : {}),
      ...(from ? { fromLocation: from.trim() } : {}),
      ...(to ? { toLocation: to.trim() } : {}),
    });
    notifications.show({
      color: 'green',
      message: t('Count sheet {{code}} created with {{n}} locations', { code: res.sheet?.code ?? '', n: res.sheet?.locationCount ?? 0 }),
    });
    onDone();
  };

  return (
    <Paper withBorder p="sm" component="form" onSubmit={(e: FormEvent) => void submit(e)} data-testid="pi-new-form">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('New count sheet')}
        </Title>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('Warehouse')}
            data={warehouses}
            value={warehouse}
            onChange={setWarehouse}
            data-testid="pi-new-warehouse"
            w={160}
          />
          <TextInput
            label={t('From location')}
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            data-testid="pi-new-from"
            w={160}
          />
          <TextInput label={t('To location')} value={to} onChange={(e) => setTo(e.currentTarget.value)} data-testid="pi-new-to" w={160} />
          <TextInput
            label={t('Or these locations')}
            placeholder={t('A-01-1, A-01-2')}
            value={list}
            onChange={(e) => setList(e.currentTarget.value)}
            data-testid="pi-new-list"
            w={240}
          />
        </Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t('Counters (user names)')}
            placeholder={t('Anyone')}
            value={assignees}
            onChange={(e) => setAssignees(e.currentTarget.value)}
            data-testid="pi-new-assignees"
            w={240}
          />
          <TextInput
            label={t('Description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            data-testid="pi-new-description"
            w={300}
          />
          <Checkbox
            label={t('Blind count')}
            checked={blind}
            onChange={(e) => setBlind(e.currentTarget.checked)}
            data-testid="pi-new-blind"
            size="md"
          />
          <Checkbox
            label={t('Only locations due (cycle frequency)')}
            checked={due}
            onChange={(e) => setDue(e.currentTarget.checked)}
            data-testid="pi-new-due"
            size="md"
          />
          <Button type="submit" loading={create.isPending} data-testid="pi-new-submit">
            {t('Create')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
