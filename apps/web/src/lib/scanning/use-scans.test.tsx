import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { scanBus } from './scan-bus.ts';
import { useScans } from './use-scans.ts';

afterEach(cleanup);

function Screen({ ready, got }: { ready: boolean; got: string[] }) {
  useScans((scan) => got.push(scan.text), { ready });
  return null;
}

const wedge = (text: string) => act(() => scanBus.publish({ text, format: 'UNKNOWN', source: 'wedge' }));

describe('useScans', () => {
  it('holds the scans while the screen is not ready, then hands them over in order, once', async () => {
    const got: string[] = [];
    const view = render(<Screen ready={false} got={got} />);
    await act(async () => {});
    wedge('LOC-1');
    wedge('STK-1');
    expect(got).toEqual([]);
    view.rerender(<Screen ready got={got} />);
    expect(got).toEqual(['LOC-1', 'STK-1']);
    wedge('STK-2');
    view.rerender(<Screen ready got={got} />);
    expect(got).toEqual(['LOC-1', 'STK-1', 'STK-2']);
  });
  it('a ready screen gets each scan at once', async () => {
    const got: string[] = [];
    render(<Screen ready got={got} />);
    await act(async () => {});
    wedge('A');
    expect(got).toEqual(['A']);
  });
});
