import type { Db } from '../../db/client.ts';
import { insertOfflineAgent } from './repository.ts';
import { ensureDefaultTemplates } from './service.ts';

/**
 * Demo labels: the default templates, and the dock's print agent as last heard of (offline and not
 * paired: an admin adds the agent 'demo-dock' on Label Printers and runs
 * apps/print-agent/print-agent.example.json with the agent key shown; docs/labels.md).
 */
export async function seedDemoLabels(db: Db, orgId: string, siteId: string, svcAccountId: string): Promise<void> {
  await ensureDefaultTemplates(db, orgId);
  await insertOfflineAgent(db, orgId, siteId, {
    id: 'demo-dock',
    name: 'Dock printers (demo)',
    accountId: svcAccountId,
    printers: [{ id: 'demo-dock/zt410', name: 'Zebra ZT410 at the dock', state: 'unknown' }],
  });
}
