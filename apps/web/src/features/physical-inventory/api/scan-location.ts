import { call } from '../../../lib/api.ts';

/** A location of the sheet scanned: marks it counted and answers its lines; an unreachable server raises no dialog (offline counting). */
export const scanLocation = (sheetId: string, location: string) =>
  call('counts/scanLocation', { sheetId, location }, { quietUnreachable: true });
