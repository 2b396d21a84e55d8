import { z } from 'zod';
import type { ServerErr } from './errors.ts';
import { PACK_PICK_MAX_ROWS } from './constants.ts';
import { tk } from './i18n.ts';

/** The spec's server error (errors.ts) as a schema, for the answers' `err`. */
export const serverErrSchema: z.ZodType<ServerErr> = z.lazy(() =>
  z.object({
    code: z.string(),
    message: z.string(),
    msg: z.string().optional(),
    detail: z.string().optional(),
    locId: z.string().optional(),
    causedByErr: serverErrSchema.optional(),
  }),
);

// What every call of every area is built from: the body every call carries, the answer's `err`, the
// control fields of a stored record, ids and idempotency keys. The area files (stock.ts,
// locations.ts, items.ts, …) import this file and api.ts assembles their calls; nothing here
// imports an area, so the contract has no import cycle.

export const idSchema = z.string().min(1).max(100);

/** Every body carries locId, siteId, appId and orgId. Identity and rights come from the token only. */
export const callBase = z.object({
  locId: z.string().max(40).optional(),
  /** Empty before the site is resolved. */
  siteId: z.string().max(100),
  appId: idSchema,
  orgId: idSchema,
});

/** A response: the call's fields, or `err` when it was refused. */
export const withErr = <T extends z.ZodRawShape>(shape: T) => z.object({ err: serverErrSchema.optional(), ...shape });

export const auditStampSchema = z.object({
  create: z.object({ user: z.string(), ts: z.string() }),
  modify: z.object({ user: z.string(), ts: z.string() }),
});
/** The control fields of a stored record as answered, all set by the server. */
export const controlFields = { _id: z.string(), _rev: z.number().int(), x$audit: auditStampSchema };

/** Scanned codes (part numbers, stock ids, location codes, barcodes, lots, serials): printable ASCII, no spaces. */
export const SCAN_CODE_REGEX = '^[\\x21-\\x7E]+$';
export const scanCode = z.string().min(1).max(100).regex(new RegExp(SCAN_CODE_REGEX), 'must be printable characters without spaces');
/** A short code (warehouse, condition, department) as a filter or reference. */
export const code = z.string().min(1).max(40);
/** A client-made key (e.g. a UUID) that makes a retried write apply once; unique per organisation. */
export const idempotencyKeySchema = z
  .string()
  .min(8)
  .max(100)
  .regex(new RegExp(SCAN_CODE_REGEX), 'must be 8 to 100 printable characters without spaces');
/** The revision the client read; when given and stale, the change is refused with 409. */
export const expectedRev = z.number().int().min(1).optional();
/**
 * A record as sent or typed: the entity's fields, `_id` and `_rev` to update; x$type, x$audit and tmp$
 * properties are ignored. Checked by the record engine against the entity's EntityDef for the spec's messages.
 */
export const recordInputSchema = z.record(z.string(), z.unknown());

/** Rows a lookup or list answers at most (spec: maxRows 499), with a "more rows" flag beyond. */
export const INVENTORY_MAX_ROWS = PACK_PICK_MAX_ROWS;
/** offset and limit of a paged list. */
export const page = {
  offset: z.number().int().min(0).max(1_000_000).default(0),
  limit: z.number().int().min(1).max(INVENTORY_MAX_ROWS).default(100),
};
/** The active flag of a master record as typed. */
export const activeField = { name: 'active', label: tk('Active'), dataType: 'boolean' } as const;
