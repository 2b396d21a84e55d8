import type { CallArgs } from '@floorhand/contract/api';
import { callFile } from '../../../lib/api.ts';
import { saveFile } from '../../../lib/save-file.ts';

/** Downloads the labor entries of a period as CSV (labor/export answers text/csv); a refusal has shown its dialog and is thrown. */
export async function downloadLaborCsv(args: CallArgs<'labor/export'>): Promise<void> {
  saveFile(await callFile('labor/export', args), `labor-${args.from}-${args.to}.csv`);
}
