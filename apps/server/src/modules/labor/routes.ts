import type { FastifyInstance } from 'fastify';
import { TASK_IMPORT_MAX_BYTES } from '@floorhand/contract/labor';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { importTasks } from './csv-plan.ts';
import { laborCsv, laborReport } from './reports.ts';
import { currentLabor, getTask, listTasks, startLabor, stopLabor, upsertTask } from './service.ts';

// Task labor: tasks, labor entries, reports. Rights are the contract's (contract/rights.ts); the
// services check what depends on the body (the mode's feature) or on roles (the reports).
export function laborRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'task/list', ({ auth, body }) => listTasks(deps.db, auth, body));
  registerCall(app, deps, 'task/get', ({ auth, body }) => getTask(deps.db, auth, body));
  registerCall(app, deps, 'task/upsert', ({ auth, body }) => upsertTask(deps, auth, body));
  // Encapsulated, so the larger body limit applies to the import only.
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = TASK_IMPORT_MAX_BYTES + 64 * 1024;
    });
    registerCall(scope, deps, 'task/import', ({ auth, body }) => importTasks(deps, auth, body));
  });
  registerCall(app, deps, 'labor/current', ({ auth }) => currentLabor(deps, auth));
  registerCall(app, deps, 'labor/start', ({ auth, body }) => startLabor(deps, auth, body));
  registerCall(app, deps, 'labor/stop', ({ auth, body }) => stopLabor(deps, auth, body));
  registerCall(app, deps, 'labor/report', ({ auth, body }) => laborReport(deps, auth, body));
  // Answers text/csv; the contract's response schema only covers errors.
  registerCall(app, deps, 'labor/export', async ({ auth, body, reply }) => {
    const csv = await laborCsv(deps, auth, body);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="labor-${body.from}-${body.to}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv) as never;
  });
}
