import { notifications } from '@mantine/notifications';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import { i18n } from '../i18n.ts';

/**
 * A request the server could not be reached for, and that no outbox keeps (a save, an admin change,
 * a read): one notice when the connection is first found lost (the header says so after that), never
 * the error dialog; the header's indicator shows when the server is back.
 */
export function notifyUnreachable(): void {
  notifications.show({
    id: 'server-unreachable',
    color: 'orange',
    autoClose: NOTIFICATION_TIMEOUT_MS,
    message: i18n.t(
      'The connection to the server is lost. Floor work is kept and sent when it returns; other changes are not saved until then.',
    ),
  });
}
