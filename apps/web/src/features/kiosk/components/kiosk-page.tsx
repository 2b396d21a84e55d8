import { Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The shared kiosk's start page: a worker scans a badge to open their session. */
export function KioskPage() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh">
      <Stack align="center">
        <Title order={2} data-testid="kiosk-title">
          {t('Kiosk')}
        </Title>
        <Text size="lg">{t('Scan your badge to start.')}</Text>
      </Stack>
    </Center>
  );
}
