import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fullName, useAuthStore } from '../../lib/auth-store.ts';
import { useSessionStore } from '../../lib/session-store.ts';

/** The logged-in user's own account. */
export function UserAcctPage() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const org = useAuthStore((s) => s.org);
  const perms = useSessionStore((s) => s.perms);
  if (!user) return null;
  return (
    <Stack maw={720}>
      <Card withBorder>
        <Title order={3}>{fullName(user)}</Title>
        <Table mt="sm" data-testid="my-account">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th>{t('Account')}</Table.Th>
              <Table.Td>{user.userName}</Table.Td>
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
      </Card>
    </Stack>
  );
}
