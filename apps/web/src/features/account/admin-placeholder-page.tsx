import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconTools } from '@tabler/icons-react';

/** Account Roles and Feature Access: routed and guarded for administrators; their screens come next. */
export function AdminPlaceholderPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={640}>
      <Alert icon={<IconTools />} color="gray" title={t('Coming soon')}>
        {t('This administration screen is not built yet.')}
      </Alert>
    </Stack>
  );
}
