import { call } from '../../../lib/api.ts';

/** A sheet's counts as CSV text (answered in JSON with its file name). */
export const exportCounts = (sheetId: string) => call('counts/export', { sheetId });
