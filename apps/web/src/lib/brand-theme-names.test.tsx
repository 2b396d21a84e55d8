import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { brandTheme } from './brand-theme.ts';

afterEach(cleanup);

describe('brand theme: close buttons have a name', () => {
  it("names a notification's close button, as axe-core asks (button-name, critical)", async () => {
    render(
      <MantineProvider theme={brandTheme({})}>
        <Notifications />
      </MantineProvider>,
    );
    act(() => {
      notifications.show({ message: 'Order saved' });
    });
    expect(await screen.findByText('Order saved')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });
});
