// Floorhand's layer boundaries and file-name rule, as a local ESLint plugin (docs/architecture.md).
// Each import is resolved against the importing file's path (relative imports) or the workspace it
// names (`@floorhand/contract/...`), and checked against the layer rules below.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: paths in the rules and in `allow` are relative to it, with forward slashes. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The workspaces an import can name, and the folder each one lives in. */
const WORKSPACES = new Map([
  ['@floorhand/contract', 'packages/contract'],
  ['@floorhand/server', 'apps/server'],
  ['@floorhand/web', 'apps/web'],
  ['@floorhand/print-agent', 'apps/print-agent'],
]);

/**
 * Which imports are refused: a file whose repository path matches `from` may not import one whose
 * path matches `to` (and, when `differ` is set, only if the first captures differ: another feature).
 */
const LAYER_RULES = [
  {
    from: /^apps\/web\/src\/features\/([^/]+)\//,
    to: /^apps\/web\/src\/features\/([^/]+)(?:\/|$)/,
    differ: true,
    message:
      "Feature '{{from}}' imports feature '{{to}}': a feature never imports another; move what both need to components/ or lib/ (or the contract).",
  },
  {
    from: /^apps\/web\/src\/features\/([^/]+)\//,
    to: /^apps\/web\/src\/(app)(?:\/|$)/,
    message: "Feature '{{from}}' imports {{to}}/: the app imports features, never the other way round (shared → features → app).",
  },
  {
    from: /^apps\/web\/src\/(components|lib)\//,
    to: /^apps\/web\/src\/(features|app)(?:\/|$)/,
    message:
      'Shared web code ({{from}}/) imports {{to}}/: shared code never imports a feature or the app; pass what it needs in as props or arguments.',
  },
  {
    from: /^apps\/server\/src\/(lib|db)\//,
    to: /^apps\/server\/src\/(modules)(?:\/|$)/,
    message: 'Shared server code ({{from}}/) imports {{to}}/: lib/ and db/ never import a module; move the shared part into lib/ or db/.',
  },
  {
    from: /^apps\/(web)\//,
    to: /^apps\/(server|print-agent)(?:\/|$)/,
    message: 'The web app imports from apps/{{to}}/: web and server share only the contract (packages/contract).',
  },
  {
    from: /^apps\/(server|print-agent)\//,
    to: /^apps\/(web)(?:\/|$)/,
    message: 'apps/{{from}} imports from apps/{{to}}/: web and server share only the contract (packages/contract).',
  },
  {
    from: /^packages\/(contract)\//,
    to: /^(apps)(?:\/|$)/,
    message: 'The contract imports from {{to}}/: the contract depends on no app; apps import the contract.',
  },
];

const toPosix = (path) => path.split(sep).join('/');

/** A file's path relative to the repository root, with forward slashes. */
export const repoPath = (file) => toPosix(relative(ROOT, file));

/** Where an import lands, as a repository path, or undefined for a package outside the repository. */
function importTarget(source, fromFile) {
  if (source.startsWith('./') || source.startsWith('../') || source === '.' || source === '..') {
    return repoPath(resolve(dirname(fromFile), source));
  }
  for (const [name, dir] of WORKSPACES) {
    if (source === name || source.startsWith(`${name}/`)) return dir + source.slice(name.length);
  }
  return undefined;
}

/** The first broken layer rule for an import from `from` to `to` (repository paths), with its data. */
export function brokenLayerRule(from, to) {
  for (const rule of LAYER_RULES) {
    const f = rule.from.exec(from);
    const t = f && rule.to.exec(to);
    if (!t) continue;
    if (rule.differ && f[1] === t[1]) continue;
    return { message: rule.message, data: { from: f[1], to: t[1] } };
  }
  return undefined;
}

/**
 * A server module's surface: the files another module may import. By name, the same in every module
 * (no list per module): `service.ts` (its calls and rules), `queries.ts` (reads others share),
 * `ledger.ts` (writes others make through it, e.g. the stock ledger) and `csv-plan.ts` (how its CSV
 * import is planned, for csv-transfer). Every other file of a module is private to it.
 */
export const SURFACE_FILES = new Set(['service.ts', 'queries.ts', 'ledger.ts', 'csv-plan.ts']);

