import { z } from 'zod';
import type { EntityDef } from './records/schema-model.ts';
import {
  activeField,
  callBase,
  code,
  controlFields,
  idempotencyKeySchema,
  page,
  recordInputSchema,
  SCAN_CODE_REGEX,
  scanCode,
  withErr,
} from './common.ts';
import { tk } from './i18n.ts';

// Items (docs/inventory.md): what is stocked, its unit, tracking and barcodes. Records a user types or
// imports are checked with the record layer's engine against itemEntity, so forms, CSV rows and the
// API give the same messages.

export const TRACKING = ['none', 'lot', 'serial'] as const;
export type Tracking = (typeof TRACKING)[number];

export const itemEntity: EntityDef = {
  type: 'item',
  title: 'Item',
  idFieldName: 'partNumber',
  displayIdFieldName: 'description',
  fields: [
    { name: 'partNumber', label: tk('Part Number'), dataType: 'string', conditions: { required: true, max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'description', label: tk('Description'), dataType: 'string', conditions: { required: true, max: 200 } },
    { name: 'uom', label: tk('Unit of Measure'), dataType: 'string', conditions: { max: 10 } },
    { name: 'department', label: tk('Department'), dataType: 'string', conditions: { max: 20 } },
    { name: 'tracking', label: tk('Tracking'), dataType: 'string', conditions: { valid: [...TRACKING] } },
    {
      name: 'barcodes',
      label: tk('Barcodes'),
      dataType: 'array',
      conditions: { max: 20 },
      items: {
        name: 'barcode',
        label: tk('Barcode'),
        dataType: 'string',
        conditions: { required: true, max: 100, regex: SCAN_CODE_REGEX },
      },
    },
    activeField,
  ],
};

export const itemSchema = z.object({
  ...controlFields,
  partNumber: z.string(),
  description: z.string(),
  uom: z.string(),
  department: z.string().nullable(),
  tracking: z.enum(TRACKING),
  barcodes: z.array(z.string()),
  active: z.boolean(),
});
export type Item = z.infer<typeof itemSchema>;

export const itemCalls = {
  'item/list': {
    locId: undefined,
    auth: 'required',
    /** Ordered by part number; `search` matches the start of the part number or any part of the description. */
    body: callBase.extend({
      search: z.string().trim().max(100).optional(),
      department: code.optional(),
      active: z.boolean().optional(),
      ...page,
    }),
    response: withErr({ items: z.array(itemSchema).optional(), more: z.boolean().optional() }),
  },
  'item/get': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ partNumber: scanCode.max(60) }),
    response: withErr({
      item: itemSchema.optional(),
      /** On-hand quantity per warehouse. */
      stock: z.array(z.object({ warehouse: z.string(), records: z.number().int(), quantity: z.number() })).optional(),
    }),
  },
  'item/save': {
    locId: undefined,
    auth: 'required',
    /** `record` as itemEntity; barcodes replace the item's aliases. Tracking cannot change while the item has stock. */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), record: recordInputSchema }),
    response: withErr({ item: itemSchema.optional() }),
  },
} as const;
