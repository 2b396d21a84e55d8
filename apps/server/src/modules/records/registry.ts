/*
 * The entity registry of the record layer: which record types exist, their definitions, and who may
 * write them. Definitions are code; what admins add per site (a calculation script, custom field
 * checks) is site data conf `entity_<type>`, merged in at validation time by withSiteConf.
 */
import { unregistered } from '../../lib/errors.ts';
import { entityDefSchema, type EntityDef } from '@floorhand/contract/records/schema-model';

/** 'admin': reference data, written by siteAdmin or orgAdmin only; 'login': any logged-in account. */
export type WriteAccess = 'admin' | 'login';

export interface RegisteredEntity {
  def: EntityDef;
  writeAccess: WriteAccess;
}

/** What admins may add to an entity per site, stored as site data conf `entity_<type>`. */
export interface EntityConf {
  calcScript?: string;
  /** Field name → check script (a function body of `value` and `record` returning a boolean). */
  checks?: Record<string, string>;
}

const registry = new Map<string, RegisteredEntity>();

/** Registers an entity type; throws on an invalid definition or a type registered twice (both programming errors). */
export function registerEntity(def: EntityDef, writeAccess: WriteAccess = 'admin'): void {
  const parsed = entityDefSchema.safeParse(def);
  if (!parsed.success) throw new Error(`Entity '${def.type}' has an invalid definition: ${parsed.error.message}`);
  if (!def.fields.some((f) => f.name === def.idFieldName))
    throw new Error(`Entity '${def.type}': idFieldName '${def.idFieldName}' names no field`);
  if (registry.has(def.type)) throw new Error(`Entity '${def.type}' is registered already`);
  registry.set(def.type, { def, writeAccess });
}

/** The registered entity, or the spec's UN-REGISTERED error. */
export function getEntity(type: string): RegisteredEntity {
  const entity = registry.get(type);
  if (!entity) throw unregistered(`No entity '${type}' has been registered`);
  return entity;
}

/** Site data id of an entity's conf. */
export const entityConfId = (type: string): string => `entity_${type}`;

/** The parts of stored conf data that have the right shape; anything else is ignored. */
export function readEntityConf(data: unknown): EntityConf {
  if (typeof data !== 'object' || data === null) return {};
  const { calcScript, checks } = data as Record<string, unknown>;
  const conf: EntityConf = {};
  if (typeof calcScript === 'string' && calcScript.trim() !== '') conf.calcScript = calcScript;
  if (typeof checks === 'object' && checks !== null) {
    const entries = Object.entries(checks).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '');
    if (entries.length > 0) conf.checks = Object.fromEntries(entries);
  }
  return conf;
}

// Both scripts are function bodies (see sandbox.ts); nesting them as functions keeps each one's
// `return` its own, so a built-in script and a site's extension both run, the built-in first.
const chainCalc = (first: string, second: string) =>
  `let r = (function (record) {\n${first}\n})(record);\nif (r !== undefined) record = r;\nr = (function (record) {\n${second}\n})(record);\nreturn r === undefined ? record : r;`;
const chainCheck = (first: string, second: string) =>
  `const a = (function (value, record) {\n${first}\n})(value, record);\nif (a !== true) return a;\nreturn (function (value, record) {\n${second}\n})(value, record);`;

/** The definition with a site's conf merged in. Checks for fields the entity lacks are ignored. */
export function withSiteConf(def: EntityDef, conf: EntityConf): EntityDef {
  const { calcScript, checks = {} } = conf;
  if (!calcScript && Object.keys(checks).length === 0) return def;
  return {
    ...def,
    ...(calcScript ? { calcScript: def.calcScript ? chainCalc(def.calcScript, calcScript) : calcScript } : {}),
    fields: def.fields.map((field) => {
      const check = Object.hasOwn(checks, field.name) ? checks[field.name] : undefined;
      if (!check) return field;
      const own = field.conditions?.custom;
      return { ...field, conditions: { ...field.conditions, custom: own ? chainCheck(own, check) : check } };
    }),
  };
}

// Built-in entities: reference data the inventory work areas use.
const activeField = { name: 'active', label: 'Active', dataType: 'boolean', conditions: { required: true } } as const;

registerEntity({
  type: 'conditionCode',
  title: 'Condition Code',
  idFieldName: 'code',
  displayIdFieldName: 'description',
  fields: [
    { name: 'code', label: 'Code', dataType: 'string', conditions: { required: true, max: 20, regex: 'generalId' } },
    { name: 'description', label: 'Description', dataType: 'string', conditions: { required: true, max: 200 } },
    activeField,
  ],
});

registerEntity({
  type: 'department',
  title: 'Department',
  idFieldName: 'code',
  displayIdFieldName: 'name',
  fields: [
    { name: 'code', label: 'Code', dataType: 'string', conditions: { required: true, max: 20, regex: 'generalId' } },
    { name: 'name', label: 'Name', dataType: 'string', conditions: { required: true, max: 100 } },
    activeField,
  ],
});
