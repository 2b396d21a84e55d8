/*
 * Generic record validation (spec section 5), shared by the server and browser forms.
 *
 * One engine, two drivers:
 * - validateRecord is synchronous. It runs scripts only through a synchronous ScriptRunner; the
 *   server's QuickJS sandbox is one (it is synchronous once its WebAssembly module has loaded).
 * - validateRecordAsync accepts runners that may return promises (e.g. a worker pool) and otherwise
 *   gives exactly the same result.
 * Without a runner, calculation and custom scripts are skipped: browser forms cannot run them, so
 * the server must always pass its sandbox. A runner that throws counts as a script error.
 * The engine never throws on JSON input: problems with the record itself go under '_record'.
 *
 * Order: calculation script (its failure is reported and the uncalculated record is still checked),
 * then per field: missing-value check, type check and conversion, conditions (all failures
 * collected), custom check; then the record's other properties (control, tmp$, _em, unknown).
 *
 * Rules decided here:
 * - Conversion (option `convert`, default on): numeric accepts decimal text ("12", " -1.5e3 ") and
 *   rejects "", "0x10", NaN and ±Infinity; boolean accepts "true"/"false"/"1"/"0" (any case) and
 *   turns 1/0 into true/false (1 and 0 are accepted even without conversion, per spec); string
 *   accepts finite numbers (12 → "12"); date, time, timestamp and entry-method text is trimmed.
 *   Strings are never trimmed (the value may be meaningful as typed); a blank string for any
 *   non-string field becomes null, since forms send '' for "no value".
 * - Missing (null or undefined) values are only checked by `required`. Present but empty values
 *   (blank string, [], {}) are type-checked, fail `required`, and skip the other conditions.
 * - A value that fails its type check keeps its original form and skips conditions and the custom
 *   check; the custom check runs otherwise, even for missing values, so it can express
 *   "required when ...".
 * - String lengths count Unicode code points, as PostgreSQL counts characters.
 * - Unknown properties: allowed (entity.allowUnknown or option) → kept silently; otherwise
 *   `rejectUnknown` reports them and `stripUnknown` drops them from the value. Both default on.
 * - Every field message starts with the quoted label, "'{label}' ..."; record-level and script
 *   messages keep the spec's wording. Each message is built from a catalogue key with numbered holes
 *   (`fill`), so a screen finds the key again and translates it (`translateText`). A failed
 *   calculation's error goes in `detail`, not the message.
 * - A companion `<name>_em` is allowed when the field has an entry method and must be 1, 2 or 4.
 */
import { SITE_DATA_ID_MAX } from '../constants.ts';
import { NAMED_PATTERNS, isNamedPattern } from './patterns.ts';
import { fill, tk } from '../i18n.ts';
import {
  CONTROL_FIELDS,
  ENTRY_METHOD,
  ENTRY_METHOD_SUFFIX,
  TEMP_PREFIX,
  type ConditionValue,
  type DataType,
  type EntityDef,
  type FieldDef,
} from './schema-model.ts';

/** Key of errors about the record as a whole. */
export const RECORD_KEY = '_record';

const ENTRY_METHOD_VALUES: readonly number[] = Object.values(ENTRY_METHOD);

