import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { brandTheme, readableVariants } from './brand-theme.ts';
import { contrastRatio, readableShade } from './brand-colors.ts';

const asHex = (color: string, theme: typeof DEFAULT_THEME) => {
  // A variable of a shade, or of the filled colour (the primary shade, 6).
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
});
