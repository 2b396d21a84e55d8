import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, PasswordInput, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconDeviceFloppy, IconKey } from '@tabler/icons-react';
import { myAccountProblem, passwordProblem, type Account } from '@floorhand/contract/accounts';
import { useChangeMyPassword } from '../api/change-my-password.ts';
import { useUpdateMe } from '../api/update-me.ts';
import { meQuery } from '../api/get-me.ts';
import { fullName, useAuthStore } from '../../../lib/auth-store.ts';
import { LanguageSelect } from '../../../components/ui/language-select.tsx';
import { ACCOUNT_PREFS } from '../../../lib/language.ts';
import { usePrefs } from '../../../lib/prefs.ts';
import { StaffLabel } from './staff-label.tsx';
import { tText } from '../../../lib/translate-text.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function ProfileForm({ account }: { account: Account }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ firstName: account.firstName, surnames: account.surnames, email: account.email });
  const save = useUpdateMe({
    done: t('Your account is saved'),
    // The header shows the name from auth_settings: keep it in step.
    onSuccess: (res) => {
      const auth = useAuthStore.getState();
      if (res.account && auth.authToken && auth.org && auth.user) {
        auth.setLogin({
          authToken: auth.authToken,
          org: auth.org,
          stayLoggedIn: auth.stayLoggedIn,
          user: { ...auth.user, firstName: res.account.firstName, surnames: res.account.surnames },
        });
      }
    },
  });
  const emailError = form.email && !EMAIL.test(form.email) ? t('does not appear to be a valid email address') : null;
  const nameError = myAccountProblem(form);
  const dirty = form.firstName !== account.firstName || form.surnames !== account.surnames || form.email !== account.email;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!emailError && !nameError) save.mutate({ account: form });
      }}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('First name')}
            required
            value={form.firstName}
            error={nameError ? t(nameError) : null}
            data-testid="my-first-name"
            maxLength={100}
            onChange={(e) => setForm({ ...form, firstName: e.currentTarget.value })}
          />
          <TextInput
            label={t('Surnames')}
            value={form.surnames}
            maxLength={100}
            onChange={(e) => setForm({ ...form, surnames: e.currentTarget.value })}
          />
        </SimpleGrid>
        <TextInput
          label={t('E-mail')}
          type="email"
          value={form.email}
          error={emailError}
          onChange={(e) => setForm({ ...form, email: e.currentTarget.value.trim() })}
        />
        <Group>
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={20} />}
            disabled={!dirty || !!emailError || !!nameError}
            loading={save.isPending}
            data-testid="save-my-account"
          >
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordForm({ userName }: { userName: string }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const change = useChangeMyPassword({
    done: t('Your password is changed'),
    onSuccess: () => {
      [setCurrent, setNext, setRepeat].forEach((set) => set(''));
      // Their own password now: the other pages open again.
      useAuthStore.getState().setMustChangePassword(false);
    },
  });
  const problem = next ? passwordProblem(next, userName) : undefined;
  const mismatch = repeat && repeat !== next ? t('The passwords do not match') : null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate({ oldPassword: current, newPassword: next });
      }}
    >
      <Stack>
        <PasswordInput
          label={t('Current password')}
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.currentTarget.value)}
          maw={420}
        />
        <Stack gap="xs" maw={420}>
          <PasswordInput
            label={t('New password')}
            description={t('At least 8 characters')}
            autoComplete="new-password"
            value={next}
            error={problem && tText(problem)}
            onChange={(e) => setNext(e.currentTarget.value)}
          />
          <PasswordInput
            label={t('Repeat the new password')}
            autoComplete="new-password"
            value={repeat}
            error={mismatch}
            onChange={(e) => setRepeat(e.currentTarget.value)}
          />
        </Stack>
        <Group>
          <Button
            type="submit"
            variant="light"
            leftSection={<IconKey size={20} />}
            disabled={!current || !next || !!problem || repeat !== next}
            loading={change.isPending}
          >
            {t('Change password')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The account's language: kept in their session preferences (so it follows them to any device) and
 * shown at once; a workstation set to a language of its own still shows that one (lib/language.ts).
 */
function LanguageChoice() {
  const { t } = useTranslation();
  const [prefs, setPrefs] = usePrefs('account', ACCOUNT_PREFS);
  return (
    <LanguageSelect
      label={t('Language of your screens')}
      description={t("On every device you log in to. Device default: the workstation's language, else the browser's.")}
      unsetLabel={t('Device default')}
      value={prefs.language}
      onChange={(language) => setPrefs({ language })}
      data-testid="my-language"
    />
  );
}

/** The logged-in user's own account: names, e-mail, language, password and the staff label. */
export function MyAccount() {
  const { t } = useTranslation();
  const org = useAuthStore((s) => s.org);
  const mustChangePassword = useAuthStore((s) => !!s.mustChangePassword);
  const me = useQuery(meQuery());
  const account = me.data?.account;
  if (!account)
    return me.isError ? <Alert color="red">{t('Your account could not be loaded.')}</Alert> : <Text c="dimmed">{t('Loading…')}</Text>;
  const perms = account.perms[0];
  return (
    <Stack maw={820}>
      {mustChangePassword && (
        <Alert color="orange" title={t('Choose your own password')} data-testid="must-change-password">
          {t(
            'An administrator set your password. Choose your own below (the one you logged in with is the current one); the other pages open once it is changed.',
          )}
        </Alert>
      )}
      <Card withBorder>
        <Stack>
          <Title order={2} size="h3">
            {fullName(account) || account.userName}
          </Title>
          {/* Key/value lines of one account, not a list: a vertical table, not the shared DataTable. */}
          <Table data-testid="my-account" variant="vertical" layout="fixed" withRowBorders={false}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={140}>{t('Account')}</Table.Th>
                <Table.Td>{account.userName}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Organisation')}</Table.Th>
                <Table.Td>{org?.name}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('Roles')}</Table.Th>
                <Table.Td>
                  <Group gap={4}>
                    {perms?.roles.length ? perms.roles.map((r) => <Badge key={r}>{r}</Badge>) : <Text c="dimmed">{t('none')}</Text>}
                  </Group>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <ProfileForm key={`${account.firstName}|${account.surnames}|${account.email}`} account={account} />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            {t('Language')}
          </Title>
          <LanguageChoice />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            {t('Password')}
          </Title>
          <PasswordForm userName={account.userName} />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            {t('Staff label')}
          </Title>
          {account.badgeCode ? (
            <StaffLabel
              accountId={account.id}
              badgeCode={account.badgeCode}
              name={fullName(account) || account.userName}
              org={org?.name ?? ''}
            />
          ) : (
            <Text c="dimmed">{t('You have no badge code yet. An administrator gives you one.')}</Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
