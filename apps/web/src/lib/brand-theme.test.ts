import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { brandTheme, floorCssVariables, readableVariants } from './brand-theme.ts';
import { contrastRatio, DARK_SURFACES, readableShade } from './brand-colors.ts';

type Scheme = 'light' | 'dark';
const variablesOf = (theme: typeof DEFAULT_THEME) => floorCssVariables(theme) as Record<Scheme, Record<string, string>>;

/** A colour as the scheme draws it: a colour's text variable (floorCssVariables), a shade, or the filled colour (shade 6). */
const asHex = (color: string, theme: typeof DEFAULT_THEME, scheme: Scheme = 'light'): string => {
  const text = /var\((--mantine-color-\w+-text)\)/.exec(color);
  if (text) return asHex(variablesOf(theme)[scheme][text[1]!]!, theme, scheme);
  const m = /--mantine-color-(\w+)-(\d|filled)\b/.exec(color);
  return m ? theme.colors[m[1]!]![m[2] === 'filled' ? 6 : Number(m[2])]! : color;
};

describe('readable colours (axe-core colour contrast)', () => {
  it('measures the WCAG contrast ratio', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });

  it('finds the first shade that carries white text at 4.5:1', () => {
    const blue = DEFAULT_THEME.colors.blue;
    const shade = readableShade(blue, 6, 4.5)!;
    expect(shade).toBeGreaterThan(6);
    expect(contrastRatio(blue[shade]!, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(readableShade(DEFAULT_THEME.colors.dark, 6, 4.5)).toBe(6);
    expect(readableShade(DEFAULT_THEME.colors.yellow, 6, 4.5)).toBeUndefined();
  });

  it('gives the light badge of green a text shade that reads on white, and leaves a hand-picked shade alone', () => {
    const theme = mergeMantineTheme(DEFAULT_THEME, brandTheme({}));
    for (const color of ['green', 'yellow', 'orange', 'cyan', 'teal', 'blue', 'red', 'brand']) {
      const light = readableVariants({ color, theme, variant: 'light' });
      expect(contrastRatio(asHex(light.color, theme), '#ffffff'), `${color} light`).toBeGreaterThanOrEqual(5);
      const filled = readableVariants({ color, theme, variant: 'filled' });
      const text = filled.color.includes('black') ? '#000000' : '#ffffff';
      expect(contrastRatio(asHex(filled.background, theme), text), `${color} filled`).toBeGreaterThanOrEqual(4.5);
    }
    expect(readableVariants({ color: 'green.3', theme, variant: 'light' })).toEqual(
      readableVariants({ color: 'green.3', theme: DEFAULT_THEME, variant: 'light' }),
    );
  });

  it('writes every colour, the error and the links readably on the dark page and its controls', () => {
    // A dark navy brand: its shade 4 does not read on the dark page; a lighter tint of it does.
    const theme = mergeMantineTheme(DEFAULT_THEME, brandTheme({ colors: { primary: '#0b1f4a', accent: '#3a0a0a' } }));
    const { dark } = variablesOf(theme);
    for (const color of ['green', 'yellow', 'orange', 'red', 'blue', 'gray', 'dark', 'brand', 'accent']) {
      const light = readableVariants({ color, theme, variant: 'light' });
      for (const surface of DARK_SURFACES) {
        expect(contrastRatio(asHex(light.color, theme, 'dark'), surface), `${color} on ${surface}`).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(dark['--mantine-color-brand-text']).not.toBe('var(--mantine-color-brand-4)');
    for (const name of ['--mantine-color-error', '--mantine-color-anchor']) {
      expect(contrastRatio(asHex(dark[name]!, theme, 'dark'), DARK_SURFACES[0]), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps the light scheme text colours readable on white', () => {
    const theme = mergeMantineTheme(DEFAULT_THEME, brandTheme({}));
    const { light } = variablesOf(theme);
    expect(light['--mantine-color-red-text']).toBe('var(--mantine-color-red-9)');
    for (const color of ['green', 'yellow', 'orange', 'red', 'blue', 'gray', 'brand']) {
      expect(contrastRatio(asHex(`var(--mantine-color-${color}-text)`, theme), '#ffffff'), color).toBeGreaterThanOrEqual(5);
    }
  });
});
