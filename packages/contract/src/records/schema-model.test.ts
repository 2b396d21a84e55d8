import { describe, expect, it } from 'vitest';
import { ENTRY_METHOD, entityDefSchema, entryMethodFieldName, fieldDefSchema, type EntityDef } from './schema-model.ts';
import { siteDataEntity } from './validate.ts';

const part: EntityDef = {
  type: 'part',
  title: 'Part',
  idFieldName: '_id',
  displayIdFieldName: 'partNumber',
  calcScript: 'record.total = record.qty * record.price',
  fields: [
    { name: 'partNumber', label: 'Part Number', dataType: 'string', conditions: { required: true, max: 35, regex: 'generalId' } },
    { name: 'qty', label: 'Qty', dataType: 'numeric', entryMethod: true, conditions: { min: 0, custom: 'return value % 1 === 0' } },
    { name: 'received', label: 'Received', dataType: 'date', conditions: { min: '2000-01-01' } },
    {
      name: 'tags',
      label: 'Tags',
      dataType: 'array',
      items: { name: 'tag', label: 'Tag', dataType: 'string', conditions: { valid: ['a', 'b'] } },
    },
  ],
};

describe('entityDefSchema', () => {
  it('accepts a full schema stored as JSON and the site data schema', () => {
    expect(entityDefSchema.parse(JSON.parse(JSON.stringify(part)))).toEqual(part);
    expect(entityDefSchema.safeParse(siteDataEntity).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ['duplicate field names', { ...part, fields: [part.fields[0], part.fields[0]] }],
    ['an unknown data type', { ...part, fields: [{ name: 'a', label: 'A', dataType: 'object_id' }] }],
    ['an invalid regular expression', { ...part, fields: [{ name: 'a', label: 'A', dataType: 'string', conditions: { regex: '(' } }] }],
    ['a text min on a numeric field', { ...part, fields: [{ name: 'a', label: 'A', dataType: 'numeric', conditions: { min: '1' } }] }],
    [
      'a date bound outside the date pattern',
      { ...part, fields: [{ name: 'a', label: 'A', dataType: 'date', conditions: { max: '1899-12-31' } }] },
    ],
    ['a bound on a boolean', { ...part, fields: [{ name: 'a', label: 'A', dataType: 'boolean', conditions: { min: 0 } }] }],
    [
      'an infinite bound',
      { ...part, fields: [{ name: 'a', label: 'A', dataType: 'numeric', conditions: { max: Number.POSITIVE_INFINITY } }] },
    ],
    ['a tmp$ field name', { ...part, fields: [{ name: 'tmp$x', label: 'X', dataType: 'string' }] }],
    [
      'a bad nested item',
      { ...part, fields: [{ name: 'a', label: 'A', dataType: 'array', items: { name: 'i', label: 'I', dataType: 'nope' } }] },
    ],
    ['a missing title', { ...part, title: undefined }],
  ])('rejects %s', (_name, schema) => expect(entityDefSchema.safeParse(schema).success).toBe(false));

  it('checks field definitions on their own too', () => {
    expect(fieldDefSchema.safeParse({ name: 'a', label: 'A', dataType: 'time', conditions: { min: '01:00:00' } }).success).toBe(true);
  });
});

describe('entry method', () => {
  it('has the spec values and the _em companion name', () => {
    expect(ENTRY_METHOD).toEqual({ manual: 1, calculated: 2, sensor: 4 });
    expect(entryMethodFieldName('qty')).toBe('qty_em');
  });
});
