import { hash } from '@node-rs/argon2';
import type { Db } from '../../db/client.ts';
import { badgePins, punches } from '../../db/schema.ts';
import { auditStamp } from '../../lib/audit.ts';

/** The demo clerk's badge PIN (badge B-CLERK), for typing a badge at the clock or the kiosk. */
export const DEMO_PIN = '1234';

/**
 * A little of the time clock for `npm start`: the clerk has a PIN and yesterday's shift, whose in was
 * corrected by the timekeeper (the original stays beside the correction).
 */
export async function seedTimeclockDemo(db: Db, orgId: string, siteId: string, ids: ReadonlyMap<string, string>): Promise<void> {
  const clerk = ids.get('clerk');
  const timekeeper = ids.get('tcadmin');
  if (!clerk || !timekeeper) return;
  await db.insert(badgePins).values({ accountId: clerk, orgId, pinHash: await hash(DEMO_PIN), audit: auditStamp('system') });
  const day = new Date();
  day.setUTCDate(day.getUTCDate() - 1);
  const at = (h: number, m: number) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), h, m)).toISOString();
  const stamp = auditStamp('system');
  const base = { orgId, siteId, accountId: clerk, deviceId: 'WS0001', audit: stamp } as const;
  await db.insert(punches).values([
    { ...base, id: 'demo-punch-in', kind: 'in', at: at(7, 58), serverTs: at(7, 58), clientTs: at(7, 58), source: 'clock', status: 'valid' },
    {
      ...base,
      id: 'demo-punch-out',
      kind: 'out',
      at: at(16, 31),
      serverTs: at(16, 31),
      clientTs: at(16, 31),
      source: 'clock',
      status: 'valid',
    },
  ]);
  await db.insert(punches).values({
    ...base,
    id: 'demo-punch-fix',
    kind: 'in',
    at: at(7, 30),
    source: 'correction',
    status: 'valid',
    replacesId: 'demo-punch-in',
    reason: 'Started at the loading dock',
    approvedBy: timekeeper,
  });
}
