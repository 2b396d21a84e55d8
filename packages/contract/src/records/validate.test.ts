import { describe, expect, it } from 'vitest';
import { GENERAL_ID_MESSAGE, NAMED_PATTERNS } from './patterns.ts';
import { compileCatalogue, translateText } from '../i18n.ts';
import type { EntityDef, FieldConditions, FieldDef } from './schema-model.ts';
import {
  MESSAGES,
  siteDataEntity,
  validateField,
  validateRecord,
  validateRecordAsync,
  type AsyncScriptRunner,
  type ScriptRunner,
  type ValidateOptions,
} from './validate.ts';

const ABSENT = Symbol('absent');

function entityOf(...fields: FieldDef[]): EntityDef {
  return { type: 'part', title: 'Part', idFieldName: '_id', fields };
}

function field(dataType: FieldDef['dataType'], conditions?: FieldConditions, label = 'X'): FieldDef {
  return conditions ? { name: 'f', label, dataType, conditions } : { name: 'f', label, dataType };
}

/** Validates one value in field 'f' and returns its errors and converted value. */
function one(def: FieldDef, value: unknown, options?: ValidateOptions) {
  const result = validateRecord(entityOf(def), value === ABSENT ? {} : { f: value }, options);
  return { errors: result.errors.f ?? [], value: result.value.f, result };
}

const long = 'x'.repeat(100_000);

describe('MESSAGES', () => {
  it.each([
    [MESSAGES.string('Part Number'), "'Part Number' must be a string"],
    [MESSAGES.number('Qty'), "'Qty' must be a number"],
    [MESSAGES.boolean('Active'), "'Active' must be a boolean"],
    [MESSAGES.array('Tags'), "'Tags' contains data that is not a list"],
    [MESSAGES.date('Received'), "'Received' must match pattern 'YYYY-MM-DD'"],
    [MESSAGES.time('Start'), "'Start' must match pattern 'hh:mm:ss'"],
    [MESSAGES.timestamp('At'), "'At' must match pattern 'YYYY-MM-DD hh:mm:ss'"],
    [MESSAGES.minLength('X', 3), "'X' must be at least 3 characters"],
    [MESSAGES.minValue('X', 0), "'X' must be at least 0"],
    [MESSAGES.minEntries('X', 2), "'X' must have at least 2 entries"],
    [MESSAGES.maxLength('X', 35), "'X' exceeds max length of 35 characters"],
    [MESSAGES.maxValue('X', 10), "'X' exceeds max value of 10"],
    [MESSAGES.maxEntries('X', 2), "'X' cannot have more than 2 entries"],
    [MESSAGES.regex('X'), "'X' does not match regular expression"],
    [MESSAGES.email('X'), "'X' does not appear to be a valid email address"],
    [MESSAGES.valid('X', ['a', 1, true]), "'X' must be one of a, 1, true"],
    [MESSAGES.required('X'), "'X' must be provided"],
    [MESSAGES.unknownField('foo'), "Record contains unexpected data (name = 'foo')"],
    [MESSAGES.pattern('Data Id', NAMED_PATTERNS.generalId.field), `'Data Id' ${GENERAL_ID_MESSAGE}`],
    [MESSAGES.calcFailed('Part'), "Calulation script for 'Part' failed during execution"],
    [MESSAGES.customFailed('Qty'), "Validation for data field 'Qty' failed to pass"],
    [MESSAGES.customError('Qty', 'boom'), "Validation script for data field 'Qty' failed during execution: boom"],
    [MESSAGES.entryMethod('Qty'), "'Qty' entry method must be one of 1, 2, 4"],
  ])('%s', (actual, expected) => expect(actual).toBe(expected));
});

describe('MESSAGES in another language', () => {
  // Each message is English built from a key with numbered holes: the key is found again, its label too.
  const es = compileCatalogue({
    "'{{0}}' must be provided": "'{{0}}' es obligatorio",
    "'{{0}}' must be at least {{1}} characters": "'{{0}}' debe tener al menos {{1}} caracteres",
    "'{{0}}' must match pattern 'YYYY-MM-DD'": "'{{0}}' debe seguir el patrón 'AAAA-MM-DD'",
    Quantity: 'Cantidad',
  });
  it.each([
    [MESSAGES.required('Quantity'), "'Cantidad' es obligatorio"],
    [MESSAGES.minLength('Code', 3), "'Code' debe tener al menos 3 caracteres"],
    [MESSAGES.date('Received'), "'Received' debe seguir el patrón 'AAAA-MM-DD'"],
  ])('%s', (english, spanish) => expect(translateText(es, english)).toBe(spanish));
});

