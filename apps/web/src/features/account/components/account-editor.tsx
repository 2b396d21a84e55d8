import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Divider,
  Fieldset,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { IconCopy, IconDeviceFloppy, IconKey, IconKeyOff, IconLockOpen } from '@tabler/icons-react';
import { passwordProblem, type Account, type SitePerms } from '@floorhand/contract/accounts';
import { UI_BREAKPOINTS } from '@floorhand/contract/constants';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { useUpdateAccount } from '../api/update-account.ts';
import { useCreateAccount } from '../api/create-account.ts';
import { useRevokeApiKey } from '../api/revoke-api-key.ts';
import { useIssueApiKey } from '../api/issue-api-key.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useSetPassword } from '../api/set-password.ts';
import { useRoles } from '../../../lib/roles.ts';
import { useSites } from '../api/list-sites.ts';
import { fullName, useAuthStore } from '../../../lib/auth-store.ts';
import { i18n } from '../../../lib/i18n.ts';
import { useSiteStore } from '../../../lib/site-store.ts';
import { StaffLabel } from './staff-label.tsx';
import { BadgePin } from './badge-pin.tsx';
import { showTimestamp } from '../../../lib/inventory-format.ts';
import { tText } from '../../../lib/translate-text.ts';
import { tk } from '@floorhand/contract/i18n';

const FLAGS = [
  { key: 'kioskAcct', label: tk('Kiosk account'), description: tk('A shared tablet: workers open their session with their badge') },
  { key: 'timeclockAcct', label: tk('Time-clock account'), description: tk('A wall clock: workers punch in and out') },
  { key: 'serviceAcct', label: tk('Service account'), description: tk('An integration: calls the API with an API key, cannot log in') },
] as const;

const noPerms = (siteId: string): SitePerms => ({ siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false });

