import { Alert } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../../lib/offline/connection.ts';

/**
 * The screens a worker keeps using while the server cannot be reached (issue 27): their writes go to
 * the outbox and their reads to the cache. Every other screen (administration, settings, locations,
 * label printers, punch corrections) needs the server and says so while it cannot be reached.
 */
const FLOOR_PATHS = [
  '/home',
  '/tasks',
  '/kiosk',
  '/stockPick',
  '/shipping',
  '/stockLookup',
  '/stockAdjust',
  '/physicalInventory',
  '/singleTask',
  '/batchTask',
  '/timeclock',
];

export const worksOffline = (pathname: string): boolean =>
  pathname === '/' || FLOOR_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));

/** "This screen needs the server", on a screen that does, while it cannot be reached. */
export function NeedsServerBanner({ pathname }: { pathname: string }) {
  const { t } = useTranslation();
  const state = useConnection((s) => s.state);
  if (state === 'online' || worksOffline(pathname)) return null;
  return (
    <Alert color="orange" icon={<IconCloudOff size={20} />} mb="sm" data-testid="needs-server" role="status">
      {t('This screen needs the server: nothing here can be saved until the connection returns.')}
    </Alert>
  );
}
