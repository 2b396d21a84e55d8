import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a page's chunk loads (only when that takes longer than the router's pending delay). */
export function RouteLoading() {
  const { t } = useTranslation();
  return (
    <Center mih={160} role="status" aria-label={t('Loading')} data-testid="route-loading">
      <Loader />
    </Center>
  );
}
