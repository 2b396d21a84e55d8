import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconUserCircle, IconUsers } from '@tabler/icons-react';
import { isAdmin } from '@floorhand/contract/perms';
import { useSessionStore } from '../../../lib/session-store.ts';
import { AccountsAdmin } from './accounts-admin.tsx';
import { MyAccount } from './my-account.tsx';

/** Accounts: everyone's own account; administrators also manage every account of the organisation. */
export function UserAcctPage() {
  const { t } = useTranslation();
  const perms = useSessionStore((s) => s.perms);
  if (!perms || !isAdmin(perms)) return <MyAccount />;
  return (
    <Tabs defaultValue="me" keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="me" leftSection={<IconUserCircle size={18} />} style={{ minHeight: 44 }}>
          {t('My account')}
        </Tabs.Tab>
        <Tabs.Tab value="all" leftSection={<IconUsers size={18} />} style={{ minHeight: 44 }} data-testid="tab-accounts">
          {t('All accounts')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="me">
        <MyAccount />
      </Tabs.Panel>
      <Tabs.Panel value="all">
        <AccountsAdmin />
      </Tabs.Panel>
    </Tabs>
  );
}
