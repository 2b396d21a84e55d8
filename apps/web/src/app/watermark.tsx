import { Anchor, Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The icon-credit link the icon licence asks for: at the foot of the page, never over content. */
export function Watermark() {
  const { t } = useTranslation();
  return (
    <Box data-credit ta="right" mt="xl">
      <Anchor href="https://tabler.io/icons" target="_blank" rel="noreferrer" size="xs" c="dimmed">
        {t('Icons by Tabler')}
      </Anchor>
    </Box>
  );
}
