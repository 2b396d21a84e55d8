import { call } from '../../../lib/api.ts';

/**
 * A move's destination as the server has it; an unknown one is a refusal the screen says itself (no
 * dialog), and an unreachable server raises none either (the move is queued).
 */
export const getLocation = (warehouse: string, code: string) =>
  call('location/get', { warehouse, code }, { suppress: /^ERR_NOT_FOUND$/, quietUnreachable: true });
