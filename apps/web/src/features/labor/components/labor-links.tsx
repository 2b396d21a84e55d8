import { Anchor, Group } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { mayReadLaborReports } from '@floorhand/contract/labor';
import { useSessionStore } from '../../../lib/session-store.ts';

/** Where the labor reports live: a view of the single task page (docs/labor.md). */
export const REPORTS_HREF = '/singleTask?view=reports';

/** Links between the labor pages; the reports only for admins and time-clock administrators. */
export function LaborLinks({ current }: { current: 'single' | 'batch' }) {
  const { t } = useTranslation();
  const perms = useSessionStore((s) => s.perms);
  const features = useSessionStore((s) => s.featureAccess);
  const navigate = useNavigate();
  return (
    <Group gap="md" mt="sm">
      {current === 'single' && features?.batchTask !== false && (
        <Anchor component={Link} to="/batchTask" py={12} data-testid="link-batch">
          {t('Batch task labor')}
        </Anchor>
      )}
      {current === 'batch' && features?.singleTask !== false && (
        <Anchor component={Link} to="/singleTask" py={12} data-testid="link-single">
          {t('Single task labor')}
        </Anchor>
      )}
      {perms && mayReadLaborReports(perms) && (
        <Anchor
          href={REPORTS_HREF}
          py={12}
          data-testid="link-reports"
          onClick={(e) => {
            e.preventDefault();
            void navigate({ href: REPORTS_HREF });
          }}
        >
          {t('Labor reports')}
        </Anchor>
      )}
    </Group>
  );
}
