import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';

/**
 * A bare label scan, sent only (never queued): the server counts it or says what it needs (a
 * quantity, or what found stock is). A bad-input answer is the screen's to say; an unreachable
 * server raises no dialog (the screen asks the quantity and queues that).
 */
export const recordCount = (args: CallArgs<'counts/record'>) =>
  call('counts/record', args, { suppress: /^ERR_BAD_INPUT$/, quietUnreachable: true });
