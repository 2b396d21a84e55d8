import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isAdmin } from '@floorhand/contract/perms';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useLabelFeed } from '../api/label-api.ts';
import { PrintersPanel } from './printers-panel.tsx';
import { JobsTable } from './jobs-table.tsx';
import { TemplatesPanel } from './templates-panel.tsx';

/**
 * Label Printers: the site's print agents and their printers with live states, this device's choice
 * of agents and copies (machine settings), a test print, the recent jobs with their results and a
 * reprint, and the label templates with a preview rendered by the server (admins edit them).
 */
export function LabelPrinterPage() {
  const { t } = useTranslation();
  useLabelFeed();
  const perms = useSessionStore((s) => s.perms);
  return (
    <Stack gap="lg" maw={1400} data-testid="label-printer-page">
      <Title order={2} size="h3">
        {t('Printers')}
      </Title>
      <PrintersPanel canManage={!!perms && isAdmin(perms)} />
      <Title order={2} size="h3">
        {t('Recent jobs')}
      </Title>
      <JobsTable />
      <Title order={2} size="h3">
        {t('Label templates')}
      </Title>
      <TemplatesPanel canEdit={!!perms && isAdmin(perms)} />
    </Stack>
  );
}
