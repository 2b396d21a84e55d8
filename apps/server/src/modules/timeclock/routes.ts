import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HEADERS } from '@floorhand/contract/constants';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { correct, exportPunches, listPunches, setPin } from './corrections.ts';
import { punch } from './service.ts';

/** The clock's offset from UTC in minutes (x-tz-offset, as getTimezoneOffset); 0 when absent or odd. */
function tzOffsetOf(req: FastifyRequest): number {
  const raw = Number(req.headers[HEADERS.tzOffset]);
  return Number.isInteger(raw) && Math.abs(raw) <= 14 * 60 ? raw : 0;
}

// Rights are declared in the contract (contract/rights.ts); the service checks the device and the roles.
export function timeclockRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'timeclock/punch', ({ auth, body, req }) => punch(deps, auth, body, { tzOffsetMinutes: tzOffsetOf(req) }));
  registerCall(app, deps, 'timeclock/setPin', ({ auth, body }) => setPin(deps, auth, body));
  registerCall(app, deps, 'timeclock/punches/list', ({ auth, body }) => listPunches(deps, auth, body));
  registerCall(app, deps, 'timeclock/correct', ({ auth, body }) => correct(deps, auth, body));
  registerCall(app, deps, 'timeclock/punches/export', ({ auth, body }) => exportPunches(deps, auth, body));
}
