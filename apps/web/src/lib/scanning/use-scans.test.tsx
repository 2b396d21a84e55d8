import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import '../i18n.ts';
import { scanBus } from './scan-bus.ts';
import { useScans } from './use-scans.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

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

  it('scans still held when the screen closes before it was ready are said unread, not dropped unheard', async () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('');
    vi.spyOn(notifications, 'hide').mockReturnValue('');
    const got: string[] = [];
    const view = render(<Screen ready={false} got={got} />);
    await act(async () => {});
    wedge('LOC-9');
    wedge('STK-9');
    view.unmount();
    expect(got).toEqual([]);
    expect(show.mock.calls.map(([n]) => [n.color, n.message])).toEqual([['red', 'STK-9: not read, the screen closed before it was ready']]);
    // A screen that took its scans says nothing when it closes.
    show.mockClear();
    const ready = render(<Screen ready got={got} />);
    await act(async () => {});
    wedge('LOC-10');
    ready.unmount();
    expect(got).toEqual(['LOC-10']);
    expect(show).not.toHaveBeenCalled();
  });
});