/** Shows a password or key once, with a copy button: the server keeps only its hash. */
function showSecret(title: string, value: string, note: string): void {
  void dialogs.info({
    title,
    type: 'success',
    message: (
      <Stack gap="sm">
        <Text size="sm">{note}</Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code data-testid="secret-value" style={{ wordBreak: 'break-all', fontSize: 15, flex: 1 }}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button variant="default" size="sm" onClick={copy} leftSection={<IconCopy size={16} />}>
                {copied ? i18n.t('Copied') : i18n.t('Copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    ),
  });
}

function PermsFields({
  value,
  siteName,
  onChange,
  roleNames,
  disabled,
}: {
  value: SitePerms;
  siteName?: string;
  onChange: (p: SitePerms) => void;
  roleNames: string[];
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset
      legend={siteName ? t('{{site}} ({{id}})', { site: siteName, id: value.siteId }) : t('Site {{site}}', { site: value.siteId })}
      disabled={disabled}
      data-testid={`site-perms-${value.siteId}`}
    >
      <Stack gap="xs">
        <MultiSelect
          label={t('Roles')}
          data={[...new Set([...roleNames, ...value.roles])]}
          value={value.roles}
          onChange={(roles) => onChange({ ...value, roles })}
          searchable
          clearable
          size="md"
          comboboxProps={{ withinPortal: true }}
          data-testid={`roles-${value.siteId}`}
        />
        {FLAGS.map((f) => (
          <Switch
            key={f.key}
            label={t(f.label)}
            description={t(f.description)}
            checked={value[f.key]}
            onChange={(e) => onChange({ ...value, [f.key]: e.currentTarget.checked })}
            data-testid={`flag-${f.key}`}
          />
        ))}
      </Stack>
    </Fieldset>
  );
}

/** What an admin can do about an existing account's credentials: passwords, or a service account's API key. */
function Credentials({ account }: { account: Account }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const setPw = useSetPassword({ done: t('The password is set'), onSuccess: () => setPassword('') });
  const reset = useResetPassword({
    onSuccess: (res) =>
      res.password &&
      showSecret(
        t('Temporary password'),
        res.password,
        t('Hand this password to {{name}}; they should change it under My account.', { name: account.userName }),
      ),
  });
  const issue = useIssueApiKey({
    onSuccess: (res) =>
      res.apiKey &&
      showSecret(t('API key'), res.apiKey, t('Copy the key now: it is shown only this once. Send it as "Authorization: Bearer <key>".')),
  });
  const revoke = useRevokeApiKey({ done: t('The API key is revoked') });
  const service = account.perms.some((p) => p.serviceAcct);
  if (service) {
    return (
      <Stack gap="xs">
        <Text size="sm" data-testid="api-key-state">
          {account.apiKey
            ? t('API key fhk_{{prefix}}_… issued {{when}}', {
                prefix: account.apiKey.prefix,
                when: showTimestamp(account.apiKey.createdAt),
              })
            : t('No API key')}
        </Text>
        <Group>
          <Button
            variant="light"
            leftSection={<IconKey size={20} />}
            loading={issue.isPending}
            onClick={() => issue.mutate({ accountId: account.id })}
            data-testid="issue-api-key"
          >
            {account.apiKey ? t('Issue a new key') : t('Issue API key')}
          </Button>
          {account.apiKey && (
            <Button
              variant="light"
              color="red"
              leftSection={<IconKeyOff size={20} />}
              loading={revoke.isPending}
              onClick={async () => {
                const ok = await dialogs.confirm({
                  type: 'warn',
                  title: t('Revoke API key'),
                  message: t('Integrations using this key stop working at once.'),
                  neg: t('Cancel'),
                  pos: t('Revoke'),
                });
                if (ok === 'pos') revoke.mutate({ accountId: account.id });
              }}
            >
              {t('Revoke key')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }
  const problem = password ? passwordProblem(password, account.userName) : undefined;
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <PasswordInput
          label={t('New password')}
          autoComplete="new-password"
          visibilityToggleButtonProps={{ 'aria-label': t('Show or hide the password') }}
          value={password}
          error={problem && tText(problem)}
          onChange={(e) => setPassword(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Button
          variant="light"
          disabled={!password || !!problem}
          loading={setPw.isPending}
          onClick={() => setPw.mutate({ accountId: account.id, password })}
        >
          {t('Set password')}
        </Button>
      </Group>
      <Group>
        <Button
          variant="default"
          leftSection={<IconLockOpen size={20} />}
          loading={reset.isPending}
          onClick={() => reset.mutate({ accountId: account.id })}
          data-testid="reset-password"
        >
          {t('Reset to a temporary password')}
        </Button>
      </Group>
    </Stack>
  );
}

export interface AccountEditorProps {
  /** The account to edit, or null to create one. */
  account: Account | null;
  onClose: () => void;
}

/** Create or edit an account: names, e-mail, badge, active, and roles and account type per site. */
export function AccountEditor({ account, onClose }: AccountEditorProps) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(`(max-width: ${UI_BREAKPOINTS.sm}px)`);
  const siteId = useSiteStore((s) => s.siteId) ?? '';
  const org = useAuthStore((s) => s.org);
  const roles = useRoles();
  const roleNames = roles.data?.roles?.map((r) => r.name) ?? [];
  const sites = useSites().data?.sites ?? [];
  const initialPerms = account
    ? account.perms.some((p) => p.siteId === siteId)
      ? account.perms
      : [...account.perms, noPerms(siteId)]
    : [noPerms(siteId)];
  const [form, setForm] = useState({
    userName: account?.userName ?? '',
    firstName: account?.firstName ?? '',
    surnames: account?.surnames ?? '',
    email: account?.email ?? '',
    badgeCode: account?.badgeCode ?? '',
    active: account?.active ?? true,
  });
  const [perms, setPerms] = useState<SitePerms[]>(initialPerms);
  const [password, setPassword] = useState('');
  const editable = account?.editable ?? true;
  const service = perms.some((p) => p.serviceAcct);
  // Sites the account has no perms on yet, that this admin manages: roles can be given there too.
  const addable = sites.filter((site) => !perms.some((p) => p.siteId === site.id));
  const create = useCreateAccount({ done: t('The account is created'), onSuccess: onClose });
  const update = useUpdateAccount({ done: t('The account is saved'), onSuccess: onClose });

  const userNameError =
    form.userName && !/^[A-Za-z0-9][A-Za-z0-9._@-]*$/.test(form.userName)
      ? t('Letters, digits, dots, underscores, @ and hyphens; start with a letter or digit')
      : null;
  const passwordError = !account && !service && password ? passwordProblem(password, form.userName) : undefined;
  const missing = !form.userName || (!account && !service && !password);

  const save = () => {
    const fields = {
      userName: form.userName,
      firstName: form.firstName,
      surnames: form.surnames,
      email: form.email,
      badgeCode: form.badgeCode,
    };
    if (!account) {
      create.mutate({ account: fields, password: service ? undefined : password, perms });
      return;
    }
    const changed = Object.fromEntries(
      Object.entries({ ...fields, active: form.active }).filter(([k, v]) => account[k as keyof typeof fields | 'active'] !== v),
    );
    const permsChanged = JSON.stringify(perms) !== JSON.stringify(initialPerms) || initialPerms.length !== account.perms.length;
    update.mutate({ accountId: account.id, account: changed, ...(permsChanged ? { perms } : {}) });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      fullScreen={!!narrow}
      size="lg"
      title={account ? t('Account {{name}}', { name: account.userName }) : t('New account')}
    >
      <Stack>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <Stack>
            {!editable && <Alert color="yellow">{t('Only an organisation administrator may change this account.')}</Alert>}
            <Fieldset legend={t('Account')} disabled={!editable} variant="unstyled">
              <Stack gap="xs">
                <TextInput
                  label={t('Account name')}
                  required
                  value={form.userName}
                  error={userNameError}
                  maxLength={100}
                  onChange={(e) => setForm({ ...form, userName: e.currentTarget.value.trim() })}
                  data-testid="acct-username"
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    label={t('First name')}
                    value={form.firstName}
                    maxLength={100}
                    onChange={(e) => setForm({ ...form, firstName: e.currentTarget.value })}
                    data-testid="acct-firstname"
                  />
                  <TextInput
                    label={t('Surnames')}
                    value={form.surnames}
                    maxLength={100}
                    onChange={(e) => setForm({ ...form, surnames: e.currentTarget.value })}
                    data-testid="acct-surnames"
                  />
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    label={t('E-mail')}
                    type="email"
                    value={form.email}
                    onChange={(e) => setForm({ ...form, email: e.currentTarget.value.trim() })}
                  />
                  <TextInput
                    label={t('Badge code')}
                    description={
                      account
                        ? t('Printed on the staff label; scanned at kiosks and time clocks')
                        : t('Printed on the staff label; scanned at kiosks and time clocks. Leave empty for a random code')
                    }
                    inputWrapperOrder={['label', 'input', 'description', 'error']}
                    value={form.badgeCode}
                    maxLength={64}
                    onChange={(e) => setForm({ ...form, badgeCode: e.currentTarget.value.trim() })}
                    data-testid="acct-badge"
                  />
                </SimpleGrid>
                {!account && !service && (
                  <PasswordInput
                    label={t('Password')}
                    description={t('At least 8 characters')}
                    required
                    autoComplete="new-password"
                    value={password}
                    error={passwordError && tText(passwordError)}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                    data-testid="acct-password"
                  />
                )}
                {account && (
                  <Switch
                    label={t('Active')}
                    description={t('Inactive accounts cannot log in; their history stays')}
                    checked={form.active}
                    onChange={(e) => setForm({ ...form, active: e.currentTarget.checked })}
                    data-testid="acct-active"
                  />
                )}
              </Stack>
            </Fieldset>
            {perms.map((p) => (
              <PermsFields
                key={p.siteId}
                value={p}
                siteName={sites.find((site) => site.id === p.siteId)?.name}
                roleNames={roleNames}
                disabled={!editable}
                onChange={(next) => setPerms(perms.map((x) => (x.siteId === next.siteId ? next : x)))}
              />
            ))}
            {editable && addable.length > 0 && (
              <Select
                label={t('Roles on another site')}
                placeholder={t('Add a site')}
                data={addable.map((site) => ({ value: site.id, label: `${site.name} (${site.id})` }))}
                value={null}
                onChange={(id) => id && setPerms([...perms, noPerms(id)])}
                size="md"
                comboboxProps={{ withinPortal: true }}
                data-testid="add-site"
              />
            )}
            {editable && (
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  {t('Cancel')}
                </Button>
                <Button
                  type="submit"
                  leftSection={<IconDeviceFloppy size={20} />}
                  disabled={missing || !!userNameError || !!passwordError}
                  loading={create.isPending || update.isPending}
                  data-testid="acct-save"
                >
                  {account ? t('Save') : t('Create')}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
        {account && editable && (
          <>
            <Divider label={service ? t('API key') : t('Password')} labelPosition="left" />
            <Credentials account={account} />
          </>
        )}
        {account?.badgeCode && editable && !service && !perms.some((p) => p.kioskAcct || p.timeclockAcct) && (
          <>
            <Divider label={t('Badge PIN')} labelPosition="left" />
            <BadgePin accountId={account.id} userName={account.userName} />
          </>
        )}
        {account?.badgeCode && (
          <>
            <Divider label={t('Staff label')} labelPosition="left" />
            <StaffLabel
              accountId={account.id}
              badgeCode={account.badgeCode}
              name={fullName(account) || account.userName}
              org={org?.name ?? ''}
            />
          </>
        )}
      </Stack>
    </Modal>
  );
}
