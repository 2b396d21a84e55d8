import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useVisibleWorkAreas } from '../../../components/ui/work-areas.tsx';
import { useSessionPerson } from '../../../lib/session-store.ts';
import { readFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';

/** The worker's home: the work areas the session's visible features allow. */
export function TasksPage() {
  const { t } = useTranslation();
  // The session's person: on a kiosk, the worker whose badge opened it, not the kiosk account.
  const user = useSessionPerson();
  const navigate = useNavigate();
  // A scan on the home screen looks the value up (docs/scanning.md).
  useScans((scan) => {
    readFeedback(scan);
    void navigate({ href: `/stockLookup?q=${encodeURIComponent(scan.text)}` });
  });
  const areas = useVisibleWorkAreas();
  return (
    <Stack>
      {user && (
        <Text c="dimmed" data-testid="greeting">
          {t('Hello {{name}}, what are you working on?', { name: user.firstName || user.userName })}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm" data-testid="task-menu">
        {areas.map((w) => (
          <Card
            key={w.feature}
            component={Link}
            to={w.path}
            withBorder
            padding="md"
            radius="md"
            data-feature={w.feature}
            style={{ minHeight: 72 }}
          >
            <Group wrap="nowrap">
              <ThemeIcon size={48} radius="md" variant="light">
                <w.icon size={28} />
              </ThemeIcon>
              <Stack gap={2}>
                <Text fw={600}>{t(w.title)}</Text>
                <Text size="sm" c="dimmed">
                  {t(w.description)}
                </Text>
              </Stack>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {areas.length === 0 && <Text>{t('No work areas are available to your account. Ask an administrator for access.')}</Text>}
    </Stack>
  );
}
