import { useMemo, useState } from 'react';
import { Badge, Button, Group, Stack, Switch, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { Account } from '@floorhand/contract/accounts';
import { accountsQuery, ACCOUNTS_PAGE_SIZE } from '../api/list-accounts.ts';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { fullName } from '../../../lib/auth-store.ts';
import { AccountEditor } from './account-editor.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { tk } from '@floorhand/contract/i18n';

/** The account type in words: what the flags of its sites make it. */
function accountType(a: Account): string | null {
  if (a.perms.some((p) => p.serviceAcct)) return tk('Service');
  if (a.perms.some((p) => p.kioskAcct)) return tk('Kiosk');
  if (a.perms.some((p) => p.timeclockAcct)) return tk('Time clock');
  return null;
}

function Tags({ a }: { a: Account }) {
  const { t } = useTranslation();
  const type = accountType(a);
  const roles = [...new Set(a.perms.flatMap((p) => p.roles))];
  return (
    <Group gap={4}>
      {!a.active && (
        <Badge color="gray.7" variant="filled">
          {t('Inactive')}
        </Badge>
      )}
      {type && (
        <Badge color="grape" variant="light">
          {t(type)}
        </Badge>
      )}
      {roles.map((r) => (
        <Badge key={r} variant="light">
          {r}
        </Badge>
      ))}
    </Group>
  );
}

/** Every account of the organisation, for administrators: search, create, edit. */
export function AccountsAdmin() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [includeInactive, setIncludeInactive] = useState(false);
  const [page, setPage] = useState(0);
  /** The account being edited: its id, 'new', or null. */
  const [editing, setEditing] = useState<string | null>(null);
  const list = useQuery(accountsQuery({ search: debounced.trim(), includeInactive, page }));
  const accounts = list.data?.accounts ?? [];
  const columns = useMemo<DataColumn<Account>[]>(
    () => [
      { id: 'account', header: t('Account'), cell: (a) => a.userName, sortValue: (a) => a.userName, tdProps: { fw: 600 } },
      { id: 'name', header: t('Name'), cell: (a) => fullName(a), sortValue: (a) => fullName(a) },
      { id: 'email', header: t('E-mail'), cell: (a) => a.email, sortValue: (a) => a.email },
      { id: 'badge', header: t('Badge'), cell: (a) => a.badgeCode, sortValue: (a) => a.badgeCode },
      { id: 'tags', header: t('Roles and type'), cell: (a) => <Tags a={a} /> },
    ],
    [t],
  );
  const actions = useMemo<RowAction<Account>[]>(
    () => [
      {
        id: 'edit',
        label: (a) => (a.editable ? t('Edit') : t('View')),
        ariaLabel: (a) => t('Edit {{name}}', { name: a.userName }),
        onClick: (a) => setEditing(a.id),
      },
    ],
    [t],
  );
  const current = editing && editing !== 'new' ? accounts.find((a) => a.id === editing) : undefined;

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('Search')}
          placeholder={t('Name, account, e-mail or badge')}
          leftSection={<IconSearch size={18} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(0);
          }}
          style={{ flex: 1, minWidth: 200 }}
          data-testid="account-search"
        />
        <Switch
          label={t('Show inactive')}
          checked={includeInactive}
          onChange={(e) => {
            setIncludeInactive(e.currentTarget.checked);
            setPage(0);
          }}
        />
        <Button leftSection={<IconPlus size={20} />} onClick={() => setEditing('new')} data-testid="new-account">
          {t('New account')}
        </Button>
      </Group>

      {/* Desktop: a table; handhelds: one card per account (a card opens the editor). */}
      <DataTable
        rows={accounts}
        columns={columns}
        rowKey={(a) => a.id}
        rowAttrs={(a) => ({ 'data-account': a.userName })}
        rowStyle={(a) => ({ opacity: a.active ? 1 : 0.6 })}
        actions={actions}
        testId="accounts-table"
        cardsTestId="accounts-cards"
        loading={list.isPending}
        empty={t('No accounts match.')}
        renderCard={(a) => (
          <UnstyledButton onClick={() => setEditing(a.id)} style={{ minHeight: 44, textAlign: 'left', width: '100%' }}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{a.userName}</Text>
              <Text size="sm" c="dimmed" truncate>
                {fullName(a)}
              </Text>
            </Group>
            <Tags a={a} />
          </UnstyledButton>
        )}
      />
      <Pager
        offset={page * ACCOUNTS_PAGE_SIZE}
        count={accounts.length}
        total={list.data?.total}
        more={(page + 1) * ACCOUNTS_PAGE_SIZE < (list.data?.total ?? 0)}
        busy={list.isPlaceholderData}
        onPrevious={() => setPage(Math.max(0, page - 1))}
        onNext={() => setPage(page + 1)}
        testId="accounts"
      />
      {editing && (editing === 'new' || current) && (
        <AccountEditor key={editing} account={current ?? null} onClose={() => setEditing(null)} />
      )}
    </Stack>
  );
}
