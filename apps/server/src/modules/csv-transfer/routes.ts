import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CallPath } from '@floorhand/contract/api';
import { CSV_ENTITIES, IMPORT_MAX_BYTES, type CsvEntity } from '@floorhand/contract/csv-transfer';
import { authenticate, bearerToken, type AuthContext } from '../../lib/auth-context.ts';
import { enforceRights, registerCall, type Deps } from '../../lib/calls.ts';
import { importCsv, importCsvInChunks, type ChunkPlanner, type Planner } from '../../lib/csv-import.ts';
import { unauthorized } from '../../lib/errors.ts';
import { OFF_THREAD_BYTES, parseJsonOffThread } from '../../lib/json-off-thread.ts';
import { planItems } from '../items/csv-plan.ts';
import { planLocations, planWarehouses } from '../locations/csv-plan.ts';
import { planOrders } from '../orders/csv-plan.ts';
import { planStock } from '../stock/csv-plan.ts';
import { exportCsv } from './csv-export.ts';
import { blindPlaces } from '../../lib/blind-places.ts';

// CSV import and export of every inventory entity. An import needs what saving its kind of record
// one by one needs, and is checked and written by that entity's plan, which its own module holds.

/**
 * The call whose rights an import or export of each kind of record needs, and its import plan: of the
 * whole file at once (`plan`), or a chunk at a time in bounded memory (`chunks`: locations, whose files
 * run to a million rows).
 */
const ENTITIES = new Map<
  CsvEntity,
  { saveCall: CallPath; plan: Planner; chunks?: never } | { saveCall: CallPath; chunks: ChunkPlanner; plan?: never }
>([
  ['warehouses', { saveCall: 'warehouse/save', plan: planWarehouses }],
  ['locations', { saveCall: 'location/save', chunks: planLocations }],
  ['items', { saveCall: 'item/save', plan: planItems }],
  ['stock', { saveCall: 'stock/receive', plan: planStock }],
  ['orders', { saveCall: 'order/save', plan: planOrders }],
]);

async function sendCsv(reply: FastifyReply, deps: Deps, auth: AuthContext, entity: CsvEntity, warehouse?: string) {
  const blind = entity === 'stock' ? await blindPlaces(deps.db, auth) : undefined;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${entity}.csv"`)
    .header('cache-control', 'no-store')
    .send(exportCsv(deps.db, auth.orgId, entity, warehouse, blind));
}

export function csvTransferRoutes(app: FastifyInstance, deps: Deps): void {
  // Encapsulated, so the 64 MB body limit applies to the import only (the app's is 1 MB), and so
  // does the JSON parser that parses a large file's body in a worker thread (lib/json-off-thread.ts).
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = IMPORT_MAX_BYTES + 64 * 1024;
    });
    const parseSmall = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
      if (body.length < OFF_THREAD_BYTES) return parseSmall(req, body.toString('utf8'), done);
      parseJsonOffThread(body).then(
        (value) => done(null, value),
        (error: Error) => done(error, undefined),
      );
    });
    registerCall(scope, deps, 'import/csv', async ({ auth, body }) => {
      const entity = ENTITIES.get(body.entity)!;
      await enforceRights(deps, entity.saveCall, auth);
      return entity.chunks ? importCsvInChunks(deps, auth, body, entity.chunks) : importCsv(deps, auth, body, entity.plan);
    });
  });

  // The export answers text/csv, streamed; the contract's response schema only covers errors.
  registerCall(
    app,
    deps,
    'export/csv',
    async ({ auth, body, reply }) => (await sendCsv(reply, deps, auth, body.entity, body.warehouse)) as never,
  );
  // The same as a GET, for downloads and integrations: the bearer token names the organisation.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/export/csv',
    {
      schema: {
        tags: ['export'],
        summary: 'CSV export (text/csv) of warehouses, locations, items, on-hand stock or orders (one row per line)',
        querystring: z.object({ entity: z.enum(CSV_ENTITIES), warehouse: z.string().min(1).max(40).optional() }),
        security: [{ bearer: [] }],
      },
    },
    async (req, reply) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) throw unauthorized('Please log in first');
      const auth = await authenticate(deps.db, deps.tokens, token);
      await enforceRights(deps, 'export/csv', auth);
      return sendCsv(reply, deps, auth, req.query.entity, req.query.warehouse);
    },
  );
}
