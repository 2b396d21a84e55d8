import { Anchor, Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The icon-credit link the icon licence asks for. */
export function Watermark() {
  const { t } = useTranslation();
  return (
    <Box data-credit pos="fixed" bottom={4} right={8} style={{ zIndex: 1, opacity: 0.6, pointerEvents: 'auto' }}>
      <Anchor href="https://tabler.io/icons" target="_blank" rel="noreferrer" size="xs" c="dimmed">
        {t('Icons by Tabler')}
      </Anchor>
    </Box>
  );
}
