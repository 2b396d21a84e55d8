import { useEffect, useState } from 'react';
import { Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The time clock: the current time, large; badge punching comes with the time-clock issue. */
export function TimeclockPage() {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Center mih="60vh">
      <Stack align="center">
        <Title order={2} size={56} data-testid="clock">
          {now.toLocaleTimeString()}
        </Title>
        <Text size="lg">{now.toLocaleDateString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' })}</Text>
        <Text c="dimmed">{t('Scan your badge to punch in or out.')}</Text>
      </Stack>
    </Center>
  );
}
