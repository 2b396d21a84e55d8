import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Account } from '@floorhand/contract/accounts';
import { i18n } from '../../../lib/i18n.ts';
import { followLanguage, languageShown } from '../../../lib/language.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { MyAccount } from './my-account.tsx';

// The preferences go to the server through session.ts (putSession): what is sent is seen here.
const savePrefs = vi.hoisted(() => vi.fn(() => Promise.resolve()));
vi.mock('../../../lib/session.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), savePrefs }));

const ME: Account = {
  id: 'a1',
  userName: 'clerk',
  firstName: 'Ana',
  surnames: 'García',
  email: '',
  badgeCode: '',
  active: true,
  hasPassword: true,
  apiKey: null,
  perms: [],
  editable: true,
};

function renderMyAccount() {
  const client = new QueryClient();
  client.setQueryData(adminKeys.me, { account: ME });
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MyAccount />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("My Account's language", () => {
  afterEach(async () => {
    cleanup();
    useSessionStore.getState().reset();
    await languageShown();
  });

  it('keeps the choice in the account preferences, sends it, and shows the screen in it at once', async () => {
    await followLanguage();
    renderMyAccount();
    const picker = screen.getByTestId<HTMLSelectElement>('my-language');
    // "Device default" until the person chooses.
    expect(picker.value).toBe('');
    fireEvent.change(picker, { target: { value: 'es' } });
    expect(useSessionStore.getState().prefs.account).toEqual({ language: 'es' });
    await waitFor(() => expect(i18n.language).toBe('es'));
    expect(document.documentElement.lang).toBe('es');
    await waitFor(() => expect(savePrefs).toHaveBeenCalled(), { timeout: 3000 });
    expect(screen.getByTestId<HTMLSelectElement>('my-language').value).toBe('es');
    // Device default again: null, the device's language.
    fireEvent.change(screen.getByTestId('my-language'), { target: { value: '' } });
    expect(useSessionStore.getState().prefs.account).toEqual({ language: null });
    await waitFor(() => expect(i18n.language).toBe('en'));
  });
});
