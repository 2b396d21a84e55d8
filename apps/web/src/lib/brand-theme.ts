import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';
import { MIN_TOUCH_TARGET_PX, UI_BREAKPOINTS } from '@floorhand/contract/constants';
import type { Brand } from './site-store.ts';

function hexToRgb(hex: string): [number, number, number] | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) return undefined;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

const mix = (a: number, b: number, t: number) => Math.round(a + (b - a) * t);
const toHex = (rgb: number[]) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** Ten shades around a brand colour (index 6 is the colour itself), as Mantine expects. */
export function shadesOf(hex: string): MantineColorsTuple | undefined {
  const rgb = hexToRgb(hex);
  if (!rgb) return undefined;
  const tints = [0.92, 0.8, 0.65, 0.5, 0.35, 0.18].map((t) => toHex(rgb.map((c) => mix(c, 255, t))));
  const shades = [0.15, 0.3, 0.45].map((t) => toHex(rgb.map((c) => mix(c, 0, t))));
  return [...tints, toHex(rgb), ...shades] as unknown as MantineColorsTuple;
}

const DEFAULT_PRIMARY = '#1f6f8b';

/**
 * The brand's colours as Mantine colours: primary is the theme's primary colour ('brand'); the others
 * are named after the brand's keys (secondary, accent, positive, negative, info, warning,
 * clickPrimary, clickSecondary) so components can use them as `color="positive"`. clickPrimary is
 * the default colour of buttons. headFg and headBg colour the header (shell), dark the screen saver.
 */
export function brandColors(brand: Brand): Record<string, MantineColorsTuple> {
  const primary = shadesOf(brand.colors?.primary ?? DEFAULT_PRIMARY) ?? shadesOf(DEFAULT_PRIMARY)!;
  const out: Record<string, MantineColorsTuple> = { brand: primary, clickPrimary: primary };
  for (const key of ['secondary', 'accent', 'positive', 'negative', 'info', 'warning', 'clickPrimary', 'clickSecondary'] as const) {
    const tuple = brand.colors?.[key] ? shadesOf(brand.colors[key]) : undefined;
    if (tuple) out[key] = tuple;
  }
  return out;
}

export function brandTheme(brand: Brand): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 6,
    colors: brandColors(brand),
    breakpoints: { xs: '30em', sm: `${UI_BREAKPOINTS.sm / 16}em`, md: `${UI_BREAKPOINTS.md / 16}em`, lg: `${UI_BREAKPOINTS.lg / 16}em`, xl: `${UI_BREAKPOINTS.xl / 16}em` },
    defaultRadius: 'md',
    components: {
      Button: { defaultProps: { size: 'md', color: 'clickPrimary' }, styles: { root: { minHeight: MIN_TOUCH_TARGET_PX } } },
      Input: { styles: { input: { minHeight: MIN_TOUCH_TARGET_PX } } },
      TextInput: { defaultProps: { size: 'md' } },
      PasswordInput: { defaultProps: { size: 'md' }, styles: { innerInput: { minHeight: MIN_TOUCH_TARGET_PX }, visibilityToggle: { minWidth: MIN_TOUCH_TARGET_PX, minHeight: MIN_TOUCH_TARGET_PX } } },
      // Handhelds type numbers on their keypad; the tiny step arrows would be the only small targets.
      NumberInput: { defaultProps: { size: 'md', hideControls: true } },
      Checkbox: { defaultProps: { size: 'md' }, styles: { body: { minHeight: MIN_TOUCH_TARGET_PX, alignItems: 'center' } } },
      Switch: { defaultProps: { size: 'md' }, styles: { body: { minHeight: MIN_TOUCH_TARGET_PX, alignItems: 'center' } } },
      Burger: { styles: { root: { minWidth: MIN_TOUCH_TARGET_PX, minHeight: MIN_TOUCH_TARGET_PX } } },
      Anchor: { styles: { root: { minHeight: MIN_TOUCH_TARGET_PX, display: 'inline-flex', alignItems: 'center' } } },
      // Every dialog's and drawer's close button has a name a screen reader can say.
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    },
  });
}
