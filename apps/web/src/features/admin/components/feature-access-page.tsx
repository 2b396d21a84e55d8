import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconDeviceDesktop, IconHistory, IconShieldLock } from '@tabler/icons-react';
import { AuditLog } from './audit-log.tsx';
import { FeatureGrid } from './feature-grid.tsx';
import { WorkstationsAdmin } from './workstations-admin.tsx';

/** Feature Access: the grid of features by role, plus the site's workstations and the audit log. */
export function FeatureAccessPage() {
  const { t } = useTranslation();
  const tab = { style: { minHeight: 44 } };
  return (
    <Tabs defaultValue="features" keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="features" leftSection={<IconShieldLock size={18} />} {...tab}>
          {t('Features')}
        </Tabs.Tab>
        <Tabs.Tab value="workstations" leftSection={<IconDeviceDesktop size={18} />} {...tab} data-testid="tab-workstations">
          {t('Workstations')}
        </Tabs.Tab>
        <Tabs.Tab value="audit" leftSection={<IconHistory size={18} />} {...tab} data-testid="tab-audit">
          {t('Audit log')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="features">
        <FeatureGrid />
      </Tabs.Panel>
      <Tabs.Panel value="workstations">
        <WorkstationsAdmin />
      </Tabs.Panel>
      <Tabs.Panel value="audit">
        <AuditLog />
      </Tabs.Panel>
    </Tabs>
  );
}
