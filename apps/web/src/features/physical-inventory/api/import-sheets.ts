import { call } from '../../../lib/api.ts';

/** Count sheets from a CSV file; a refused file's report is the screen's to show (no dialog). */
export const importSheets = (csv: string) =>
  call('counts/sheet/import', { csv, idempotencyKey: crypto.randomUUID() }, { suppress: /^ERR_BAD_INPUT$/ });
