import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Menu, MantineProvider } from '@mantine/core';
import '../lib/i18n.ts';
import { sessionColorSchemeManager, storedColorScheme } from '../lib/color-scheme.ts';
import { flushPrefsSave } from '../lib/prefs.ts';
import { useSessionStore } from '../lib/session-store.ts';
import { ColorSchemeItems } from './color-scheme-items.tsx';

// Light, dark or the device's (issue 29): the person's choice in their session prefs, applied to the
// page (Mantine's data-mantine-color-scheme on the root), the device's while nothing is chosen.

const savePrefs = vi.hoisted(() => vi.fn((_opts?: unknown) => Promise.resolve()));
vi.mock('../lib/session.ts', () => ({ savePrefs }));

/** The device's setting as matchMedia reports it. */
function deviceIsDark(dark: boolean): void {
  vi.mocked(window.matchMedia).mockImplementation(
    (query: string) =>
      ({
        matches: dark && query.includes('dark'),
        media: query,
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        addListener: vi.fn(),
        removeListener: vi.fn(),
      }) as unknown as MediaQueryList,
  );
}

const shown = () => document.documentElement.getAttribute('data-mantine-color-scheme');

function showMenu() {
  render(
    <MantineProvider defaultColorScheme="auto" colorSchemeManager={sessionColorSchemeManager()}>
      <Menu opened>
        <Menu.Target>
          <button type="button">menu</button>
        </Menu.Target>
        <Menu.Dropdown>
          <ColorSchemeItems />
        </Menu.Dropdown>
      </Menu>
    </MantineProvider>,
  );
}

beforeEach(() => {
  useSessionStore.getState().reset();
  savePrefs.mockClear();
});
afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('data-mantine-color-scheme');
});

describe('the colour scheme preference', () => {
  it('follows the device while the person has chosen nothing (and before any login)', () => {
    expect(storedColorScheme()).toBe('auto');
    deviceIsDark(true);
    showMenu();
    expect(shown()).toBe('dark');
    expect(screen.getByTestId('color-scheme-auto').getAttribute('aria-checked')).toBe('true');
    cleanup();
    deviceIsDark(false);
    showMenu();
    expect(shown()).toBe('light');
  });

  it('stores a choice in the session prefs, saves it, and applies it at once', () => {
    deviceIsDark(false);
    showMenu();
    fireEvent.click(screen.getByTestId('color-scheme-dark'));
    expect(shown()).toBe('dark');
    expect(useSessionStore.getState().prefs.account).toEqual({ colorScheme: 'dark' });
    flushPrefsSave();
    expect(savePrefs).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('color-scheme-dark').getAttribute('aria-checked')).toBe('true');
    // Back to the device's: stored as such, the device's light again.
    fireEvent.click(screen.getByTestId('color-scheme-auto'));
    expect(shown()).toBe('light');
    expect(storedColorScheme()).toBe('auto');
  });

  it("applies the next person's choice when the session changes (a kiosk worker), and the device's after a logout", () => {
    deviceIsDark(false);
    showMenu();
    expect(shown()).toBe('light');
    act(() => useSessionStore.getState().set({ prefs: { account: { colorScheme: 'dark' } } }));
    expect(shown()).toBe('dark');
    act(() => useSessionStore.getState().reset());
    expect(shown()).toBe('light');
    // Applying what the session holds is not a new choice: nothing is saved.
    flushPrefsSave();
    expect(savePrefs).not.toHaveBeenCalled();
  });

  it('reads a broken stored value as the device setting', () => {
    useSessionStore.getState().set({ prefs: { account: { colorScheme: 'purple' } } });
    expect(storedColorScheme()).toBe('auto');
  });
});
