import { call } from '../../../lib/api.ts';

/** A task by code; an unknown code answers null (no error dialog: the screen says it). */
export const getTask = (taskCode: string) => call('task/get', { taskCode }, { suppress: /^ERR_NOT_FOUND$/ });
