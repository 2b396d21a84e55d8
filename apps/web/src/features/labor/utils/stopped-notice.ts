import type { TFunction } from 'i18next';
import type { LaborEntry, LaborSettings } from '@floorhand/contract/labor';
import { showHours } from './hours.ts';
import { showTimestamp } from '../../../lib/inventory-format.ts';

/**
 * The notice of a stop (or of the stop a start made): the hours booked, and, for entries the server
 * ended at the worker's punch-out (labor counts only while clocked in), when and why, in orange.
 */
export function stoppedNotice(
  t: TFunction,
  stopped: readonly LaborEntry[],
  settings: LaborSettings | undefined,
  started?: string,
): { color: string; message: string } | null {
  const done = stopped[0];
  const atOut = stopped.filter((e) => e.endedAtPunchOut);
  if (atOut.length > 0) {
    const at = showTimestamp(atOut[0]!.stoppedAt ?? '');
    // No title: a notice's text under a title is grey, too faint on a handheld (axe: contrast).
    return {
      color: 'orange',
      message: t(
        'Ended at your punch-out: {{codes}} stopped at {{at}}, when you punched out. Labor counts only while you are clocked in.',
        { codes: atOut.map((e) => e.taskCode).join(', '), at },
      ),
    };
  }
  if (started)
    return {
      color: 'green',
      message: done
        ? t('{{stopped}} stopped, {{code}} started', { stopped: done.taskCode, code: started })
        : t('{{code}} started', { code: started }),
    };
  if (!done || !settings) return null;
  return {
    color: 'green',
    message: t('{{code}} stopped: {{hours}} h booked', {
      code: done.taskCode,
      hours: showHours(done.roundedSeconds, settings.displayScale),
    }),
  };
}