const MODULES_DIR = 'apps/server/src/modules';
const MODULE_FILE = /^apps\/server\/src\/modules\/([^/]+)\/(.+)$/;
const isTest = (path) => /\.test\.tsx?$/.test(path);

/** The broken module rule for an import from `from` to `to` (repository paths), if any. */
export function brokenModuleSurface(from, to) {
  const f = MODULE_FILE.exec(from);
  const t = f && MODULE_FILE.exec(to);
  if (!t || f[1] === t[1] || SURFACE_FILES.has(t[2])) return undefined;
  return {
    message:
      "Module '{{from}}' imports '{{file}}' of module '{{to}}': a module imports only another's service.ts or surfaces ({{surfaces}}); move what both need to lib/ or db/, or into a surface of '{{to}}'.",
    data: { from: f[1], to: t[1], file: t[2], surfaces: [...SURFACE_FILES].join(', ') },
  };
}

const IMPORT_SOURCE = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** module → the other modules its non-test files import, read from disk (rebuilt when older than a second). */
let moduleGraph = { at: 0, edges: new Map() };
function modulesImportedBy() {
  if (Date.now() - moduleGraph.at < 1000) return moduleGraph.edges;
  const edges = new Map();
  const walk = (dir, mod) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path, mod);
      else if (/\.tsx?$/.test(entry.name) && !isTest(path)) {
        const text = readFileSync(join(ROOT, path), 'utf8');
        for (const [, source] of text.matchAll(IMPORT_SOURCE)) {
          const t = MODULE_FILE.exec(repoPath(resolve(join(ROOT, dirname(path)), source)));
          if (t && t[1] !== mod) edges.get(mod).add(t[1]);
        }
      }
    }
  };
  for (const entry of readdirSync(join(ROOT, MODULES_DIR), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    edges.set(entry.name, new Set());
    walk(`${MODULES_DIR}/${entry.name}`, entry.name);
  }
  moduleGraph = { at: Date.now(), edges };
  return edges;
}

/** The path of modules from `start` back to `goal` through the imports on disk, or undefined. */
function modulePath(start, goal) {
  const edges = modulesImportedBy();
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length > 0) {
    const path = queue.shift();
    for (const next of edges.get(path[path.length - 1]) ?? []) {
      if (next === goal) return [...path, next];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...path, next]);
      }
    }
  }
  return undefined;
}

/** A cycle between modules that an import from `from` to `to` closes (tests are left out: they use modules, no module uses them). */
export function brokenModuleCycle(from, to) {
  const f = MODULE_FILE.exec(from);
  const t = f && !isTest(from) && MODULE_FILE.exec(to);
  if (!t || f[1] === t[1]) return undefined;
  const back = modulePath(t[1], f[1]);
  if (!back) return undefined;
  return {
    message:
      "Module '{{from}}' imports module '{{to}}', which imports it back ({{cycle}}): no cycles between modules; move the shared part to lib/ or db/.",
    data: { from: f[1], to: t[1], cycle: [f[1], ...back].join(' → ') },
  };
}

