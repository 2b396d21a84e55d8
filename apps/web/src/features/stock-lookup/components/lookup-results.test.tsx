import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { LookupRecord } from '@floorhand/contract/stock';
import '../../../lib/i18n.ts';
import type { ItemSection } from '../utils/lookup.ts';
import { LookupResults } from './lookup-results.tsx';

const record = (stockId: string, quantity: number) =>
  ({ stockId, quantity, conditionCode: 'NE', lot: null, serial: null, receivedDate: '2026-11-25' }) as LookupRecord;
const item = {
  itemId: 'i1',
  partNumber: 'P-1',
  description: 'Widget',
  uom: 'EA',
  quantity: 15,
  records: 3,
  locations: [
    { locationId: 'l1', warehouse: 'MAIN', location: 'A-1', quantity: 10, uom: 'EA', records: [record('S1', 10)] },
    { locationId: 'l2', warehouse: 'MAIN', location: 'B-2', quantity: 5, uom: 'EA', records: [record('S2', 5), record('S3', 0)] },
  ],
} as unknown as ItemSection;

function renderResults(narrow: boolean) {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({ ...original(query), matches: narrow })) as typeof window.matchMedia;
  const onDetail = vi.fn();
  const onAdjust = vi.fn();
  try {
    render(
      <MantineProvider>
        <LookupResults items={[item]} onDetail={onDetail} onAdjust={onAdjust} />
      </MantineProvider>,
    );
  } finally {
    window.matchMedia = original;
  }
  return { onDetail, onAdjust };
}

afterEach(cleanup);

// One DataTable per location group under its heading, with the test ids and names the e2e tests use.
describe('LookupResults', { timeout: 20_000 }, () => {
  for (const narrow of [false, true]) {
    it(`lists each location group's records ${narrow ? 'as cards' : 'in a table'}; a record opens its detail, Adjust Stock Adjust`, () => {
      const { onDetail, onAdjust } = renderResults(narrow);
      expect(screen.queryAllByRole('table')).toHaveLength(narrow ? 0 : 2);
      const groups = screen.getAllByTestId('location-group');
      expect(groups).toHaveLength(2);
      expect(within(groups[1]!).getByText('MAIN / B-2')).toBeTruthy();
      expect(
        within(groups[1]!)
          .getAllByTestId('stock-row')
          .map((r) => r.getAttribute('data-stock-id')),
      ).toEqual(['S2', 'S3']);
      expect(screen.getAllByTestId('stock-row-qty').map((q) => q.textContent)).toEqual(['10', '5', '0']);
      fireEvent.click(screen.getByRole('button', { name: 'Details of S2' }));
      expect(onDetail).toHaveBeenCalledWith('S2');
      fireEvent.click(within(screen.getAllByTestId('stock-row')[2]!).getByTestId('stock-row-adjust'));
      expect(onAdjust).toHaveBeenCalledWith('S3');
      expect(onDetail).toHaveBeenCalledTimes(1);
    });
  }
});
