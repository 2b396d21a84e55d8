import { useMemo, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import { Alert, Button, Card, Group, ScrollArea, Stack, Table, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconArrowsSort, IconSearch, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { useNarrow } from '../../lib/use-narrow.ts';

// The one list of Floorhand: a Mantine table on desktops and one card per row on handhelds (below the
// sm breakpoint, `useNarrow`), with sorting by a column, a text filter, row actions that are hidden
// when the account lacks the right, an empty state and the spec's "more rows" hint when the server
// answered its maxRows (499) rows. Callers define their columns with `useMemo` (the table memoises
// its sorted and filtered rows on them).

export type SortDirection = 'asc' | 'desc';
export type SortValue = string | number | null | undefined;

export interface DataColumn<T> {
  id: string;
  /** The column heading (also the label of the value on a card). */
  header: string;
  /** Hide the heading text (it stays for screen readers), e.g. an actions column. */
  headerHidden?: boolean;
  cell(row: T): ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?(row: T): SortValue;
  /** Text the filter searches (default: the sort value). */
  filterValue?(row: T): string | null | undefined;
  align?: 'left' | 'right';
  /** The column's width on a table (e.g. 120, '25%'); with `tableProps.layout: 'fixed'`, tables stacked under each other line up. */
  width?: number | string;
  /** On a card: the title line, a labelled line (default) or left out. */
  card?: 'title' | 'line' | 'hidden';
  /** Props of the table cell (e.g. `{ fw: 600 }`, a style). */
  tdProps?: Record<string, unknown>;
}

export interface RowAction<T> {
  id: string;
  label(row: T): string;
  /** The accessible name when it differs from the label (e.g. "Edit clerk" for "Edit"). */
  ariaLabel?(row: T): string;
  icon?: ReactNode;
  onClick(row: T): void;
  /** Whether the account may use the action on this row: false hides it (rights). */
  allowed?: boolean | ((row: T) => boolean);
  color?: string;
  disabled?: boolean;
  testId?: string | ((row: T) => string);
  /** Draws the action itself (a menu, an icon button) instead of a button. */
  render?(row: T): ReactNode;
}

export interface DataTableFilter<T> {
  /** The accessible name of the filter field. */
  label: string;
  placeholder?: string;
  testId?: string;
  /** Whether a row matches the (trimmed, lower-case) text; default: any column's filter or sort value contains it. */
  match?(row: T, text: string): boolean;
}

export interface DataTableProps<T> {
  rows: readonly T[];
  columns: readonly DataColumn<T>[];
  rowKey(row: T): string;
  /** Attributes of a row and of its card (data-testid, data-*). */
  rowAttrs?(row: T): Record<string, string | number | boolean | undefined>;
  rowStyle?(row: T): CSSProperties | undefined;
  onRowClick?(row: T): void;
  actions?: readonly RowAction<T>[];
  /** The heading of the actions column (read by screen readers only). */
  actionsHeader?: string;
  filter?: DataTableFilter<T>;
  initialSort?: { column: string; direction: SortDirection };
  /** Shown when there is no row. */
  empty?: ReactNode;
  /** Shown when rows exist but the filter matches none (default: `empty`). */
  emptyFiltered?: ReactNode;
  /** While loading no empty state is shown. */
  loading?: boolean;
  /** The server's row limit: the hint shows when `more` says so or the answer holds this many rows. */
  maxRows?: number;
  more?: boolean;
  /** The hint's text (default: "Only the first N records are shown."). */
  moreHint?: string;
  /** A card of its own for handhelds (default: title line, labelled lines and the actions). */
  renderCard?(row: T, actions: ReactNode): ReactNode;
  /** Force the layout (default: cards when the screen is narrow). */
  narrow?: boolean;
  testId?: string;
  cardsTestId?: string;
  /** Mantine table props (verticalSpacing, striped, miw…). */
  tableProps?: Record<string, unknown>;
  /** Wraps the table in a horizontal scroll area (default true). */
  scroll?: boolean;
}

const isAllowed = <T,>(a: RowAction<T>, row: T) => (typeof a.allowed === 'function' ? a.allowed(row) : a.allowed !== false);

function compare(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/** Rows that match the filter text, sorted by a column: a pure function, tested without a browser. */
export function visibleRows<T>(
  rows: readonly T[],
  columns: readonly DataColumn<T>[],
  opts: { text?: string; match?: (row: T, text: string) => boolean; sort?: { column: string; direction: SortDirection } | null },
): T[] {
  const text = (opts.text ?? '').trim().toLowerCase();
  let out = [...rows];
  if (text) {
    const match =
      opts.match ??
      ((row: T, q: string) =>
        columns.some((c) => {
          const v = c.filterValue ? c.filterValue(row) : c.sortValue?.(row);
          return v !== null && v !== undefined && String(v).toLowerCase().includes(q);
        }));
    out = out.filter((r) => match(r, text));
  }
  const col = opts.sort && columns.find((c) => c.id === opts.sort?.column);
  if (col?.sortValue && opts.sort) {
    const sign = opts.sort.direction === 'asc' ? 1 : -1;
    const value = col.sortValue;
    // Stable: equal rows keep the server's order.
    out = out
      .map((r, i) => [r, i] as const)
      .sort(([a, i], [b, j]) => compare(value(a), value(b)) * sign || i - j)
      .map(([r]) => r);
  }
  return out;
}

function Actions<T>({ row, actions }: { row: T; actions: readonly RowAction<T>[] }) {
  const shown = actions.filter((a) => isAllowed(a, row));
  if (shown.length === 0) return null;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
      {shown.map((a) =>
        a.render ? (
          <span key={a.id}>{a.render(row)}</span>
        ) : (
          <Button
            key={a.id}
            size="xs"
            variant="light"
            color={a.color}
            leftSection={a.icon}
            disabled={a.disabled}
            onClick={() => a.onClick(row)}
            aria-label={a.ariaLabel?.(row)}
            data-testid={typeof a.testId === 'function' ? a.testId(row) : a.testId}
          >
            {a.label(row)}
          </Button>
        ),
      )}
    </Group>
  );
}

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: DataColumn<unknown>;
  sort: { column: string; direction: SortDirection } | null;
  onSort(): void;
}) {
  const { t } = useTranslation();
  const active = sort?.column === column.id ? sort.direction : null;
  const Icon = active === 'asc' ? IconSortAscending : active === 'desc' ? IconSortDescending : IconArrowsSort;
  return (
    // A whole touch target (44 px high), as every control: a gloved finger sorts the pack board on a tablet.
    <UnstyledButton
      onClick={onSort}
      fw={700}
      fz="sm"
      mih={MIN_TOUCH_TARGET_PX}
      display="flex"
      style={{ alignItems: 'center' }}
      aria-label={t('Sort by {{column}}', { column: column.header })}
      data-testid={`sort-${column.id}`}
    >
      <Group gap={4} wrap="nowrap" justify={column.align === 'right' ? 'flex-end' : 'flex-start'}>
        <span>{column.header}</span>
        <Icon size={16} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

/** Enter or Space on the focused row itself (not on a button or field inside it) opens it. */
function openByKey(e: KeyboardEvent<HTMLElement>, open: () => void) {
  if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
  e.preventDefault();
  open();
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const screenNarrow = useNarrow();
  const narrow = props.narrow ?? screenNarrow;
  const { rows, columns, filter, actions = [], rowKey, rowAttrs, rowStyle, onRowClick } = props;
  const [text, setText] = useState('');
  const [sort, setSort] = useState<{ column: string; direction: SortDirection } | null>(props.initialSort ?? null);
  const shown = useMemo(() => visibleRows(rows, columns, { text, match: filter?.match, sort }), [rows, columns, text, filter?.match, sort]);
  const withActions = actions.length > 0 && rows.some((r) => actions.some((a) => isAllowed(a, r)));
  const more = props.more ?? (props.maxRows !== undefined && rows.length >= props.maxRows);
  const emptyState = rows.length > 0 && props.emptyFiltered !== undefined ? props.emptyFiltered : props.empty;
  const toggleSort = (id: string) =>
    setSort((s) =>
      s?.column !== id ? { column: id, direction: 'asc' } : s.direction === 'asc' ? { column: id, direction: 'desc' } : null,
    );

  const filterField = filter && (
    <TextInput
      leftSection={<IconSearch size={18} />}
      placeholder={filter.placeholder}
      aria-label={filter.label}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      data-testid={filter.testId}
    />
  );

  const actionsOf = (row: T) => (withActions ? <Actions row={row} actions={actions} /> : null);

  const defaultCard = (row: T, rowActions: ReactNode) => {
    const title = columns.filter((c) => c.card === 'title');
    const lines = columns.filter((c) => (c.card ?? 'line') === 'line');
    const body = (
      <>
        {title.length > 0 && (
          <Group gap={6} wrap="nowrap" fw={600}>
            {title.map((c) => (
              <span key={c.id}>{c.cell(row)}</span>
            ))}
          </Group>
        )}
        {lines.map((c) => (
          <Group key={c.id} gap={6} wrap="nowrap" fz="sm">
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              {c.header}
            </Text>
            <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{c.cell(row)}</div>
          </Group>
        ))}
      </>
    );
    // Beside the values there is room for two actions at 360 px; more would squeeze the values to a
    // letter a line, so they go under them.
    const below = actions.filter((a) => isAllowed(a, row)).length > 2;
    return (
      <Group
        wrap={below ? 'wrap' : 'nowrap'}
        gap="xs"
        align="flex-start"
        style={below ? { flexDirection: 'column', alignItems: 'stretch' } : undefined}
      >
        {onRowClick ? (
          <UnstyledButton onClick={() => onRowClick(row)} style={{ flex: 1, minWidth: 0, minHeight: 44 }}>
            {body}
          </UnstyledButton>
        ) : (
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            {body}
          </Stack>
        )}
        {rowActions}
      </Group>
    );
  };

  let list: ReactNode;
  if (narrow) {
    list = (
      <Stack gap="xs" data-testid={props.cardsTestId ?? props.testId}>
        {shown.map((row) => (
          <Card key={rowKey(row)} withBorder padding="xs" style={rowStyle?.(row)} {...rowAttrs?.(row)}>
            {(props.renderCard ?? defaultCard)(row, actionsOf(row))}
          </Card>
        ))}
      </Stack>
    );
  } else {
    const table = (
      <Table highlightOnHover verticalSpacing="sm" data-testid={props.testId} {...props.tableProps}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th
                key={c.id}
                ta={c.align}
                w={c.width}
                aria-sort={sort?.column === c.id ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {c.headerHidden ? (
                  <VisuallyHidden>{c.header}</VisuallyHidden>
                ) : c.sortValue ? (
                  <SortHeader column={c as DataColumn<unknown>} sort={sort} onSort={() => toggleSort(c.id)} />
                ) : (
                  c.header
                )}
              </Table.Th>
            ))}
            {withActions && (
              <Table.Th>
                <VisuallyHidden>{props.actionsHeader ?? t('Actions')}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((row) => (
            <Table.Tr
              key={rowKey(row)}
              onClick={onRowClick && (() => onRowClick(row))}
              // A row that opens something is a Tab stop too: Enter or Space opens it (the keyboard's click).
              tabIndex={onRowClick ? 0 : undefined}
              onKeyDown={onRowClick && ((e) => openByKey(e, () => onRowClick(row)))}
              style={{ ...(onRowClick ? { cursor: 'pointer' } : {}), ...rowStyle?.(row) }}
              {...rowAttrs?.(row)}
            >
              {columns.map((c) => (
                <Table.Td key={c.id} ta={c.align} {...c.tdProps}>
                  {c.cell(row)}
                </Table.Td>
              ))}
              {withActions && <Table.Td ta="right">{actionsOf(row)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
    list = props.scroll === false ? table : <ScrollArea type="auto">{table}</ScrollArea>;
  }

  return (
    <Stack gap="xs">
      {filterField}
      {(shown.length > 0 || emptyState === undefined) && list}
      {!props.loading &&
        shown.length === 0 &&
        emptyState !== undefined &&
        (typeof emptyState === 'string' ? (
          <Text c="dimmed" data-testid="data-table-empty">
            {emptyState}
          </Text>
        ) : (
          emptyState
        ))}
      {more && (
        <Alert color="yellow" data-testid="more-rows">
          {props.moreHint ?? t('Only the first {{max}} records are shown.', { max: props.maxRows ?? rows.length })}
        </Alert>
      )}
    </Stack>
  );
}