describe('type checks', () => {
  it.each<[string, FieldDef, unknown, string[], unknown?]>([
    ['string accepts text', field('string', {}, 'Part Number'), 'P-1', []],
    ['string accepts unicode', field('string'), 'Größe 🙂 日本', []],
    ['string accepts 100k characters', field('string'), long, []],
    ['string accepts an empty string', field('string'), '', []],
    ['string converts a finite number', field('string'), 12, [], '12'],
    ['string rejects a boolean', field('string', {}, 'Part Number'), true, ["'Part Number' must be a string"]],
    ['string rejects an object', field('string', {}, 'Part Number'), {}, ["'Part Number' must be a string"]],
    ['string rejects a list', field('string', {}, 'Part Number'), [], ["'Part Number' must be a string"]],
    ['numeric accepts 0', field('numeric', {}, 'Qty'), 0, []],
    ['numeric converts text', field('numeric', {}, 'Qty'), ' -1.5e3 ', [], -1500],
    ['numeric converts "12"', field('numeric', {}, 'Qty'), '12', [], 12],
    ['numeric turns blank text into null', field('numeric', {}, 'Qty'), '  ', [], null],
    ['numeric rejects NaN', field('numeric', {}, 'Qty'), Number.NaN, ["'Qty' must be a number"]],
    ['numeric rejects Infinity', field('numeric', {}, 'Qty'), Number.POSITIVE_INFINITY, ["'Qty' must be a number"]],
    ['numeric rejects -Infinity', field('numeric', {}, 'Qty'), Number.NEGATIVE_INFINITY, ["'Qty' must be a number"]],
    ['numeric rejects text overflowing to Infinity', field('numeric', {}, 'Qty'), '1e400', ["'Qty' must be a number"]],
    ['numeric rejects hex text', field('numeric', {}, 'Qty'), '0x10', ["'Qty' must be a number"]],
    ['numeric rejects words', field('numeric', {}, 'Qty'), 'twelve', ["'Qty' must be a number"]],
    ['numeric rejects false', field('numeric', {}, 'Qty'), false, ["'Qty' must be a number"]],
    ['numeric rejects 100k digits of text', field('numeric', {}, 'Qty'), `${'1'.repeat(100_000)}x`, ["'Qty' must be a number"]],
    ['boolean accepts false', field('boolean', {}, 'Active'), false, [], false],
    ['boolean converts 1', field('boolean', {}, 'Active'), 1, [], true],
    ['boolean converts 0', field('boolean', {}, 'Active'), 0, [], false],
    ['boolean converts "TRUE"', field('boolean', {}, 'Active'), 'TRUE', [], true],
    ['boolean converts "0"', field('boolean', {}, 'Active'), '0', [], false],
    ['boolean rejects 2', field('boolean', {}, 'Active'), 2, ["'Active' must be a boolean"]],
    ['boolean rejects "yes"', field('boolean', {}, 'Active'), 'yes', ["'Active' must be a boolean"]],
    ['array accepts an empty list', field('array', {}, 'Tags'), [], []],
    ['array rejects text', field('array', {}, 'Tags'), 'a,b', ["'Tags' contains data that is not a list"]],
    ['array rejects an object', field('array', {}, 'Tags'), { 0: 'a' }, ["'Tags' contains data that is not a list"]],
    ['date accepts a leap day', field('date', {}, 'Received'), '2024-02-29', []],
    ['date trims when converting', field('date', {}, 'Received'), ' 2024-02-29 ', [], '2024-02-29'],
    ['date rejects 1899-12-31', field('date', {}, 'Received'), '1899-12-31', ["'Received' must match pattern 'YYYY-MM-DD'"]],
    ['date rejects 2023-02-29', field('date', {}, 'Received'), '2023-02-29', ["'Received' must match pattern 'YYYY-MM-DD'"]],
    ['date rejects a number', field('date', {}, 'Received'), 20240101, ["'Received' must match pattern 'YYYY-MM-DD'"]],
    ['time accepts 24:00:00', field('time', {}, 'Start'), '24:00:00', []],
    ['time rejects 00:00:00', field('time', {}, 'Start'), '00:00:00', ["'Start' must match pattern 'hh:mm:ss'"]],
    ['time rejects hh:mm', field('time', {}, 'Start'), '12:00', ["'Start' must match pattern 'hh:mm:ss'"]],
    ['timestamp accepts its pattern', field('timestamp', {}, 'At'), '2024-01-31 12:00:00', []],
    ['timestamp rejects ISO form', field('timestamp', {}, 'At'), '2024-01-31T12:00:00', ["'At' must match pattern 'YYYY-MM-DD hh:mm:ss'"]],
    ['media accepts a media reference', field('media', {}, 'Logo'), { mediaId: 'm1' }, []],
    ['media rejects a bare id', field('media', {}, 'Logo'), 'm1', [MESSAGES.media('Logo')]],
    ['geo accepts a position', field('geo', {}, 'Where'), { lat: -33.9, lng: 151.2 }, []],
    ['geo rejects lat out of range', field('geo', {}, 'Where'), { lat: 91, lng: 0 }, [MESSAGES.geo('Where')]],
    ['object accepts an empty object', field('object', {}, 'Data'), {}, []],
    ['object rejects a list', field('object', {}, 'Data'), [], [MESSAGES.object('Data')]],
  ])('%s', (_name, def, value, errors, converted = value) => {
    const checked = one(def, value);
    expect(checked.errors).toEqual(errors);
    if (errors.length === 0) expect(checked.value).toEqual(converted);
    else expect(checked.value).toBe(value); // a failed value keeps its original form
  });

  it('accepts 1 and 0 as booleans without converting them when conversion is off', () => {
    expect(one(field('boolean'), 1, { convert: false })).toMatchObject({ errors: [], value: 1 });
    expect(one(field('boolean'), 'true', { convert: false }).errors).toEqual(["'X' must be a boolean"]);
    expect(one(field('numeric'), '12', { convert: false }).errors).toEqual(["'X' must be a number"]);
    expect(one(field('string'), 12, { convert: false }).errors).toEqual(["'X' must be a string"]);
    expect(one(field('date'), ' 2024-01-01', { convert: false }).errors).toEqual(["'X' must match pattern 'YYYY-MM-DD'"]);
  });

  it('never trims strings', () => {
    expect(one(field('string'), '  a  ').value).toBe('  a  ');
  });

  it('checks each entry of a list against items and reports it by position', () => {
    const tags: FieldDef = {
      name: 'f',
      label: 'Tags',
      dataType: 'array',
      items: { name: 'tag', label: 'Tag', dataType: 'numeric', conditions: { required: true, max: 9 } },
    };
    const checked = one(tags, ['1', 'x', null, 12]);
    expect(checked.errors).toEqual(["'Tags[1]' must be a number", "'Tags[2]' must be provided", "'Tags[3]' exceeds max value of 9"]);
    expect(checked.value).toEqual([1, 'x', null, 12]);
  });
});

