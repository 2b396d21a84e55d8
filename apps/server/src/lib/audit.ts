import { randomUUID } from 'node:crypto';
import type { AuditStamp } from '../db/schema.ts';

export const newId = (): string => randomUUID();

/** A fresh audit stamp, or an existing one with its modify part renewed. Set by the server only. */
export function auditStamp(user: string, previous?: AuditStamp | null, now = new Date()): AuditStamp {
  const ts = now.toISOString();
  return { create: previous?.create ?? { user, ts }, modify: { user, ts } };
}
