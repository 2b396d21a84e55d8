import { useState } from 'react';
import { Badge, Button, Card, Group, Pagination, ScrollArea, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { Account } from '@floorhand/contract/accounts';
import { accountsQuery, ACCOUNTS_PAGE_SIZE } from '../../lib/admin-api.ts';
import { fullName } from '../../lib/auth-store.ts';
import { AccountEditor } from './account-editor.tsx';

/** The account type in words: what the flags of its sites make it. */
function accountType(a: Account): string | null {
  if (a.perms.some((p) => p.serviceAcct)) return 'Service';
  if (a.perms.some((p) => p.kioskAcct)) return 'Kiosk';
  if (a.perms.some((p) => p.timeclockAcct)) return 'Time clock';
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
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / ACCOUNTS_PAGE_SIZE));
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

      {/* Desktop: a table; handhelds: one card per account. */}
      <ScrollArea visibleFrom="sm" type="auto">
        <Table highlightOnHover verticalSpacing="sm" data-testid="accounts-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Account')}</Table.Th>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('E-mail')}</Table.Th>
              <Table.Th>{t('Badge')}</Table.Th>
              <Table.Th>{t('Roles and type')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.map((a) => (
              <Table.Tr key={a.id} data-account={a.userName} style={{ opacity: a.active ? 1 : 0.6 }}>
                <Table.Td fw={600}>{a.userName}</Table.Td>
                <Table.Td>{fullName(a)}</Table.Td>
                <Table.Td>{a.email}</Table.Td>
                <Table.Td>{a.badgeCode}</Table.Td>
                <Table.Td>
                  <Tags a={a} />
                </Table.Td>
                <Table.Td ta="right">
                  <Button variant="light" size="sm" onClick={() => setEditing(a.id)} aria-label={t('Edit {{name}}', { name: a.userName })}>
                    {a.editable ? t('Edit') : t('View')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Stack hiddenFrom="sm" gap="xs" data-testid="accounts-cards">
        {accounts.map((a) => (
          <Card key={a.id} withBorder padding="sm" component="button" type="button" onClick={() => setEditing(a.id)} data-account={a.userName} style={{ opacity: a.active ? 1 : 0.6, minHeight: 44, textAlign: 'left', width: '100%', cursor: 'pointer' }}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{a.userName}</Text>
              <Text size="sm" c="dimmed" truncate>
                {fullName(a)}
              </Text>
            </Group>
            <Tags a={a} />
          </Card>
        ))}
      </Stack>

      {!list.isPending && accounts.length === 0 && <Text c="dimmed">{t('No accounts match.')}</Text>}
      {pages > 1 && <Pagination total={pages} value={page + 1} onChange={(p) => setPage(p - 1)} size="lg" />}
      {editing && (editing === 'new' || current) && <AccountEditor key={editing} account={current ?? null} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