describe('conditions', () => {
  it.each<[string, FieldDef, unknown, string[]]>([
    ['min characters: too short', field('string', { min: 3 }), 'ab', ["'X' must be at least 3 characters"]],
    ['min characters: boundary', field('string', { min: 3 }), 'abc', []],
    ['min characters count code points', field('string', { min: 3, max: 3 }), '🙂🙂🙂', []],
    ['max characters: too long', field('string', { max: 5 }), 'abcdef', ["'X' exceeds max length of 5 characters"]],
    ['max characters: 100k', field('string', { max: 35 }), long, ["'X' exceeds max length of 35 characters"]],
    ['min value: below', field('numeric', { min: 0 }), -1, ["'X' must be at least 0"]],
    ['min value: 0 boundary', field('numeric', { min: 0 }), 0, []],
    ['max value: above', field('numeric', { max: 10 }), 10.5, ["'X' exceeds max value of 10"]],
    ['min date: before', field('date', { min: '2000-01-01' }), '1999-12-31', ["'X' must be at least 2000-01-01"]],
    ['max date: after', field('date', { max: '2000-01-01' }), '2000-01-02', ["'X' exceeds max value of 2000-01-01"]],
    ['max time: 24:00:00 above 23:59:59', field('time', { max: '23:59:59' }), '24:00:00', ["'X' exceeds max value of 23:59:59"]],
    ['min entries', field('array', { min: 2 }), ['a'], ["'X' must have at least 2 entries"]],
    ['max entries', field('array', { max: 2 }), [1, 2, 3], ["'X' cannot have more than 2 entries"]],
    ['a bound of another kind does not apply', field('numeric', { min: '5' }), 1, []],
    ['regex: no match', field('string', { regex: '^[A-Z]+$' }), 'abc', ["'X' does not match regular expression"]],
    ['regex: match', field('string', { regex: '^[A-Z]+$' }), 'ABC', []],
    ['regex: applies to numbers as text', field('numeric', { regex: '^\\d+$' }), 1.5, ["'X' does not match regular expression"]],
    [
      'regex: invalid source is reported, not thrown',
      field('string', { regex: '(' }),
      'a',
      ["'X' has an invalid regular expression in its schema"],
    ],
    ['regex: named general id', field('string', { regex: 'generalId' }, 'Data Id'), '_a', [`'Data Id' ${GENERAL_ID_MESSAGE}`]],
    ['regex: named hex colour', field('string', { regex: 'hexColor' }), '#12', ["'X' must be a hex colour (#rgb or #rrggbb)"]],
    ['email: invalid', field('string', { email: true }), 'a@b', ["'X' does not appear to be a valid email address"]],
    ['email: valid', field('string', { email: true }), 'a@b.co', []],
    ['valid: not listed', field('string', { valid: ['a', 'b'] }), 'c', ["'X' must be one of a, b"]],
    ['valid: listed after conversion', field('numeric', { valid: [1, 2, 3] }), '2', []],
    ['valid: every entry of a list', field('array', { valid: ['x', 'y'] }), ['x', 'z'], ["'X' must be one of x, y"]],
    [
      'all failures of a field are collected',
      field('string', { min: 5, regex: '^\\d+$', valid: ['12345'] }),
      'ab',
      ["'X' must be at least 5 characters", "'X' does not match regular expression", "'X' must be one of 12345"],
    ],
    ['a type failure skips conditions', field('numeric', { min: 5, valid: [9] }), 'abc', ["'X' must be a number"]],
    ['an empty optional value skips conditions', field('string', { min: 3, regex: '^a' }), '   ', []],
  ])('%s', (_name, def, value, errors) => expect(one(def, value).errors).toEqual(errors));
});

