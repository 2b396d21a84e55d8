import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import '../../lib/i18n.ts';
import { DialogHost } from './dialog-host.tsx';
import { dialogs, useDialogStore } from './dialog-store.ts';
import { startAutoClose } from './auto-close.ts';
import { scanBus } from '../../lib/scanning/scan-bus.ts';

function renderHost() {
  const rootRoute = createRootRoute({ component: DialogHost });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
}

afterEach(() => {
  act(() => useDialogStore.getState().closeAll());
  cleanup();
  vi.useRealTimers();
});

describe('auto-close timer', () => {
  it('fires after the timeout', () => {
    vi.useFakeTimers();
    const done = vi.fn();
    startAutoClose(1000, done);
    vi.advanceTimersByTime(999);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(done).toHaveBeenCalledOnce();
  });
  it.each(['mousedown', 'keydown', 'touchstart'])('is cancelled by %s', (type) => {
    vi.useFakeTimers();
    const done = vi.fn();
    const t = startAutoClose(1000, done);
    document.dispatchEvent(new Event(type));
    expect(t.active).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(done).not.toHaveBeenCalled();
  });
});

describe('confirm dialog', () => {
  it('shows only the buttons that have a label and returns the chosen one', async () => {
    renderHost();
    let result: Promise<string> | undefined;
    act(() => {
      result = dialogs.confirm({ type: 'question', title: 'Move stock?', message: 'Move 5 to A-01?', neg: 'No', pos: 'Yes' });
    });
    expect(await screen.findByText('Move stock?')).toBeTruthy();
    expect(screen.queryByTestId('dialog-neu')).toBeNull();
    fireEvent.click(screen.getByTestId('dialog-pos'));
    await expect(result).resolves.toBe('pos');
  });

  it('closes itself with cancel after the timeout', async () => {
    renderHost();
    let result: Promise<string> | undefined;
    act(() => {
      result = dialogs.confirm({ type: 'info', title: 'Saved', message: 'Done', pos: 'OK', autoCloseMs: 200 });
    });
    expect(await screen.findByText('Saved')).toBeTruthy();
    await expect(result).resolves.toBe('cancel');
  });

  it('a key press cancels the auto-close, and dismissing gives cancel', async () => {
    renderHost();
    let result: Promise<string> | undefined;
    act(() => {
      result = dialogs.confirm({ type: 'warn', title: 'Careful', message: 'Really?', neu: 'Later', pos: 'Go', autoCloseMs: 1500 });
    });
    // The timer runs from the dialog's opening: 1.5 s leaves a loaded machine time to render it first.
    expect(await screen.findByText('Careful')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Shift' });
    await new Promise((r) => setTimeout(r, 1800));
    expect(useDialogStore.getState().open).toHaveLength(1);
    act(() => useDialogStore.getState().close(useDialogStore.getState().open[0]!.id, 'cancel'));
    await expect(result).resolves.toBe('cancel');
  });

  it('focuses the chosen button on open', async () => {
    renderHost();
    act(() => {
      void dialogs.confirm({ type: 'question', title: 'Pick', message: 'Which?', neu: 'A', neg: 'B', pos: 'C', focus: 'neg' });
    });
    const neg = await screen.findByTestId('dialog-neg');
    await vi.waitFor(() => expect(document.activeElement).toBe(neg), { timeout: 5000 }); // vi.waitFor has its own 1 s default, not asyncUtilTimeout
  });
});

describe('error dialog', () => {
  it('shows message, code caption unless ERR, and the cause chain under the locId', async () => {
    renderHost();
    act(() => {
      void dialogs.error({
        code: 'DUP',
        message: 'A location with id A-01 already exists.',
        detail: 'warehouse WH1',
        locId: 'c1200',
        causedByErr: { code: 'DB_ERR', message: 'unique violation' },
      });
    });
    expect(await screen.findByText('A location with id A-01 already exists.')).toBeTruthy();
    expect(screen.getByTestId('error-code').textContent).toBe('Error code: DUP');
    fireEvent.click(screen.getByTestId('error-locid'));
    expect(await screen.findByText(/DB_ERR: unique violation/)).toBeTruthy();
  });
  it('has no code caption for ERR', async () => {
    renderHost();
    act(() => {
      void dialogs.error({ code: 'ERR', message: 'Something failed' });
    });
    expect(await screen.findByText('Something failed')).toBeTruthy();
    expect(screen.queryByTestId('error-code')).toBeNull();
  });
});

describe('scans while a dialog asks', () => {
  it('are refused, not handed to the page beneath; once it is answered the page gets them again', async () => {
    renderHost();
    const page = vi.fn();
    const unsubscribe = scanBus.subscribe(page);
    try {
      let answer: Promise<string> | undefined;
      act(() => {
        answer = dialogs.confirm({ type: 'question', title: 'Location empty?', message: 'Is it?', neg: 'No', pos: 'Yes' });
      });
      await screen.findByText('Location empty?');
      act(() => scanBus.publish({ text: 'S000123', format: 'UNKNOWN', source: 'wedge' }));
      expect(page).not.toHaveBeenCalled();
      fireEvent.click(screen.getByRole('button', { name: 'No' }));
      expect(await answer).toBe('neg');
      act(() => scanBus.publish({ text: 'S000124', format: 'UNKNOWN', source: 'wedge' }));
      expect(page).toHaveBeenCalledWith(expect.objectContaining({ text: 'S000124' }));
    } finally {
      unsubscribe();
    }
  });
});