export const MESSAGES = {
  recordNotObject: tk('Record must be an object'),
  unknownField: (name: string) => tk(`Record contains unexpected data (name = '${name}')`),
  calcFailed: (entityTitle: string) => tk(`Calulation script for '${entityTitle}' failed during execution`),
  customFailed: (label: string) => tk(`Validation for data field '${label}' failed to pass`),
  customError: (label: string, error: string) => tk(`Validation script for data field '${label}' failed during execution: ${error}`),
  string: (label: string) => tk(`'${label}' must be a string`),
  number: (label: string) => tk(`'${label}' must be a number`),
  boolean: (label: string) => tk(`'${label}' must be a boolean`),
  array: (label: string) => tk(`'${label}' contains data that is not a list`),
  object: (label: string) => tk(`'${label}' must be an object`),
  media: (label: string) => tk(`'${label}' must be a media reference with a mediaId`),
  geo: (label: string) => tk(`'${label}' must be a position with lat (-90 to 90) and lng (-180 to 180)`),
  date: (label: string) => fill(NAMED_PATTERNS.date.field, label),
  time: (label: string) => fill(NAMED_PATTERNS.time.field, label),
  timestamp: (label: string) => fill(NAMED_PATTERNS.timestamp.field, label),
  minLength: (label: string, n: number | string) => tk(`'${label}' must be at least ${n} characters`),
  minValue: (label: string, n: number | string) => tk(`'${label}' must be at least ${n}`),
  minEntries: (label: string, n: number | string) => tk(`'${label}' must have at least ${n} entries`),
  maxLength: (label: string, n: number | string) => tk(`'${label}' exceeds max length of ${n} characters`),
  maxValue: (label: string, n: number | string) => tk(`'${label}' exceeds max value of ${n}`),
  maxEntries: (label: string, n: number | string) => tk(`'${label}' cannot have more than ${n} entries`),
  regex: (label: string) => tk(`'${label}' does not match regular expression`),
  badRegex: (label: string) => tk(`'${label}' has an invalid regular expression in its schema`),
  /** A named pattern's message (its `field`), e.g. the general id rule. */
  pattern: (label: string, field: string) => fill(field, label),
  email: (label: string) => fill(NAMED_PATTERNS.email.field, label),
  valid: (label: string, list: readonly ConditionValue[]) => tk(`'${label}' must be one of ${list.map(String).join(', ')}`),
  required: (label: string) => tk(`'${label}' must be provided`),
  dataType: (label: string, dataType: string) => tk(`'${label}' has an unsupported data type '${dataType}'`),
  entryMethod: (label: string) => tk(`'${label}' entry method must be one of ${ENTRY_METHOD_VALUES.join(', ')}`),
} as const;

export type ValidationErrors = Record<string, string[]>;

export interface ValidationResult {
  ok: boolean;
  /** The record converted and stripped, ready to store when ok. */
  value: Record<string, unknown>;
  errors: ValidationErrors;
  /** The calculation script's error, to show as the detail of the calcFailed message. */
  detail?: string;
}

export type CalcOutcome = { ok: true; record: Record<string, unknown> } | { ok: false; error: string };
export type CheckOutcome = { ok: true; pass: boolean } | { ok: false; error: string };

export interface ScriptRunner {
  runCalc(script: string, record: Record<string, unknown>): CalcOutcome;
  runCheck(script: string, value: unknown, record: Record<string, unknown>): CheckOutcome;
}

type Awaitable<T> = T | Promise<T>;

export interface AsyncScriptRunner {
  runCalc(script: string, record: Record<string, unknown>): Awaitable<CalcOutcome>;
  runCheck(script: string, value: unknown, record: Record<string, unknown>): Awaitable<CheckOutcome>;
}

export interface ValidateOptions {
  /** Convert values to the field's type (default true). */
  convert?: boolean;
  /** Drop unknown properties from the value (default true). */
  stripUnknown?: boolean;
  /** Report unknown properties under '_record' (default true). */
  rejectUnknown?: boolean;
  /** Keep unknown properties silently; also on when entity.allowUnknown. */
  allowUnknown?: boolean;
  /** Apply `required` conditions (default true). */
  enforceRequired?: boolean;
}

export interface FieldValidateOptions extends Pick<ValidateOptions, 'convert' | 'enforceRequired'> {
  scripts?: ScriptRunner;
  /** The record the value belongs to, given to custom check scripts. */
  record?: Record<string, unknown>;
}

export interface FieldValidationResult {
  ok: boolean;
  value: unknown;
  errors: string[];
}

/** Site data (spec section 3 and 5): dataId is required, 1 to 35 characters, a general id. */
export const siteDataEntity: EntityDef = {
  type: 'siteData',
  title: 'Site Data',
  idFieldName: 'dataId',
  fields: [
    { name: '_id', label: tk('Id'), dataType: 'string' },
    {
      name: 'dataId',
      label: tk('Data Id'),
      dataType: 'string',
      conditions: { required: true, min: 1, max: SITE_DATA_ID_MAX, regex: 'generalId' },
    },
    { name: 'data', label: tk('Data'), dataType: 'object', conditions: { required: true } },
  ],
};

