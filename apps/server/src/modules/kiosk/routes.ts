import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { currentKiosk, endKiosk, startKioskSession } from './service.ts';

// Rights are declared in the contract (contract/rights.ts); the service checks the device.
export function kioskRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'kiosk/start', ({ auth, body, reply }) => startKioskSession(deps, auth, body, reply));
  registerCall(app, deps, 'kiosk/end', ({ auth }) => endKiosk(deps, auth));
  registerCall(app, deps, 'kiosk/current', ({ auth }) => currentKiosk(deps, auth));
}
