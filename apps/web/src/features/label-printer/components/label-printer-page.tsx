import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isAdmin } from '@floorhand/contract/perms';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useLabelFeed } from '../api/keys.ts';
import { PrintersPanel } from './printers-panel.tsx';
import { JobsTable } from './jobs-table.tsx';
import { TemplatesPanel } from './templates-panel.tsx';

/**
 * Label Printers: the site's print agents and their printers with live states, this device's choice
 * of agents and copies (machine settings), a test print, the recent jobs with their results and a
 * reprint or "Print the rest", and (administrators only) the label templates with a preview rendered
 * by the server. Printers and jobs come first, so a handheld sees them without scrolling past an editor.
 */
export function LabelPrinterPage() {
  const { t } = useTranslation();
  useLabelFeed();
  const perms = useSessionStore((s) => s.perms);
  const admin = !!perms && isAdmin(perms);
  return (
    <Stack gap="lg" maw={1400} data-testid="label-printer-page">
      <Title order={2} size="h3">
        {t('Printers')}
      </Title>
      <PrintersPanel canManage={admin} />
      <Title order={2} size="h3">
        {t('Recent jobs')}
      </Title>
      <JobsTable />
      {/* The templates (and their editor) are the administrators': on the floor the page is printers and jobs. */}
      {admin && (
        <>
          <Title order={2} size="h3">
            {t('Label templates')}
          </Title>
          <TemplatesPanel canEdit />
        </>
      )}
    </Stack>
  );
}