export function validateRecord(
  entity: EntityDef,
  record: unknown,
  options: ValidateOptions & { scripts?: ScriptRunner } = {},
): ValidationResult {
  const { scripts } = options;
  const { calcScript } = entity;
  const calc = scripts && calcScript && isPlainObject(record) ? attempt(() => scripts.runCalc(calcScript, record)) : undefined;
  const pass = validateFields(entity, record, options, calc);
  if (scripts)
    for (const check of pass.checks)
      applyCheck(
        pass,
        check,
        attempt(() => scripts.runCheck(check.script, check.value, pass.value)),
      );
  return finish(pass);
}

export async function validateRecordAsync(
  entity: EntityDef,
  record: unknown,
  options: ValidateOptions & { scripts?: AsyncScriptRunner } = {},
): Promise<ValidationResult> {
  const { scripts } = options;
  const { calcScript } = entity;
  const calc = scripts && calcScript && isPlainObject(record) ? await attemptAsync(() => scripts.runCalc(calcScript, record)) : undefined;
  const pass = validateFields(entity, record, options, calc);
  if (scripts)
    for (const check of pass.checks)
      applyCheck(pass, check, await attemptAsync(() => scripts.runCheck(check.script, check.value, pass.value)));
  return finish(pass);
}

/** One field on its own, for browser forms. Custom checks run only with options.scripts. */
export function validateField(field: FieldDef, value: unknown, options: FieldValidateOptions = {}): FieldValidationResult {
  const checks: PendingCheck[] = [];
  const settings = { convert: options.convert ?? true, enforceRequired: options.enforceRequired ?? true };
  const result = checkField(field, value, settings, field.name, labelOf(field), checks);
  const { scripts } = options;
  if (scripts) {
    for (const check of checks) {
      const message = checkMessage(
        check,
        attempt(() => scripts.runCheck(check.script, check.value, options.record ?? {})),
      );
      if (message) result.errors.push(message);
    }
  }
  return { ok: result.errors.length === 0, value: result.value, errors: result.errors };
}

// ---------------------------------------------------------------------------------------------

interface Settings {
  convert: boolean;
  enforceRequired: boolean;
}

interface PendingCheck {
  key: string;
  label: string;
  script: string;
  value: unknown;
}

interface Pass {
  value: Record<string, unknown>;
  // A Map, so field names such as "__proto__" cannot reach Object.prototype.
  errors: Map<string, string[]>;
  checks: PendingCheck[];
  detail?: string;
}

type Typed = { ok: true; value: unknown } | { ok: false; message: string };

const CONTROL_FIELD_NAMES: ReadonlySet<string> = new Set(CONTROL_FIELDS);
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const BOOLEAN_TEXT: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

