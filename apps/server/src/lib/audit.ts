import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { auditLog, type AuditStamp } from '../db/schema.ts';

export const newId = (): string => randomUUID();

/** A fresh audit stamp, or an existing one with its modify part renewed. Set by the server only. */
export function auditStamp(user: string, previous?: AuditStamp | null, now = new Date()): AuditStamp {
  const ts = now.toISOString();
  return { create: previous?.create ?? { user, ts }, modify: { user, ts } };
}

/** One entry of the audit log (admin/audit/list): who did what to which entity, with before and after. */
export async function writeAuditLog(db: Db, entry: Omit<typeof auditLog.$inferInsert, 'id' | 'ts'>): Promise<void> {
  await db.insert(auditLog).values({ ...entry, id: newId() });
}
