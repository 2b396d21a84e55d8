import { useTranslation } from 'react-i18next';
import { isUnreachable } from '@floorhand/contract/offline';
import { ERR } from '@floorhand/contract/errors';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { ApiError } from '../../../lib/api.ts';
import { useConnection } from '../../../lib/offline/connection.ts';
import { replayOutbox, useOutbox } from '../../../lib/offline/outbox.ts';
import { getLocation } from '../api/get-location.ts';
import { waitingChange } from '../utils/waiting-change.ts';

/** What Stock Adjust checks before it asks to confirm a change: the record is free, a move's destination takes stock. */
export function useChangeGuards() {
  const { t } = useTranslation();
  /**
   * Whether the record may be changed now: not while a change of it waits in the outbox (its revision
   * moves on when that one is sent). Online, the outbox is given a try first.
   */
  const mayChange = async (stockId: string): Promise<boolean> => {
    if (!waitingChange(useOutbox.getState().items, stockId)) return true;
    if (useConnection.getState().state === 'online') await replayOutbox();
    const first = waitingChange(useOutbox.getState().items, stockId);
    if (!first) return true;
    await dialogs.info({
      type: 'warn',
      title: t('Wait until the first change is sent'),
      message: t('{{label}} is waiting to be sent. Wait until it is sent before changing {{stockId}} again.', {
        label: first.label,
        stockId,
      }),
    });
    return false;
  };

  /**
   * Whether the destination exists and takes stock; says why not before anything is confirmed. When
   * the server cannot be reached, the code is taken as scanned: the server judges it when the queued
   * move reaches it (a refusal shows in the outbox with its reason).
   */
  const destinationUsable = async (warehouse: string, code: string): Promise<boolean> => {
    if (useConnection.getState().state !== 'online') return true;
    try {
      const { location } = await getLocation(warehouse, code);
      if (location && !location.active) {
        await dialogs.info({
          type: 'warn',
          title: t('Move stock'),
          message: t("Location '{{code}}' in warehouse '{{warehouse}}' is inactive: it cannot receive stock.", { code, warehouse }),
        });
        return false;
      }
      return true;
    } catch (e) {
      if (e instanceof ApiError && isUnreachable(e.status)) return true;
      if (e instanceof ApiError && e.err.code === ERR.notFound) {
        await dialogs.info({
          type: 'warn',
          title: t('Move stock'),
          message: t("There is no location '{{code}}' in warehouse '{{warehouse}}'. Check the label and scan it again.", {
            code,
            warehouse,
          }),
        });
      }
      return false;
    }
  };

  return { mayChange, destinationUsable };
}
