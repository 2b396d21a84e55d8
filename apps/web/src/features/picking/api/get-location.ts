import { call } from '../../../lib/api.ts';

/**
 * A location the picker scanned that holds none of the line's stock, read to say why (inactive or
 * unknown): its refusals raise no dialog, the screen says them itself.
 */
export const getLocation = (warehouse: string, code: string) =>
  call('location/get', { warehouse, code }, { suppress: /^(ERR_NOT_FOUND|ERR_BAD_INPUT)$/, quietUnreachable: true });
