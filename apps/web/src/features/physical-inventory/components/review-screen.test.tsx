import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { REVIEW_PAGE_MAX, type ReviewLine } from '@floorhand/contract/counts';
import '../../../lib/i18n.ts';
import { ReviewScreen } from './review-screen.tsx';
import { sheetFixture } from '../test/sheet-fixture.ts';

// A page of 20 lines here (1,000 in the app): jsdom draws a thousand rows slowly, and the paging is the same.
vi.mock('@floorhand/contract/counts', async (importOriginal) => ({ ...(await importOriginal<object>()), REVIEW_PAGE_MAX: 20 }));

const TOTAL = 2 * REVIEW_PAGE_MAX + 5;

const line = (n: number): ReviewLine => ({
  lineId: `L${n}`,
  location: 'A-01-1',
  stockId: `S${String(n).padStart(6, '0')}`,
  partNumber: 'P-1',
  description: 'Widget',
  lot: null,
  serial: null,
  found: false,
  notFound: false,
  status: 'counted',
  systemQty: 2,
  counted: 1,
  variance: -1,
  variancePct: -50,
  movedSince: false,
  // The first line's record was moved after its scan: the review says where it is now.
  locationNow: n === 1 ? 'A-02-1' : null,
  flags: [],
  countedBy: 'clerk',
  round: 1,
});

// The server's answer to counts/review: a page of a sheet of TOTAL lines that all have a variance.
const calls: { offset: number; limit: number }[] = [];
vi.mock('../../../lib/api.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  call: vi.fn(async (path: string, args: { offset: number; limit: number }) => {
    if (path !== 'counts/review') throw new Error(`unexpected call ${path}`);
    calls.push({ offset: args.offset, limit: args.limit });
    const lines = Array.from({ length: Math.max(0, Math.min(args.limit, TOTAL - args.offset)) }, (_, i) => line(args.offset + i + 1));
    return {
      sheet: sheetFixture({ state: 'review', lineCount: TOTAL }),
      summary: {
        lines: TOTAL,
        withVariance: TOTAL,
        recount: 0,
        excluded: 0,
        accepted: 0,
        movedSince: 0,
        netVariance: -TOTAL,
        absVariance: TOTAL,
        uncountedLocations: 0,
      },
      byLocation: [],
      lines,
      more: args.offset + args.limit < TOTAL,
    };
  }),
}));

afterEach(cleanup);

const stockIds = () => screen.getAllByTestId('pi-review-row').map((r) => r.getAttribute('data-stock'));

// A sheet of more lines than one page: every line can be reached, a page at a time.
describe('ReviewScreen paging', { timeout: 60_000 }, () => {
  it('pages through a sheet larger than one page, and back', async () => {
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <ReviewScreen sheetId="sh1" onBack={() => {}} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('pi-page-range').textContent).toBe(`Lines 1–${REVIEW_PAGE_MAX} of ${TOTAL}`), {
      timeout: 10_000,
    });
    expect(REVIEW_PAGE_MAX).toBe(20);
    expect(screen.getAllByText('now in A-02-1')).not.toHaveLength(0);
    expect(stockIds()).toHaveLength(REVIEW_PAGE_MAX);
    expect(screen.queryByTestId('more-rows')).toBeNull();
    expect((screen.getByTestId('pi-page-prev') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('pi-page-next'));
    await waitFor(
      () => expect(screen.getByTestId('pi-page-range').textContent).toBe(`Lines ${REVIEW_PAGE_MAX + 1}–${2 * REVIEW_PAGE_MAX} of ${TOTAL}`),
      { timeout: 10_000 },
    );
    expect(stockIds()[0]).toBe(`S${String(REVIEW_PAGE_MAX + 1).padStart(6, '0')}`);

    fireEvent.click(screen.getByTestId('pi-page-next'));
    await waitFor(
      () => expect(screen.getByTestId('pi-page-range').textContent).toBe(`Lines ${2 * REVIEW_PAGE_MAX + 1}–${TOTAL} of ${TOTAL}`),
      { timeout: 10_000 },
    );
    expect(stockIds()).toHaveLength(5);
    expect(stockIds().at(-1)).toBe(`S${String(TOTAL).padStart(6, '0')}`);
    expect((screen.getByTestId('pi-page-next') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('pi-page-prev'));
    await waitFor(
      () => expect(screen.getByTestId('pi-page-range').textContent).toBe(`Lines ${REVIEW_PAGE_MAX + 1}–${2 * REVIEW_PAGE_MAX} of ${TOTAL}`),
      { timeout: 10_000 },
    );
    expect(calls.map((c) => c.offset).slice(0, 3)).toEqual([0, REVIEW_PAGE_MAX, 2 * REVIEW_PAGE_MAX]);
    expect(calls.every((c) => c.limit === REVIEW_PAGE_MAX)).toBe(true);
  });
});
