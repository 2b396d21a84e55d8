import { z } from 'zod';
import type { EntityDef } from './records/schema-model.ts';
import {
  activeField,
  callBase,
  code,
  controlFields,
  expectedRev,
  idempotencyKeySchema,
  page,
  recordInputSchema,
  SCAN_CODE_REGEX,
  scanCode,
  withErr,
} from './common.ts';
import { stockRecordSchema } from './stock.ts';
import { tk } from './i18n.ts';

// Warehouses and their locations (docs/inventory.md). Records a user types or imports are checked
// with the record layer's engine against the EntityDefs below, so forms, CSV rows and the API give
// the same messages.

export const LOCATION_TYPES = ['bin', 'shelf', 'rack', 'floor', 'dock', 'staging', 'quarantine'] as const;

export const warehouseEntity: EntityDef = {
  type: 'warehouse',
  title: 'Warehouse',
  idFieldName: 'code',
  displayIdFieldName: 'name',
  fields: [
    { name: 'code', label: tk('Code'), dataType: 'string', conditions: { required: true, max: 20, regex: 'generalId' } },
    { name: 'name', label: tk('Name'), dataType: 'string', conditions: { required: true, max: 100 } },
    activeField,
  ],
};

export const locationEntity: EntityDef = {
  type: 'location',
  title: 'Location',
  idFieldName: 'code',
  displayIdFieldName: 'description',
  fields: [
    { name: 'warehouse', label: tk('Warehouse'), dataType: 'string', conditions: { required: true, max: 20 } },
    { name: 'code', label: tk('Code'), dataType: 'string', conditions: { required: true, max: 40, regex: SCAN_CODE_REGEX } },
    { name: 'description', label: tk('Description'), dataType: 'string', conditions: { max: 200 } },
    { name: 'type', label: tk('Type'), dataType: 'string', conditions: { valid: [...LOCATION_TYPES] } },
    activeField,
  ],
};

export const warehouseSchema = z.object({ ...controlFields, code: z.string(), name: z.string(), active: z.boolean() });
export type Warehouse = z.infer<typeof warehouseSchema>;

/** What a location holds: records with a quantity above zero, their distinct items and total quantity. */
export const locationCountsSchema = z.object({ records: z.number().int(), items: z.number().int(), quantity: z.number() });
export const locationSchema = z.object({
  ...controlFields,
  warehouseId: z.string(),
  warehouse: z.string(),
  code: z.string(),
  description: z.string(),
  type: z.string(),
  active: z.boolean(),
  counts: locationCountsSchema.optional(),
});
export type Location = z.infer<typeof locationSchema>;

export const locationCalls = {
  'warehouse/list': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ active: z.boolean().optional() }),
    response: withErr({ warehouses: z.array(warehouseSchema).optional(), more: z.boolean().optional() }),
  },
  'warehouse/save': {
    locId: undefined,
    auth: 'required',
    /** `record` as warehouseEntity; without `_id` it is created, with `_id` and `_rev` updated. */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), record: recordInputSchema }),
    response: withErr({ warehouse: warehouseSchema.optional() }),
  },
  'location/list': {
    locId: undefined,
    auth: 'required',
    /** Ordered by warehouse and code; `search` matches the start of the code or any part of the description. */
    body: callBase.extend({
      warehouse: code.optional(),
      active: z.boolean().optional(),
      search: z.string().trim().max(100).optional(),
      ...page,
    }),
    response: withErr({ locations: z.array(locationSchema).optional(), more: z.boolean().optional() }),
  },
  'location/get': {
    locId: undefined,
    auth: 'required',
    /** The location with its stock (quantity above zero), up to 499 records by part number. */
    body: callBase.extend({ warehouse: code, code: scanCode.max(40) }),
    response: withErr({ location: locationSchema.optional(), stock: z.array(stockRecordSchema).optional(), more: z.boolean().optional() }),
  },
  'location/save': {
    locId: undefined,
    auth: 'required',
    /** `record` as locationEntity; without `_id` it is created, with `_id` and `_rev` updated (the warehouse cannot change). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), record: recordInputSchema }),
    response: withErr({ location: locationSchema.optional() }),
  },
  'location/deactivate': {
    locId: undefined,
    auth: 'required',
    /** Refused with 409 while the location holds stock. */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), warehouse: code, code: scanCode.max(40), _rev: expectedRev }),
    response: withErr({ location: locationSchema.optional() }),
  },
} as const;
