import type { CallArgs } from '@floorhand/contract/api';
import { call } from './api.ts';
import { saveFile } from './save-file.ts';

/**
 * The period's punches as CSV (the time clock's export: every record, corrections and what they
 * replace, flagged `edited`), saved as a file by the browser: the server's file name, else
 * `fallbackName`. Used by the punch corrections page and the labor reports.
 */
export async function downloadPunchesCsv(args: CallArgs<'timeclock/punches/export'>, fallbackName = 'punches.csv'): Promise<void> {
  const { csv, fileName } = await call('timeclock/punches/export', args);
  if (csv === undefined) return;
  saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName ?? fallbackName);
}

/**
 * Local calendar days `from` to `to` (YYYY-MM-DD, both included) as instants: from the first day's
 * midnight to the midnight after the last. Days are counted on the calendar, not as 24 hours, so a
 * daylight-saving day is still one day.
 */
export function localDayRange(args: { from: string; to: string }): { from: string; to: string } {
  const to = new Date(`${args.to}T00:00:00`);
  to.setDate(to.getDate() + 1);
  return { from: new Date(`${args.from}T00:00:00`).toISOString(), to: to.toISOString() };
}
