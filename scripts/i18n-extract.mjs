#!/usr/bin/env node
// Collects every text the app shows from the source and writes packages/contract/src/locales/en.json
// (each key to itself). `--check` writes nothing and fails when en.json is out of date or another
// language lacks a key; scripts/i18n.test.ts runs the same check.
//
// A key is the first argument, when it is written out, of:
// - `t('…')`, `i18n.t('…')`, `tk('…')` (a label kept in a constant), and `<Trans i18nKey="…">`;
// - the server's error makers (`badInput(…)`, `conflict(…)`…) and `tk(…)`, whose template literals
//   become keys with numbered holes: `The task '${code}' is not active` is "The task '{{0}}' is not
//   active" (a server message built in a helper or a constant is marked with tk where it is written);
//   each branch of a `cond ? … : …` argument is a key of its own.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const LOCALES_DIR = join(ROOT, 'packages/contract/src/locales');
const SOURCES = ['apps/web/src', 'apps/server/src', 'packages/contract/src'];
/** The server's error makers (apps/server/src/lib/errors.ts): their message is what a screen shows. */
const ERROR_MAKERS = new Set([
  'badInput',
  'unauthorized',
  'loginFailed',
  'badToken',
  'forbidden',
  'orgMismatch',
  'accountRestricted',
  'notFound',
  'unregistered',
  'siteUnknown',
  'conflict',
  'rateLimited',
  'countIncorrect',
  'dbError',
  'dupMessage',
]);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'test') yield* sourceFiles(path);
    } else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const calleeName = (expr) => (ts.isIdentifier(expr) ? expr.text : ts.isPropertyAccessExpression(expr) ? expr.name.text : undefined);

/** The keys an argument writes out: a text, or each branch of a `cond ? 'a' : 'b'`. */
function keysOf(node) {
  if (ts.isParenthesizedExpression(node)) return keysOf(node.expression);
  if (ts.isConditionalExpression(node)) return [...keysOf(node.whenTrue), ...keysOf(node.whenFalse)];
  const key = keyOf(node);
  return key === undefined ? [] : [key];
}

/** A written-out text as a key: template literals get numbered holes; anything else is not a key. */
function keyOf(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    let key = node.head.text;
    node.templateSpans.forEach((span, i) => {
      key += `{{${i}}}${span.literal.text}`;
    });
    return key;
  }
  return undefined;
}

/** Every key in the source, with the first place each was found. */
export function extractKeys() {
  const keys = new Map();
  const add = (key, file, node, sf) => {
    if (key === undefined || key.trim() === '' || keys.has(key)) return;
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    keys.set(key, `${relative(ROOT, file)}:${line + 1}`);
  };
  for (const base of SOURCES) {
    for (const file of sourceFiles(join(ROOT, base))) {
      const text = readFileSync(file, 'utf8');
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
      const visit = (node) => {
        if (ts.isCallExpression(node) && node.arguments.length > 0) {
          const name = calleeName(node.expression);
          const first = node.arguments[0];
          if (name === 't') {
            // t('…') with literal text only: a t(variable) translates a text marked elsewhere.
            if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) add(first.text, file, node, sf);
          } else if (name === 'tk' || ERROR_MAKERS.has(name)) for (const key of keysOf(first)) add(key, file, node, sf);
        }
        if (ts.isJsxAttribute(node) && node.name.getText(sf) === 'i18nKey' && node.initializer && ts.isStringLiteral(node.initializer)) {
          add(node.initializer.text, file, node, sf);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
  }
  return keys;
}

export const readCatalogue = (lang) => JSON.parse(readFileSync(join(LOCALES_DIR, `${lang}.json`), 'utf8'));
export const LANGUAGES = ['en', 'es'];

/** en.json as it should be: every key to itself, sorted. */
export function englishCatalogue(keys = extractKeys()) {
  return Object.fromEntries([...keys.keys()].sort().map((k) => [k, k]));
}

const json = (o) => `${JSON.stringify(o, null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const keys = extractKeys();
  const en = englishCatalogue(keys);
  if (process.argv.includes('--check')) {
    const stale = json(en) !== json(readCatalogue('en'));
    if (stale) console.error('packages/contract/src/locales/en.json is out of date: run npm run i18n:extract');
    let missing = 0;
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const other = readCatalogue(lang);
      for (const key of Object.keys(en)) {
        if (!Object.hasOwn(other, key)) {
          missing++;
          if (process.argv.includes('--list')) console.error(`${lang}: missing ${JSON.stringify(key)} (${keys.get(key)})`);
        }
      }
    }
    if (missing)
      console.error(`${missing} keys missing in other languages${process.argv.includes('--list') ? '' : ' (--list shows them)'}`);
    process.exit(stale || missing ? 1 : 0);
  }
  writeFileSync(join(LOCALES_DIR, 'en.json'), json(en));
  // Other languages: what is missing is counted, to translate.
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    let other = {};
    try {
      other = readCatalogue(lang);
    } catch {
      /* a new language */
    }
    // Sorted like en.json; with --prune, keys no longer in the source go.
    const gone = Object.keys(other).filter((k) => !Object.hasOwn(en, k));
    const prune = process.argv.includes('--prune');
    const kept = Object.fromEntries(
      Object.keys(other)
        .filter((k) => !prune || Object.hasOwn(en, k))
        .sort()
        .map((k) => [k, other[k]]),
    );
    writeFileSync(join(LOCALES_DIR, `${lang}.json`), json(kept));
    const todo = Object.keys(en).filter((k) => !Object.hasOwn(kept, k));
    console.log(
      `${lang}: ${Object.keys(kept).length} kept, ${gone.length} no longer used${prune ? ' (removed)' : ''}, ${todo.length} to translate`,
    );
  }
  console.log(`en: ${Object.keys(en).length} keys`);
}
