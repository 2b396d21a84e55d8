import type { FastifyInstance } from 'fastify';
import { translatorOf } from '../../lib/language.ts';
import { registerCall, type Deps } from '../../lib/calls.ts';
import {
  listAgents,
  listJobs,
  listTemplates,
  previewTemplate,
  printCall,
  renderLabel,
  printRestOfJob,
  reprintJob,
  saveTemplate,
  scheduleJobExpiry,
} from './service.ts';
import { createAgent, registerAgentOps, revokeAgent } from './agents.ts';

// Rights of every call are declared in the contract (contract/rights.ts) and checked by registerCall;
// the print agents' socket operations are registered here too.
export function labelRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'label/template/list', ({ auth, body }) => listTemplates(deps, auth, body));
  registerCall(app, deps, 'label/template/save', ({ auth, body }) => saveTemplate(deps, auth, body));
  registerCall(app, deps, 'label/preview', ({ auth, body, req }) => previewTemplate(deps, auth, body, translatorOf(req)));
  registerCall(app, deps, 'label/render', ({ auth, body, req }) => renderLabel(deps, auth, body, translatorOf(req)));
  registerCall(app, deps, 'label/print', ({ auth, body, req }) => printCall(deps, auth, body, translatorOf(req)));
  registerCall(app, deps, 'label/job/list', ({ auth, body }) => listJobs(deps, auth, body));
  registerCall(app, deps, 'label/job/reprint', ({ auth, body }) => reprintJob(deps, auth, body));
  registerCall(app, deps, 'label/job/printRest', ({ auth, body }) => printRestOfJob(deps, auth, body));
  registerCall(app, deps, 'label/agent/list', ({ auth }) => listAgents(deps, auth));
  registerCall(app, deps, 'label/agent/create', ({ auth, body }) => createAgent(deps, auth, body));
  registerCall(app, deps, 'label/agent/revoke', ({ auth, body }) => revokeAgent(deps, auth, body));
  const stopAgentSweep = registerAgentOps(deps, app.log);
  app.addHook('onClose', async () => stopAgentSweep());
  // Jobs whose agent never took them or never came back fail as expired by this timer, not only when
  // a job list is read (label/job/list still sweeps its own site first).
  const stopExpiry = scheduleJobExpiry(deps, (e) => app.log.warn({ err: e }, 'label job expiry sweep failed'));
  app.addHook('onClose', async () => stopExpiry());
}