function attempt<T>(run: () => T): T | { ok: false; error: string } {
  try {
    return run();
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

async function attemptAsync<T>(run: () => Awaitable<T>): Promise<T | { ok: false; error: string }> {
  try {
    return await run();
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function addError(errors: Map<string, string[]>, key: string, message: string): void {
  const list = errors.get(key);
  if (list) list.push(message);
  else errors.set(key, [message]);
}

function checkMessage(check: PendingCheck, outcome: CheckOutcome): string | undefined {
  if (!outcome.ok) return MESSAGES.customError(check.label, outcome.error);
  return outcome.pass ? undefined : MESSAGES.customFailed(check.label);
}

function applyCheck(pass: Pass, check: PendingCheck, outcome: CheckOutcome): void {
  const message = checkMessage(check, outcome);
  if (message) addError(pass.errors, check.key, message);
}

function finish(pass: Pass): ValidationResult {
  const result: ValidationResult = { ok: pass.errors.size === 0, value: pass.value, errors: Object.fromEntries(pass.errors) };
  if (pass.detail !== undefined) result.detail = pass.detail;
  return result;
}

function validateFields(entity: EntityDef, input: unknown, options: ValidateOptions, calc?: CalcOutcome): Pass {
  const pass: Pass = { value: {}, errors: new Map(), checks: [] };
  let record = input;
  if (calc?.ok) record = calc.record;
  else if (calc) {
    addError(pass.errors, RECORD_KEY, MESSAGES.calcFailed(entity.title));
    pass.detail = calc.error;
  }
  if (!isPlainObject(record)) {
    addError(pass.errors, RECORD_KEY, MESSAGES.recordNotObject);
    return pass;
  }

  const settings: Settings = { convert: options.convert ?? true, enforceRequired: options.enforceRequired ?? true };
  const allowUnknown = entity.allowUnknown === true || options.allowUnknown === true;
  const fields = new Map(entity.fields.map((field) => [field.name, field]));
  const entries: [string, unknown][] = [];

  for (const field of fields.values()) {
    const raw = Object.hasOwn(record, field.name) ? record[field.name] : undefined;
    const result = checkField(field, raw, settings, field.name, labelOf(field), pass.checks);
    if (result.errors.length > 0) pass.errors.set(field.name, result.errors);
    if (result.value !== undefined) entries.push([field.name, result.value]);
  }

  for (const [key, raw] of Object.entries(record)) {
    if (fields.has(key) || key.startsWith(TEMP_PREFIX)) continue;
    if (CONTROL_FIELD_NAMES.has(key)) {
      entries.push([key, raw]);
      continue;
    }
    const owner = key.endsWith(ENTRY_METHOD_SUFFIX) ? fields.get(key.slice(0, -ENTRY_METHOD_SUFFIX.length)) : undefined;
    if (owner?.entryMethod) {
      const value = settings.convert && typeof raw === 'string' && NUMBER_TEXT.test(raw.trim()) ? Number(raw.trim()) : raw;
      const valid = typeof value === 'number' && ENTRY_METHOD_VALUES.includes(value);
      if (!valid) addError(pass.errors, key, MESSAGES.entryMethod(labelOf(owner)));
      entries.push([key, valid ? value : raw]);
      continue;
    }
    if (allowUnknown) entries.push([key, raw]);
    else {
      if (options.rejectUnknown ?? true) addError(pass.errors, RECORD_KEY, MESSAGES.unknownField(key));
      if (!(options.stripUnknown ?? true)) entries.push([key, raw]);
    }
  }
  // fromEntries defines own properties, so a "__proto__" key stays data.
  pass.value = Object.fromEntries(entries);
  return pass;
}

function labelOf(field: FieldDef): string {
  return field.label || field.name;
}

function checkField(
  field: FieldDef,
  raw: unknown,
  settings: Settings,
  key: string,
  label: string,
  checks: PendingCheck[],
): { value: unknown; errors: string[] } {
  const required = settings.enforceRequired && field.conditions?.required === true;
  const value = settings.convert && field.dataType !== 'string' && isBlank(raw) ? null : raw;
  const errors: string[] = [];
  let result = value;

  if (value === null || value === undefined) {
    if (required) errors.push(MESSAGES.required(label));
  } else {
    const typed = toType(field.dataType, value, settings.convert, label);
    if (!typed.ok) return { value, errors: [typed.message] };
    result = typed.value;
    if (field.items && Array.isArray(result)) {
      const items = field.items;
      result = result.map((item, index) => {
        const entry = checkField(items, item, settings, key, `${label}[${index}]`, checks);
        errors.push(...entry.errors);
        // Keep positions: a missing entry stays null rather than shifting later entries.
        return entry.value === undefined ? null : entry.value;
      });
    }
    if (isEmpty(result)) {
      if (required) errors.push(MESSAGES.required(label));
    } else errors.push(...checkConditions(field, result, label));
  }
  if (field.conditions?.custom) checks.push({ key, label, script: field.conditions.custom, value: result });
  return { value: result, errors };
}

function toType(dataType: DataType, value: unknown, convert: boolean, label: string): Typed {
  const ok = (converted: unknown): Typed => ({ ok: true, value: converted });
  const fail = (message: string): Typed => ({ ok: false, message });
  switch (dataType) {
    case 'string':
      if (typeof value === 'string') return ok(value);
      return convert && typeof value === 'number' && Number.isFinite(value) ? ok(String(value)) : fail(MESSAGES.string(label));
    case 'numeric': {
      const number = convert && typeof value === 'string' && NUMBER_TEXT.test(value.trim()) ? Number(value.trim()) : value;
      return typeof number === 'number' && Number.isFinite(number) ? ok(number) : fail(MESSAGES.number(label));
    }
    case 'boolean': {
      if (typeof value === 'boolean') return ok(value);
      if (value === 1 || value === 0) return ok(convert ? value === 1 : value);
      const parsed = convert && typeof value === 'string' ? BOOLEAN_TEXT.get(value.trim().toLowerCase()) : undefined;
      return parsed === undefined ? fail(MESSAGES.boolean(label)) : ok(parsed);
    }
    case 'date':
    case 'time':
    case 'timestamp': {
      const text = typeof value === 'string' ? (convert ? value.trim() : value) : undefined;
      return text !== undefined && NAMED_PATTERNS[dataType].test(text) ? ok(text) : fail(MESSAGES[dataType](label));
    }
    case 'array':
      return Array.isArray(value) ? ok(value) : fail(MESSAGES.array(label));
    case 'object':
      return isPlainObject(value) ? ok(value) : fail(MESSAGES.object(label));
    case 'media':
      return isPlainObject(value) && typeof value.mediaId === 'string' && value.mediaId !== '' ? ok(value) : fail(MESSAGES.media(label));
    case 'geo':
      return isPlainObject(value) && inRange(value.lat, 90) && inRange(value.lng, 180) ? ok(value) : fail(MESSAGES.geo(label));
    default:
      // Unreachable for a schema that passed entityDefSchema; reported rather than thrown.
      return fail(MESSAGES.dataType(label, String(dataType)));
  }
}

function inRange(value: unknown, limit: number): boolean {
  return typeof value === 'number' && value >= -limit && value <= limit;
}

type Measure = { kind: 'length' | 'value' | 'entries'; of: number | string };

function measure(dataType: DataType, value: unknown): Measure | undefined {
  if (Array.isArray(value)) return { kind: 'entries', of: value.length };
  if (typeof value === 'number') return { kind: 'value', of: value };
  if (typeof value !== 'string') return undefined;
  // date, time and timestamp compare as text: their fixed-width patterns sort chronologically.
  return dataType === 'string' ? { kind: 'length', of: codePointCount(value) } : { kind: 'value', of: value };
}

const MIN_MESSAGES = { length: MESSAGES.minLength, value: MESSAGES.minValue, entries: MESSAGES.minEntries };
const MAX_MESSAGES = { length: MESSAGES.maxLength, value: MESSAGES.maxValue, entries: MESSAGES.maxEntries };

function checkConditions(field: FieldDef, value: unknown, label: string): string[] {
  const conditions = field.conditions;
  if (!conditions) return [];
  const errors: string[] = [];
  const { min, max, regex, email, valid } = conditions;

  const size = measure(field.dataType, value);
  // A bound of another kind than the measure (e.g. a text min on a numeric field) does not apply.
  if (size && min !== undefined && typeof min === typeof size.of && size.of < min) errors.push(MIN_MESSAGES[size.kind](label, min));
  if (size && max !== undefined && typeof max === typeof size.of && size.of > max) errors.push(MAX_MESSAGES[size.kind](label, max));

  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  if (text !== undefined && regex !== undefined) {
    if (isNamedPattern(regex)) {
      if (!NAMED_PATTERNS[regex].test(text)) errors.push(MESSAGES.pattern(label, NAMED_PATTERNS[regex].field));
    } else {
      const compiled = compileRegex(regex);
      if (!compiled) errors.push(MESSAGES.badRegex(label));
      else if (!compiled.test(text)) errors.push(MESSAGES.regex(label));
    }
  }
  if (text !== undefined && email && !NAMED_PATTERNS.email.test(text)) errors.push(MESSAGES.email(label));

  if (valid) {
    const isListed = (entry: unknown) => valid.some((allowed) => allowed === entry);
    if (!(Array.isArray(value) ? value.every(isListed) : isListed(value))) errors.push(MESSAGES.valid(label, valid));
  }
  return errors;
}

const regexCache = new Map<string, RegExp | null>();

function compileRegex(source: string): RegExp | null {
  let compiled = regexCache.get(source);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(source);
    } catch {
      compiled = null;
    }
    if (regexCache.size >= 500) regexCache.clear();
    regexCache.set(source, compiled);
  }
  return compiled;
}

function codePointCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === '';
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return isBlank(value);
}
