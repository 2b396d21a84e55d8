// Columns and helpers every area's tables share.
import { customType, jsonb, numeric } from 'drizzle-orm/pg-core';

// Audit stamps (spec section 3): create {user, ts} and modify {user, ts}.
export interface AuditStamp {
  create: { user: string; ts: string };
  modify: { user: string; ts: string };
}

export const audit = () => jsonb('audit').$type<AuditStamp>();

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Exact decimals of four places; 15 significant digits read back exactly into a JavaScript number. */
export const quantity = (name: string) => numeric(name, { precision: 15, scale: 4 });
