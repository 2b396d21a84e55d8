import { call } from '../../../lib/api.ts';

/** This device asks for a one-time pairing code to show. */
export const startPairing = (workstationId: string) => call('workstation/pair/start', { workstationId });

/** Whether an administrator has entered the code: the secret once they have; not yet is a quiet 404 (asked again). */
export const claimPairing = (workstationId: string, code: string) =>
  call('workstation/pair/claim', { workstationId, code }, { suppress: /^ERR_NOT_FOUND$/ });
