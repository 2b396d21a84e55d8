import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { deactivateLocation, getLocation, listLocations, listWarehouses, saveLocation, saveWarehouse } from './service.ts';

// Who may make each call, and the feature access of a write, is declared in the contract
// (contract/rights.ts) and checked by registerCall.
export function locationRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'warehouse/list', ({ auth, body }) => listWarehouses(deps.db, auth, body));
  registerCall(app, deps, 'warehouse/save', ({ auth, body }) => saveWarehouse(deps, auth, body));
  registerCall(app, deps, 'location/list', ({ auth, body }) => listLocations(deps.db, auth, body));
  registerCall(app, deps, 'location/get', ({ auth, body }) => getLocation(deps.db, auth, body));
  registerCall(app, deps, 'location/save', ({ auth, body }) => saveLocation(deps, auth, body));
  registerCall(app, deps, 'location/deactivate', ({ auth, body }) => deactivateLocation(deps, auth, body));
}
