import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CSV_ENTITIES, IMPORT_MAX_BYTES, type CsvEntity } from '@floorhand/contract/csv-transfer';
import { authenticate, bearerToken } from '../../lib/auth-context.ts';
import { enforceRights, registerCall, type Deps } from '../../lib/calls.ts';
import { unauthorized } from '../../lib/errors.ts';
import type { CallPath } from '@floorhand/contract/api';
import { exportCsv } from './csv-export.ts';
import { importCsv } from './csv-import.ts';
import { adjustStock, moveStock, receiveStock, splitStock } from './service.ts';
import { getStock, lookupStock } from './lookup.ts';

// Every inventory call needs a login; who may make it, and the feature access of a write's action,
// is declared in the contract (contract/rights.ts) and checked by registerCall. An import needs what
// saving its kind of record one by one needs.

/** The call whose rights an import or export of each kind of record needs. */
const SAVE_CALL = new Map<CsvEntity, CallPath>([
  ['warehouses', 'warehouse/save'],
  ['locations', 'location/save'],
  ['items', 'item/save'],
  ['stock', 'stock/receive'],
]);

function sendCsv(reply: FastifyReply, deps: Deps, orgId: string, entity: CsvEntity, warehouse?: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${entity}.csv"`)
    .header('cache-control', 'no-store')
    .send(exportCsv(deps.db, orgId, entity, warehouse));
}

export function stockRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'stock/lookup', ({ auth, body }) => lookupStock(deps.db, auth, body));
  registerCall(app, deps, 'stock/get', ({ auth, body }) => getStock(deps.db, auth, body));
  registerCall(app, deps, 'stock/receive', ({ auth, body }) => receiveStock(deps, auth, body));
  registerCall(app, deps, 'stock/adjust', ({ auth, body }) => adjustStock(deps, auth, body));
  registerCall(app, deps, 'stock/move', ({ auth, body }) => moveStock(deps, auth, body));
  registerCall(app, deps, 'stock/split', ({ auth, body }) => splitStock(deps, auth, body));

  // Encapsulated, so the 64 MB body limit applies to the import only (the app's is 1 MB).
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = IMPORT_MAX_BYTES + 64 * 1024;
    });
    registerCall(scope, deps, 'import/csv', async ({ auth, body }) => {
      await enforceRights(deps, SAVE_CALL.get(body.entity)!, auth);
      return importCsv(deps, auth, body);
    });
  });

  // The export answers text/csv, streamed; the contract's response schema only covers errors.
  registerCall(app, deps, 'export/csv', async ({ auth, body, reply }) => sendCsv(reply, deps, auth.orgId, body.entity, body.warehouse) as never);
  // The same as a GET, for downloads and integrations: the bearer token names the organisation.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/export/csv',
    {
      schema: {
        tags: ['export'],
        summary: 'CSV export (text/csv) of warehouses, locations, items or on-hand stock',
        querystring: z.object({ entity: z.enum(CSV_ENTITIES), warehouse: z.string().min(1).max(40).optional() }),
        security: [{ bearer: [] }],
      },
    },
    async (req, reply) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) throw unauthorized('Please log in first');
      const auth = await authenticate(deps.db, deps.tokens, token);
      await enforceRights(deps, 'export/csv', auth);
      return sendCsv(reply, deps, auth.orgId, req.query.entity, req.query.warehouse);
    },
  );
}
