import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import '../../../lib/i18n.ts';
import { scanBus } from '../../../lib/scanning/scan-bus.ts';
import { CountingScreen } from './counting-screen.tsx';
import { sheetFixture } from '../test/sheet-fixture.ts';

// The sheet's read is held until the test lets it go: a scan can come first.
let releaseSheet: () => void = () => {};
const sheetAnswer = {
  sheet: sheetFixture(),
  locations: [{ code: 'A-01-1', visited: false }],
  lines: [],
};
const scanned: string[] = [];
vi.mock('../../../lib/api.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  call: vi.fn(async (path: string, args: { location?: string }) => {
    if (path === 'counts/sheet/get') {
      if (!args.location) await new Promise<void>((resolve) => (releaseSheet = resolve));
      return sheetAnswer;
    }
    if (path === 'counts/scanLocation') {
      scanned.push(args.location!);
      return { location: args.location, lines: [] };
    }
    throw new Error(`unexpected call ${path}`);
  }),
}));

afterEach(cleanup);

describe('CountingScreen', () => {
  it('a location scanned before the sheet is read waits for it, and is taken as the location, not refused', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <MantineProvider>
        <QueryClientProvider client={qc}>
          <CountingScreen sheetId="sh1" onBack={() => {}} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    // The wedge fires as soon as Count is pressed: the sheet's locations are not known yet.
    act(() => scanBus.publish({ text: 'A-01-1', format: 'UNKNOWN', source: 'wedge' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('pi-location').textContent).toBe('No location scanned yet');
    expect(screen.queryByText(/scan a location of the sheet first/)).toBeNull();
    act(() => releaseSheet());
    await waitFor(() => expect(screen.getByTestId('pi-location').textContent).toBe('Location A-01-1'));
    expect(scanned).toEqual(['A-01-1']);
    expect(screen.queryByText(/scan a location of the sheet first/)).toBeNull();
  });
});
