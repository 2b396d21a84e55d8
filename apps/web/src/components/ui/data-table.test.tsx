import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import '../../lib/i18n.ts';
import { DataTable, visibleRows, type DataColumn, type DataTableProps, type RowAction } from './data-table.tsx';

interface Bin {
  code: string;
  qty: number;
  locked: boolean;
}

const bins: Bin[] = [
  { code: 'B-10', qty: 5, locked: false },
  { code: 'A-2', qty: 12, locked: true },
  { code: 'C-1', qty: 1, locked: false },
];

const columns: DataColumn<Bin>[] = [
  { id: 'code', header: 'Code', cell: (b) => b.code, sortValue: (b) => b.code, card: 'title' },
  { id: 'qty', header: 'Quantity', cell: (b) => String(b.qty), sortValue: (b) => b.qty, align: 'right' },
];

function renderTable(props: Partial<DataTableProps<Bin>> = {}) {
  return render(
    <MantineProvider>
      <DataTable
        rows={bins}
        columns={columns}
        rowKey={(b) => b.code}
        rowAttrs={(b) => ({ 'data-testid': 'bin-row', 'data-code': b.code })}
        narrow={false}
        {...props}
      />
    </MantineProvider>,
  );
}

const codes = () => screen.queryAllByTestId('bin-row').map((r) => r.getAttribute('data-code'));

afterEach(cleanup);

// The first render pays for loading Mantine: a busy machine takes longer than the default 5 s.
describe('DataTable', { timeout: 20_000 }, () => {
  it('keeps the server order until a column is sorted, then sorts ascending, descending and back', () => {
    renderTable();
    expect(codes()).toEqual(['B-10', 'A-2', 'C-1']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Quantity' }));
    expect(codes()).toEqual(['C-1', 'B-10', 'A-2']);
    expect(screen.getByRole('button', { name: 'Sort by Quantity' }).closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Quantity' }));
    expect(codes()).toEqual(['A-2', 'B-10', 'C-1']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Quantity' }));
    expect(codes()).toEqual(['B-10', 'A-2', 'C-1']);
  });

  it('sorts codes in natural order', () => {
    expect(
      visibleRows([{ code: 'B-10' }, { code: 'B-9' }], [{ id: 'c', header: 'C', cell: () => null, sortValue: (r) => r.code }], {
        sort: { column: 'c', direction: 'asc' },
      }).map((r) => r.code),
    ).toEqual(['B-9', 'B-10']);
  });

  it('filters by the text typed, and says when nothing matches', () => {
    renderTable({ filter: { label: 'Search bins', testId: 'bin-search' }, empty: 'No bins yet.', emptyFiltered: 'No bin matches.' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Search bins' }), { target: { value: 'c-' } });
    expect(codes()).toEqual(['C-1']);
    fireEvent.change(screen.getByTestId('bin-search'), { target: { value: 'zzz' } });
    expect(codes()).toEqual([]);
    expect(screen.getByText('No bin matches.')).toBeTruthy();
  });

  it('gives a column the width it asks for, so stacked tables line up', () => {
    renderTable({
      columns: [
        { ...columns[0]!, width: 120 },
        { ...columns[1]!, width: '25%' },
      ],
      tableProps: { layout: 'fixed' },
    });
    const [code, qty] = screen.getAllByRole('columnheader');
    expect(code?.style.width).toBe('calc(7.5rem * var(--mantine-scale))'); // 120 px, in Mantine's rem
    expect(qty?.style.width).toBe('25%');
    expect(screen.getByRole('table').style.getPropertyValue('--table-layout')).toBe('fixed');
  });

  it('makes a row that opens something a Tab stop that Enter and Space open', () => {
    const onRowClick = vi.fn();
    renderTable({ onRowClick });
    const [first, second] = screen.getAllByTestId('bin-row');
    expect(first!.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(first!, { key: 'Enter' });
    fireEvent.keyDown(second!, { key: ' ' });
    fireEvent.keyDown(second!, { key: 'a' });
    expect(onRowClick.mock.calls.map(([b]) => (b as Bin).code)).toEqual(['B-10', 'A-2']);
    cleanup();
    renderTable();
    expect(screen.getAllByTestId('bin-row')[0]!.getAttribute('tabindex')).toBeNull();
  });

  it('shows the empty state when there is no row', () => {
    renderTable({ rows: [], empty: 'No bins yet.' });
    expect(screen.getByText('No bins yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('hides a row action the account has no right to', () => {
    const onClick = vi.fn();
    const unlock: RowAction<Bin> = {
      id: 'unlock',
      label: () => 'Unlock',
      ariaLabel: (b) => `Unlock ${b.code}`,
      onClick,
      allowed: (b) => b.locked,
    };
    const edit: RowAction<Bin> = { id: 'edit', label: () => 'Edit', onClick, allowed: false };
    renderTable({ actions: [unlock, edit] });
    expect(screen.queryAllByRole('button', { name: /^Unlock/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['Unlock A-2']);
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock A-2' }));
    expect(onClick).toHaveBeenCalledWith(bins[1]);
  });

  it('leaves out the actions column when no row has an allowed action', () => {
    renderTable({ actions: [{ id: 'edit', label: () => 'Edit', onClick: () => {}, allowed: false }] });
    expect(screen.getAllByRole('columnheader')).toHaveLength(2);
  });

  it('shows the "more rows" hint when the server answered maxRows rows, or says there are more', () => {
    renderTable({ maxRows: 4 });
    expect(screen.queryByTestId('more-rows')).toBeNull();
    cleanup();
    renderTable({ maxRows: 3 });
    expect(screen.getByTestId('more-rows').textContent).toBe('Only the first 3 records are shown.');
    cleanup();
    renderTable({ maxRows: 499, more: true, moreHint: 'Narrow the lookup.' });
    expect(screen.getByTestId('more-rows').textContent).toBe('Narrow the lookup.');
  });

  it('shows one card per row on a narrow screen, with its title, labelled lines and actions', () => {
    renderTable({ narrow: true, actions: [{ id: 'edit', label: () => 'Edit', onClick: () => {} }] });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('bin-row');
    expect(cards).toHaveLength(3);
    expect(within(cards[1]!).getByText('A-2')).toBeTruthy();
    expect(within(cards[1]!).getByText('Quantity')).toBeTruthy();
    expect(within(cards[1]!).getByText('12')).toBeTruthy();
    expect(within(cards[1]!).getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('uses the screen width when not told: cards below the sm breakpoint', () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...original(query), matches: true })) as typeof window.matchMedia;
    try {
      render(
        <MantineProvider>
          <DataTable
            rows={bins}
            columns={columns}
            rowKey={(b) => b.code}
            rowAttrs={(b) => ({ 'data-testid': 'bin-row', 'data-code': b.code })}
          />
        </MantineProvider>,
      );
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.getAllByTestId('bin-row')).toHaveLength(3);
    } finally {
      window.matchMedia = original;
    }
  });
});
