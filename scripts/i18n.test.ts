import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { englishCatalogue, extractKeys, LANGUAGES, readCatalogue } from './i18n-extract.mjs';
import { compileCatalogue, translateText } from '../packages/contract/src/i18n.ts';

type Catalogue = Record<string, string>;
/** The names of a text's holes, each once: a translation may use a hole twice (a plural ending) or in another order. */
const holes = (text: string) => [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))].sort();

describe('the catalogues (issue 29)', () => {
  const en = readCatalogue('en') as Catalogue;

  it('en.json lists every text in the source, and nothing else (npm run i18n:extract writes it)', () => {
    expect(en).toEqual(englishCatalogue(extractKeys()));
  });

  for (const lang of (LANGUAGES as string[]).filter((l) => l !== 'en')) {
    it(`${lang}.json has exactly the keys of en.json, each translated with the same {{holes}}`, () => {
      const other = readCatalogue(lang) as Catalogue;
      expect(
        Object.keys(other).filter((k) => !Object.hasOwn(en, k)),
        'keys only in ' + lang,
      ).toEqual([]);
      expect(
        Object.keys(en).filter((k) => !Object.hasOwn(other, k)),
        'keys missing in ' + lang,
      ).toEqual([]);
      const wrong = Object.entries(other).filter(
        ([k, v]) => typeof v !== 'string' || v.trim() === '' || holes(k).join() !== holes(v).join(),
      );
      expect(wrong, 'empty translations or holes that differ').toEqual([]);
    });
  }
});

describe('the extractor', () => {
  it('collects a text marked with tk in a helper, a template literal becoming a key with numbered holes', () => {
    // apps/server/src/modules/items/service.ts: trackingLocked = (partNumber) => tk(`The tracking of '${partNumber}' cannot change…`).
    expect(extractKeys().get("The tracking of '{{0}}' cannot change while it has stock on hand")).toMatch(
      /^apps\/server\/src\/modules\/items\/service\.ts:/,
    );
  });
});

describe('translateText', () => {
  const compiled = compileCatalogue({
    Quantity: 'Cantidad',
    "The task '{{0}}' is not active": "La tarea '{{0}}' no está activa",
    "'{{0}}' is in '{{1}}' already": "'{{1}}' ya contiene '{{0}}'",
    "'{{0}}' is required": "'{{0}}' es obligatorio",
  });
  it('translates exact texts, fills holes in any order, translates a hole that is a known text, and leaves the rest', () => {
    expect(translateText(compiled, 'Quantity')).toBe('Cantidad');
    expect(translateText(compiled, "The task 'PICK' is not active")).toBe("La tarea 'PICK' no está activa");
    expect(translateText(compiled, "'P-1' is in 'A-01' already")).toBe("'A-01' ya contiene 'P-1'");
    expect(translateText(compiled, "'Quantity' is required")).toBe("'Cantidad' es obligatorio");
    expect(translateText(compiled, 'Something else')).toBe('Something else');
  });
});