describe('required', () => {
  it.each<[string, FieldDef['dataType'], unknown]>([
    ['absent', 'string', ABSENT],
    ['undefined', 'string', undefined],
    ['null', 'numeric', null],
    ['an empty string', 'string', ''],
    ['a blank string', 'string', ' \t\n'],
    ['blank text in a numeric field', 'numeric', ' '],
    ['an empty list', 'array', []],
    ['an empty object', 'object', {}],
  ])('fails for %s', (_name, dataType, value) => {
    expect(one(field(dataType, { required: true }), value).errors).toEqual(["'X' must be provided"]);
  });

  it.each<[string, FieldDef['dataType'], unknown]>([
    ['0', 'numeric', 0],
    ['false', 'boolean', false],
    ['0 as a boolean', 'boolean', 0],
    ['a one-character string', 'string', 'a'],
  ])('passes for %s', (_name, dataType, value) => {
    expect(one(field(dataType, { required: true }), value).errors).toEqual([]);
  });

  it('is not enforced when enforceRequired is off', () => {
    expect(one(field('string', { required: true }), ABSENT, { enforceRequired: false }).errors).toEqual([]);
  });
});

describe('record shape and unknown properties', () => {
  const entity = entityOf(
    { name: 'qty', label: 'Qty', dataType: 'numeric', entryMethod: true },
    { name: 'name', label: 'Name', dataType: 'string' },
  );

  it.each([null, [], 'text', 5, true, [{ qty: 1 }]])('rejects %j as a record without throwing', (record) => {
    expect(validateRecord(entity, record)).toEqual({ ok: false, value: {}, errors: { _record: ['Record must be an object'] } });
  });

  it('keeps control fields, strips tmp$ properties and reports nothing for them', () => {
    const audit = { create: { user: 'u1', ts: '2024-01-01 12:00:00' } };
    const result = validateRecord(entity, { _id: 'p1', _rev: '3', x$type: 'part', x$audit: audit, tmp$open: true, qty: 1 });
    expect(result).toEqual({ ok: true, value: { qty: 1, _id: 'p1', _rev: '3', x$type: 'part', x$audit: audit }, errors: {} });
  });

  it('rejects and strips unknown fields by default', () => {
    const result = validateRecord(entity, { qty: 1, foo: 1, bar: 2 });
    expect(result.errors).toEqual({
      _record: ["Record contains unexpected data (name = 'foo')", "Record contains unexpected data (name = 'bar')"],
    });
    expect(result.value).toEqual({ qty: 1 });
  });

  it('keeps unknown fields silently when the entity or the options allow them', () => {
    expect(validateRecord({ ...entity, allowUnknown: true }, { foo: 1 })).toMatchObject({ ok: true, value: { foo: 1 } });
    expect(validateRecord(entity, { foo: 1 }, { allowUnknown: true })).toMatchObject({ ok: true, value: { foo: 1 } });
  });

  it('strips silently without rejectUnknown and keeps with stripUnknown off', () => {
    expect(validateRecord(entity, { foo: 1 }, { rejectUnknown: false })).toEqual({ ok: true, value: {}, errors: {} });
    expect(validateRecord(entity, { foo: 1 }, { rejectUnknown: false, stripUnknown: false })).toEqual({
      ok: true,
      value: { foo: 1 },
      errors: {},
    });
    expect(validateRecord(entity, { foo: 1 }, { stripUnknown: false })).toMatchObject({ ok: false, value: { foo: 1 } });
  });

  it('allows the entry method companion only for a field with an entry method', () => {
    expect(validateRecord(entity, { qty: 1, qty_em: 4 })).toMatchObject({ ok: true, value: { qty: 1, qty_em: 4 } });
    expect(validateRecord(entity, { qty_em: '2' }).value).toEqual({ qty_em: 2 });
    expect(validateRecord(entity, { qty_em: 3 }).errors).toEqual({ qty_em: ["'Qty' entry method must be one of 1, 2, 4"] });
    expect(validateRecord(entity, { qty_em: null }).errors).toEqual({ qty_em: ["'Qty' entry method must be one of 1, 2, 4"] });
    expect(validateRecord(entity, { name_em: 1 }).errors).toEqual({ _record: ["Record contains unexpected data (name = 'name_em')"] });
  });

  it('treats __proto__ and inherited names as plain data', () => {
    const record = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') as unknown;
    const result = validateRecord(entityOf({ name: 'toString', label: 'T', dataType: 'string', conditions: { required: true } }), record);
    expect(result.errors).toEqual({
      toString: ["'T' must be provided"],
      _record: ["Record contains unexpected data (name = '__proto__')", "Record contains unexpected data (name = 'constructor')"],
    });
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports ok only without errors', () => {
    expect(validateRecord(entity, { qty: 'x' }).ok).toBe(false);
    expect(validateRecord(entity, {}).ok).toBe(true);
  });
});

