import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import '../../lib/i18n.ts';
import { useConnection } from '../../lib/offline/connection.ts';
import { FetchedAt } from './fetched-at.tsx';

const at = new Date(2026, 10, 28, 14, 3, 27).getTime();
const show = () =>
  render(
    <MantineProvider>
      <FetchedAt at={at} />
    </MantineProvider>,
  );

afterEach(() => {
  cleanup();
  useConnection.setState({ state: 'online' });
});

describe('FetchedAt', () => {
  it('says nothing while online', () => {
    show();
    expect(screen.queryByTestId('fetched-at')).toBeNull();
  });

  it('marks the answer with its time on 24 hours when offline or when the server cannot be reached', () => {
    useConnection.setState({ state: 'offline' });
    show();
    expect(screen.getByTestId('fetched-at').textContent).toBe('Offline — as of 14:03:27');
    act(() => useConnection.setState({ state: 'reconnecting' }));
    expect(screen.getByTestId('fetched-at').textContent).toBe('Offline — as of 14:03:27');
    act(() => useConnection.setState({ state: 'online' }));
    expect(screen.queryByTestId('fetched-at')).toBeNull();
  });
});
