// Entity schema model (spec section 3, "Generic record base" and "Schema"). The TypeScript types are
// written out so they read as documentation; the zod schemas below check a schema stored as JSON.
import { z } from 'zod';
import { NAMED_PATTERNS, isNamedPattern } from './patterns.ts';
import { tk } from '../i18n.ts';

/**
 * 'object' is not in the spec's list of field data types; it exists for site data, whose `data`
 * property is a free-form object. media is an object with a non-empty string `mediaId`;
 * geo is an object with finite `lat` (-90..90) and `lng` (-180..180). The spec gives neither shape.
 */
export const DATA_TYPES = ['string', 'numeric', 'date', 'time', 'timestamp', 'boolean', 'media', 'geo', 'array', 'object'] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** Control fields of every record: always allowed and passed through unchanged. */
export const CONTROL_FIELDS = ['_id', '_rev', 'x$type', 'x$audit'] as const;
/** Temporary properties: always stripped, never reported. */
export const TEMP_PREFIX = 'tmp$';

export const ENTRY_METHOD = { manual: 1, calculated: 2, sensor: 4 } as const;
export type EntryMethod = (typeof ENTRY_METHOD)[keyof typeof ENTRY_METHOD];
export const ENTRY_METHOD_SUFFIX = '_em';

export function entryMethodFieldName(fieldName: string): string {
  return `${fieldName}${ENTRY_METHOD_SUFFIX}`;
}

export type ConditionValue = string | number | boolean;

export interface FieldConditions {
  required?: boolean;
  /** Characters (strings), value (numbers; date, time and timestamp as strings of their pattern), entries (lists). */
  min?: number | string;
  max?: number | string;
  /** A name of NAMED_PATTERNS or a regular expression source (no flags; not anchored unless written so). */
  regex?: string;
  email?: boolean;
  valid?: ConditionValue[];
  /** Check script source: receives `value` and `record`, returns a boolean. */
  custom?: string;
}

export interface FieldDef {
  name: string;
  label: string;
  dataType: DataType;
  conditions?: FieldConditions;
  /** Adds the companion integer field `<name>_em` holding an ENTRY_METHOD value. */
  entryMethod?: boolean;
  /** Definition each entry of an array field must satisfy. */
  items?: FieldDef;
}

export interface EntityDef {
  type: string;
  title: string;
  idFieldName: string;
  displayIdFieldName?: string;
  fields: FieldDef[];
  /** Calculation script source: receives `record`, returns the new record or mutates it. */
  calcScript?: string;
  allowUnknown?: boolean;
}

function isRegexCondition(source: string): boolean {
  if (isNamedPattern(source)) return true;
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const SIZE_TYPES: readonly DataType[] = ['string', 'numeric', 'array'];
const PATTERN_TYPES = ['date', 'time', 'timestamp'] as const;

function isPatternType(dataType: DataType): dataType is (typeof PATTERN_TYPES)[number] {
  return (PATTERN_TYPES as readonly DataType[]).includes(dataType);
}

export const fieldConditionsSchema = z.object({
  required: z.boolean().optional(),
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
  regex: z.string().refine(isRegexCondition, tk('must be a named pattern or a valid regular expression')).optional(),
  email: z.boolean().optional(),
  valid: z
    .array(z.union([z.string(), z.number(), z.boolean()]))
    .min(1)
    .optional(),
  custom: z.string().min(1).optional(),
});

export const fieldDefSchema: z.ZodType<FieldDef> = z
  .object({
    name: z
      .string()
      .min(1)
      .refine((name) => !name.startsWith(TEMP_PREFIX), tk(`must not start with '${TEMP_PREFIX}' (temporary properties are stripped)`)),
    label: z.string().min(1),
    dataType: z.enum(DATA_TYPES),
    conditions: fieldConditionsSchema.optional(),
    entryMethod: z.boolean().optional(),
    get items() {
      return fieldDefSchema.optional();
    },
  })
  .superRefine((field, ctx) => {
    // A bound of the wrong kind would be silently ignored by the engine, so reject it here.
    for (const bound of ['min', 'max'] as const) {
      const value = field.conditions?.[bound];
      if (value === undefined) continue;
      const fits = SIZE_TYPES.includes(field.dataType)
        ? typeof value === 'number'
        : isPatternType(field.dataType) && typeof value === 'string' && NAMED_PATTERNS[field.dataType].test(value);
      if (!fits)
        ctx.addIssue({
          code: 'custom',
          path: ['conditions', bound],
          message: tk(`is not a valid ${bound} for a ${field.dataType} field`),
        });
    }
  });

export const entityDefSchema: z.ZodType<EntityDef> = z
  .object({
    type: z.string().min(1),
    title: z.string().min(1),
    idFieldName: z.string().min(1),
    displayIdFieldName: z.string().min(1).optional(),
    fields: z.array(fieldDefSchema),
    calcScript: z.string().min(1).optional(),
    allowUnknown: z.boolean().optional(),
  })
  .refine((entity) => new Set(entity.fields.map((field) => field.name)).size === entity.fields.length, {
    message: tk('field names must be unique'),
    path: ['fields'],
  });