const layerImports = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Imports follow the layers: no feature imports another; shared code imports no feature, app or module; the contract imports no app.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          allow: {
            description: 'Known violations left for later, each { file, import } as written (file: repository path).',
            type: 'array',
            items: {
              type: 'object',
              properties: { file: { type: 'string' }, import: { type: 'string' } },
              required: ['file', 'import'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = repoPath(context.filename);
    const allowed = new Set((context.options[0]?.allow ?? []).filter((a) => a.file === file).map((a) => a.import));
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const to = importTarget(source.value, context.filename);
      if (to === undefined || allowed.has(source.value)) return;
      const broken = brokenLayerRule(file, to) ?? brokenModuleSurface(file, to) ?? brokenModuleCycle(file, to);
      if (broken) context.report({ node: source, message: broken.message, data: broken.data });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/**
 * Where SQL may be written in a server module: its repositories (`repository.ts`, `*-repository.ts`),
 * its shared reads (`queries.ts`, `*-queries.ts`), the stock ledger's writes (`ledger.ts`) and demo
 * data. Services hold rules and call those files; they may use Drizzle's and the schema's types only.
 */
const SQL_FILE = /^(?:(?:[a-z0-9-]+-)?(?:repository|queries)|ledger|demo-data)\.ts$/;
const SQL_SOURCE = /^drizzle-orm(?:\/|$)/;
const SCHEMA_FILE = /^apps\/server\/src\/db\/schema(?:\.ts|\/|$)/;

/** Whether `file` (a repository path) may write SQL: not a module file, a test, or a SQL file by name. */
export function mayWriteSql(file) {
  const m = MODULE_FILE.exec(file);
  return !m || isTest(file) || SQL_FILE.test(basename(m[2]));
}

/** A value import (not `import type`) of every specifier, or of a bare module. */
function importsValues(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return false;
  const specifiers = node.specifiers ?? [];
  return specifiers.length === 0 || specifiers.some((s) => s.importKind !== 'type' && s.exportKind !== 'type');
}

const sqlInRepositories = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL is written in repositories and queries, never in a service (docs/architecture.md).' },
    schema: [],
  },
  create(context) {
    const file = repoPath(context.filename);
    if (mayWriteSql(file)) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !importsValues(node)) return;
      const to = importTarget(source.value, context.filename);
      if (!SQL_SOURCE.test(source.value) && !(to !== undefined && SCHEMA_FILE.test(to))) return;
      context.report({
        node: source,
        message:
          "'{{file}}' imports '{{source}}': SQL belongs in the module's repository.ts or queries.ts (or a *-repository.ts); a service calls them and may import Drizzle's or the schema's types only (`import type`).",
        data: { file: basename(file), source: source.value },
      });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

/** One name part between dots: lower-case words of letters and digits joined by single hyphens. */
const KEBAB_PART = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Whether a file or folder name is kebab-case: every part between dots is (`stock-lookup.test.ts`,
 * `scan.worker.ts`, `vite.config.ts`); a leading dot is allowed (`.eslintrc`).
 */
export function isKebabName(name) {
  const parts = (name.startsWith('.') ? name.slice(1) : name).split('.');
  return parts.every((part) => KEBAB_PART.test(part));
}

const kebabCaseFileNames = {
  meta: {
    type: 'suggestion',
    docs: { description: 'File and folder names are kebab-case.' },
    schema: [],
  },
  create(context) {
    return {
      Program(node) {
        const path = repoPath(context.filename);
        if (path.startsWith('..')) return;
        const bad = path.split('/').find((name) => !isKebabName(name));
        if (bad !== undefined) {
          const what = bad === basename(path) ? 'File name' : 'Folder name';
          context.report({
            node,
            loc: { line: 1, column: 0 },
            message: `${what} '${bad}' is not kebab-case (lower-case words joined by hyphens, e.g. stock-lookup-page.tsx).`,
          });
        }
      },
    };
  },
};

/** JSX attributes whose text a person reads (or a screen reader says). */
const READ_ATTRIBUTES = new Set([
  'label',
  'placeholder',
  'title',
  'description',
  'alt',
  'error',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'message',
  'tooltip',
]);
/** Text with a letter in it: punctuation, digits and symbols ("·", "–", "%", "×") need no translation. */
const HAS_WORD = /\p{L}/u;

/**
 * No text in JSX that does not go through the catalogue (issue 29): a literal between tags, or in an
 * attribute a person reads (label, placeholder, title, aria-label…), is refused; `t('…')` is the way.
 * Names that are not words of a language (the product's name, a unit) are written in an expression:
 * `{'Floorhand'}` says it was meant.
 */
const noLiteralText = {
  meta: {
    type: 'problem',
    docs: { description: 'Text in JSX goes through t() so that every language gets it.' },
    schema: [],
  },
  create(context) {
    const report = (node, text) =>
      context.report({
        node,
        message: `Text '${text.trim().slice(0, 40)}' is not translated: write {t('…')} (locales/en.json gets the key from npm run i18n:extract).`,
      });
    return {
      JSXText(node) {
        if (HAS_WORD.test(node.value)) report(node, node.value);
      },
      JSXAttribute(node) {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : undefined;
        if (!name || !READ_ATTRIBUTES.has(name) || !node.value) return;
        if (node.value.type === 'Literal' && typeof node.value.value === 'string' && HAS_WORD.test(node.value.value))
          report(node.value, node.value.value);
      },
    };
  },
};

export default {
  meta: { name: 'floorhand' },
  rules: {
    'layer-imports': layerImports,
    'kebab-case-file-names': kebabCaseFileNames,
    'sql-in-repositories': sqlInRepositories,
    'no-literal-text': noLiteralText,
  },
};