describe('siteDataEntity', () => {
  it.each<[string, unknown, Record<string, string[]>]>([
    ['a valid record', { _id: 's1', dataId: 'app_settings', data: { labor: {} } }, {}],
    ['a 35-character id', { dataId: 'a'.repeat(35), data: { a: 1 } }, {}],
    ['a 36-character id', { dataId: 'a'.repeat(36), data: { a: 1 } }, { dataId: ["'Data Id' exceeds max length of 35 characters"] }],
    ['an empty id', { dataId: '', data: { a: 1 } }, { dataId: ["'Data Id' must be provided"] }],
    ['an id with a dash', { dataId: 'app-settings', data: { a: 1 } }, { dataId: [`'Data Id' ${GENERAL_ID_MESSAGE}`] }],
    ['an id ending in an underscore', { dataId: 'brand_', data: { a: 1 } }, { dataId: [`'Data Id' ${GENERAL_ID_MESSAGE}`] }],
    ['missing data', { dataId: 'brand' }, { data: ["'Data' must be provided"] }],
    ['empty data', { dataId: 'brand', data: {} }, { data: ["'Data' must be provided"] }],
    ['data that is a list', { dataId: 'brand', data: [1] }, { data: ["'Data' must be an object"] }],
  ])('%s', (_name, record, errors) => expect(validateRecord(siteDataEntity, record).errors).toEqual(errors));
});

