import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAMED_PATTERNS } from './patterns.ts';
import { DATA_TYPES, type EntityDef, type FieldDef } from './schema-model.ts';
import { MESSAGES, validateField, validateRecord, type ValidateOptions, type ValidationErrors } from './validate.ts';

// Names chosen to collide with records' keys, control fields, companions and Object.prototype.
const NAMES = ['a', 'b', 'a_em', '_id', 'x$type', 'tmp$t', '__proto__', 'constructor', 'toString'];

const bound = fc.oneof(fc.integer({ min: -5, max: 10 }), fc.double(), fc.constantFrom('2000-01-01', '12:00:00', '2000-01-01 12:00:00', ''));
const conditions = fc.record(
  {
    required: fc.boolean(),
    min: bound,
    max: bound,
    regex: fc.constantFrom(...Object.keys(NAMED_PATTERNS), '^[a-z]+$', '\\d', '(', '[', 'a{2,1}'),
    email: fc.boolean(),
    valid: fc.array(fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxLength: 4 }),
  },
  { requiredKeys: [] },
);
const leafField = fc.record(
  {
    name: fc.constantFrom(...NAMES),
    label: fc.string({ maxLength: 8 }),
    dataType: fc.constantFrom(...DATA_TYPES),
    conditions,
    entryMethod: fc.boolean(),
  },
  { requiredKeys: ['name', 'label', 'dataType'] },
);
const fieldDef: fc.Arbitrary<FieldDef> = fc
  .tuple(leafField, fc.option(leafField, { nil: undefined }))
  .map(([def, items]) => (items && def.dataType === 'array' ? { ...def, items } : def));
const entity: fc.Arbitrary<EntityDef> = fc.record(
  {
    type: fc.constant('t'),
    title: fc.string(),
    idFieldName: fc.constant('_id'),
    fields: fc.array(fieldDef, { maxLength: 5 }),
    allowUnknown: fc.boolean(),
  },
  { requiredKeys: ['type', 'title', 'idFieldName', 'fields'] },
);
const options: fc.Arbitrary<ValidateOptions> = fc.record(
  {
    convert: fc.boolean(),
    stripUnknown: fc.boolean(),
    rejectUnknown: fc.boolean(),
    allowUnknown: fc.boolean(),
    enforceRequired: fc.boolean(),
  },
  { requiredKeys: [] },
);
// Values that exercise conversion next to arbitrary JSON.
const interesting = fc.constantFrom(
  '',
  ' ',
  '12',
  ' 1e3 ',
  '1e400',
  'true',
  '0',
  '2024-02-29',
  ' 24:00:00 ',
  '2024-01-01 01:00:00',
  '#fff',
  'a@b.co',
  1,
  0,
  -0,
  2,
  4,
  null,
  [],
  {},
  { mediaId: 'm' },
  { lat: 1, lng: 2 },
);
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), interesting);
const objectRecord = fc.dictionary(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 4 })), value, { maxKeys: 8 });
const anyRecord = fc.oneof(fc.jsonValue(), objectRecord);

function withoutUnknownFieldErrors(errors: ValidationErrors): ValidationErrors {
  const rest = (errors._record ?? []).filter((message) => !message.startsWith(MESSAGES.unknownField('').split("'")[0]!));
  const { _record: _ignored, ...fields } = errors;
  return rest.length > 0 ? { ...fields, _record: rest } : fields;
}

describe('validateRecord properties', () => {
  it('never throws on any JSON record, schema or options', () => {
    fc.assert(
      fc.property(entity, anyRecord, options, (def, record, opts) => {
        const result = validateRecord(def, record, opts);
        expect(result.ok).toBe(Object.keys(result.errors).length === 0);
        for (const messages of Object.values(result.errors)) expect(messages.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on deeply nested records', () => {
    let nested: unknown = 'leaf';
    for (let depth = 0; depth < 100_000; depth++) nested = depth % 2 ? [nested] : { n: nested };
    const def: EntityDef = {
      type: 't',
      title: 'T',
      idFieldName: '_id',
      fields: [{ name: 'n', label: 'N', dataType: 'array', items: { name: 'i', label: 'I', dataType: 'object' } }],
    };
    expect(() => validateRecord(def, nested)).not.toThrow();
    expect(() => validateRecord(def, { n: [nested] })).not.toThrow();
  });

  it('is idempotent: validating the converted value gives the same value and errors', () => {
    fc.assert(
      fc.property(entity, objectRecord, options, (def, record, opts) => {
        const first = validateRecord(def, record, opts);
        const second = validateRecord(def, first.value, opts);
        expect(second.value).toEqual(first.value);
        // Unknown fields are the one thing the first pass may remove (stripped), resolving their errors.
        const stripped = opts.stripUnknown !== false && !(def.allowUnknown || opts.allowUnknown);
        expect(second.errors).toEqual(stripped ? withoutUnknownFieldErrors(first.errors) : first.errors);
        expect(validateRecord(def, second.value, opts)).toEqual(second);
      }),
      { numRuns: 2000 },
    );
  });

  it('validateField never throws and is idempotent too', () => {
    fc.assert(
      fc.property(fieldDef, value, fc.boolean(), (def, input, convert) => {
        const first = validateField(def, input, { convert });
        expect(validateField(def, first.value, { convert })).toEqual(first);
      }),
      { numRuns: 2000 },
    );
  });
});
