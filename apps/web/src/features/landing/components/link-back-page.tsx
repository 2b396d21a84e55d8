import { Button, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** Where an outside flow (e.g. a payment or an integration) returns to; no guards. */
export function LinkBackPage() {
  const { t } = useTranslation();
  const { op, pkg } = useParams({ strict: false }) as { op?: string; pkg?: string };
  return (
    <Stack maw={560} mx="auto" mt="xl">
      <Title order={2}>{t('Welcome back')}</Title>
      <Text>{t('The operation {{op}} for {{pkg}} has returned to Floorhand.', { op, pkg })}</Text>
      <Button component={Link} to="/home" w="fit-content">
        {t('Continue')}
      </Button>
    </Stack>
  );
}
