import { callFile } from '../../../lib/api.ts';
import { saveFile } from '../../../lib/save-file.ts';

/** The printable count sheet (PDF), saved as a file. */
export async function downloadSheetPdf(sheetId: string, code: string): Promise<void> {
  saveFile(await callFile('counts/sheet/pdf', { sheetId }), `${code}.pdf`);
}
