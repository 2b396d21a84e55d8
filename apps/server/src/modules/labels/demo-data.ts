import type { Db } from '../../db/client.ts';
import { upsertAgent } from './repository.ts';
import { ensureDefaultTemplates } from './service.ts';

/**
 * Demo labels: the default templates, and the dock's print agent as last heard of (offline until
 * apps/print-agent/print-agent.example.json runs with the svc account's API key; docs/labels.md).
 */
export async function seedDemoLabels(db: Db, orgId: string, siteId: string, svcAccountId: string): Promise<void> {
  await ensureDefaultTemplates(db, orgId);
  await upsertAgent(db, orgId, siteId, {
    id: 'demo-dock',
    name: 'Dock printers (demo)',
    accountId: svcAccountId,
    connected: false,
    printers: [{ id: 'demo-dock/zt410', name: 'Zebra ZT410 at the dock', state: 'unknown' }],
  });
}