describe('scripts', () => {
  const qty: FieldDef = { name: 'qty', label: 'Qty', dataType: 'numeric', conditions: { custom: 'return value > 0' } };
  const total: FieldDef = { name: 'total', label: 'Total', dataType: 'numeric', conditions: { required: true } };
  const entity: EntityDef = { ...entityOf(qty, total), calcScript: 'record.total = record.qty * 2' };

  // Stands in for the sandbox: "calc" doubles qty into total; "check" reads the script as a verdict.
  const runner: ScriptRunner = {
    runCalc: (script, record) =>
      script === 'throw'
        ? { ok: false, error: 'ReferenceError: x is not defined' }
        : { ok: true, record: { ...record, total: Number(record.qty) * 2 } },
    runCheck: (script, value) =>
      script === 'throw' ? { ok: false, error: 'boom' } : { ok: true, pass: typeof value === 'number' && value > 0 },
  };
  const asyncRunner: AsyncScriptRunner = {
    runCalc: async (script, record) => runner.runCalc(script, record),
    runCheck: async (script, value, record) => runner.runCheck(script, value, record),
  };

  it('runs the calculation before validation and the custom check on the converted value', async () => {
    for (const result of [
      validateRecord(entity, { qty: '3' }, { scripts: runner }),
      await validateRecordAsync(entity, { qty: '3' }, { scripts: asyncRunner }),
    ]) {
      expect(result).toEqual({ ok: true, value: { qty: 3, total: 6 }, errors: {} });
    }
  });

  it('reports a failing custom check', async () => {
    const expected = { qty: ["Validation for data field 'Qty' failed to pass"] };
    expect(validateRecord(entity, { qty: -1 }, { scripts: runner }).errors).toEqual(expected);
    expect((await validateRecordAsync(entity, { qty: -1 }, { scripts: asyncRunner })).errors).toEqual(expected);
  });

  it('reports a custom check that errors or throws', async () => {
    const failing = entityOf({ ...qty, conditions: { custom: 'throw' } });
    const expected = { qty: ["Validation script for data field 'Qty' failed during execution: boom"] };
    expect(validateRecord(failing, { qty: 1 }, { scripts: runner }).errors).toEqual(expected);
    const throwing: ScriptRunner = {
      ...runner,
      runCheck: () => {
        throw new Error('boom');
      },
    };
    expect(validateRecord(failing, { qty: 1 }, { scripts: throwing }).errors).toEqual(expected);
    const rejecting: AsyncScriptRunner = { ...asyncRunner, runCheck: () => Promise.reject(new Error('boom')) };
    expect((await validateRecordAsync(failing, { qty: 1 }, { scripts: rejecting })).errors).toEqual(expected);
  });

  it('reports a failed calculation with its error as detail and still checks the record', async () => {
    const failing = { ...entity, calcScript: 'throw' };
    const expected = {
      ok: false,
      value: { qty: 3 },
      errors: { _record: ["Calulation script for 'Part' failed during execution"], total: ["'Total' must be provided"] },
      detail: 'ReferenceError: x is not defined',
    };
    expect(validateRecord(failing, { qty: 3 }, { scripts: runner })).toEqual(expected);
    expect(await validateRecordAsync(failing, { qty: 3 }, { scripts: asyncRunner })).toEqual(expected);
  });

  it('skips the custom check after a type failure', () => {
    expect(
      validateRecord(entity, { qty: 'x', total: 1 }, { scripts: { ...runner, runCalc: (_s, record) => ({ ok: true, record }) } }).errors,
    ).toEqual({
      qty: ["'Qty' must be a number"],
    });
  });

  it('skips scripts without a runner', () => {
    expect(validateRecord(entity, { qty: -1, total: 1 })).toMatchObject({ ok: true, value: { qty: -1, total: 1 } });
  });
});

describe('validateField', () => {
  it('validates and converts one value', () => {
    expect(validateField(field('numeric', { min: 1 }, 'Qty'), '0')).toEqual({ ok: false, value: 0, errors: ["'Qty' must be at least 1"] });
    expect(validateField(field('numeric', { min: 1 }, 'Qty'), '2')).toEqual({ ok: true, value: 2, errors: [] });
    expect(validateField(field('string', { required: true }, 'Name'), '')).toEqual({
      ok: false,
      value: '',
      errors: ["'Name' must be provided"],
    });
  });

  it('runs a custom check with the given record only when a runner is given', () => {
    const def = field('numeric', { custom: 'check' }, 'Qty');
    const seen: unknown[] = [];
    const scripts: ScriptRunner = {
      runCalc: (_script, record) => ({ ok: true, record }),
      runCheck: (_script, value, record) => (seen.push(record), { ok: true, pass: value === 1 }),
    };
    expect(validateField(def, 2).errors).toEqual([]);
    expect(validateField(def, 2, { scripts, record: { f: 2 } }).errors).toEqual(["Validation for data field 'Qty' failed to pass"]);
    expect(seen).toEqual([{ f: 2 }]);
  });
});
