// Floorhand's layer boundaries and file-name rule, as a local ESLint plugin (docs/architecture.md).
// Each import is resolved against the importing file's path (relative imports) or the workspace it
// names (`@floorhand/contract/...`), and checked against the layer rules below.
import { basename, dirname, relative, resolve, sep } from 'node:path';
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
      const broken = brokenLayerRule(file, to);
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

export default {
  meta: { name: 'floorhand' },
  rules: { 'layer-imports': layerImports, 'kebab-case-file-names': kebabCaseFileNames },
};
