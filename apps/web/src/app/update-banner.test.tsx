import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import '../lib/i18n.ts';
import { useAppUpdate } from '../lib/pwa.ts';
import { UpdateBanner } from './update-banner.tsx';

// "Update ready — reload" (lib/pwa.ts): shown only when a new version waits; its button applies it.

afterEach(() => {
  cleanup();
  useAppUpdate.setState({ ready: false, apply: () => undefined });
});

const show = () =>
  render(
    <MantineProvider>
      <UpdateBanner />
    </MantineProvider>,
  );

describe('the update banner', () => {
  it('is an empty live region until a new version waits', () => {
    show();
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByText('Update ready — reload')).toBeNull();
  });

  it('offers the waiting version and applies it only on Reload', () => {
    const apply = vi.fn();
    useAppUpdate.setState({ ready: true, apply });
    show();
    expect(screen.getByRole('status').textContent).toContain('Update ready — reload');
    expect(apply).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(apply).toHaveBeenCalledTimes(1);
  });
});
