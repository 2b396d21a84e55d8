import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link, useMatches, useNavigate, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconTools } from '@tabler/icons-react';
import { useWorkAreas } from '../../../components/ui/work-areas.tsx';
import { readFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';

/** A work area that is routed and guarded but whose screens arrive with their own issue. */
export function WorkAreaPage() {
  const { t } = useTranslation();
  const matches = useMatches();
  const feature = [...matches].reverse().find((m) => m.staticData.feature)?.staticData.feature;
  const entry = useWorkAreas().find((w) => w.feature === feature);
  const { lookupVal } = useParams({ strict: false }) as { lookupVal?: string };
  const navigate = useNavigate();
  // Until the work areas have their screens, a scan in one looks the value up in Stock Lookup (docs/scanning.md).
  useScans((scan) => {
    readFeedback(scan);
    void navigate({ href: `/stockLookup?q=${encodeURIComponent(scan.text)}` });
  });
  return (
    <Stack maw={640}>
      {entry && <Text size="lg">{t(entry.description)}</Text>}
      {lookupVal && <Text data-testid="lookup-val">{t('Looking up: {{value}}', { value: lookupVal })}</Text>}
      <Alert icon={<IconTools />} color="dark" title={t('Coming soon')}>
        {t('The screens of this work area are not built yet.')}
      </Alert>
      <Button component={Link} to="/tasks" variant="default" w="fit-content">
        {t('Back to tasks')}
      </Button>
    </Stack>
  );
}
