import {
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineTheme,
  type MantineThemeOverride,
  type VariantColorsResolver,
} from '@mantine/core';
import { MIN_TOUCH_TARGET_PX, UI_BREAKPOINTS } from '@floorhand/contract/constants';
import type { Brand } from './site-store.ts';
import { darkenedTo, DEFAULT_PRIMARY, readableOnDarkShade, readableShade, shadesOf as shadesOfHex } from './brand-colors.ts';

/** Ten shades around a brand colour (index 6 is the colour itself), as Mantine expects. */
export const shadesOf = (hex: string): MantineColorsTuple | undefined => shadesOfHex(hex) as MantineColorsTuple | undefined;

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

/** `closeLabel`: the close buttons' name for a screen reader, in the screen's language. */
export function brandTheme(brand: Brand, closeLabel = 'Close'): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 6,
    colors: brandColors(brand),
    breakpoints: {
      xs: '30em',
      sm: `${UI_BREAKPOINTS.sm / 16}em`,
      md: `${UI_BREAKPOINTS.md / 16}em`,
      lg: `${UI_BREAKPOINTS.lg / 16}em`,
      xl: `${UI_BREAKPOINTS.xl / 16}em`,
    },
    defaultRadius: 'md',
    variantColorResolver: readableVariants,
    components: {
      Button: { defaultProps: { size: 'md', color: 'clickPrimary' }, styles: { root: { minHeight: MIN_TOUCH_TARGET_PX } } },
      Input: { styles: { input: { minHeight: MIN_TOUCH_TARGET_PX } } },
      TextInput: { defaultProps: { size: 'md' } },
      PasswordInput: {
        defaultProps: { size: 'md' },
        styles: {
          innerInput: { minHeight: MIN_TOUCH_TARGET_PX },
          visibilityToggle: { minWidth: MIN_TOUCH_TARGET_PX, minHeight: MIN_TOUCH_TARGET_PX },
        },
      },
      // Handhelds type numbers on their keypad; the tiny step arrows would be the only small targets.
      NumberInput: { defaultProps: { size: 'md', hideControls: true } },
      Checkbox: { defaultProps: { size: 'md' }, styles: { body: { minHeight: MIN_TOUCH_TARGET_PX, alignItems: 'center' } } },
      Switch: { defaultProps: { size: 'md' }, styles: { body: { minHeight: MIN_TOUCH_TARGET_PX, alignItems: 'center' } } },
      Burger: { styles: { root: { minWidth: MIN_TOUCH_TARGET_PX, minHeight: MIN_TOUCH_TARGET_PX } } },
      Anchor: { styles: { root: { minHeight: MIN_TOUCH_TARGET_PX, display: 'inline-flex', alignItems: 'center' } } },
      // Every dialog's and drawer's close button has a name a screen reader can say.
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
      // And every notification's (notifications.show renders a Notification with the theme's props).
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
    },
  });
}

/** The shade of a theme colour as a CSS variable. */
const shadeVariable = (color: string, shade: number) => `var(--mantine-color-${color}-${Math.min(shade, 9)})`;

/** The light scheme's primary shade (brandTheme gives one number for both schemes). */
const lightPrimaryShade = (theme: MantineTheme): number =>
  typeof theme.primaryShade === 'number' ? theme.primaryShade : theme.primaryShade.light;

/**
 * A colour's text colour (`c="red"`, the text of light, outline and subtle variants) in each scheme:
 * on white its first shade from the primary one that reads at 5:1 (5 for the light variant's tinted
 * background), a darker tone where no shade is dark enough; on the dark page the darkest shade from 4
 * down that reads at 4.5:1 (brand-colors.ts readableOnDarkShade), so an admin's dark brand colour
 * reads as a lighter tint of itself.
 */
function textColors(theme: MantineTheme, color: string): { light: string; dark: string } | undefined {
  const tuple = theme.colors[color];
  if (!Array.isArray(tuple)) return undefined;
  const shade = readableShade(tuple, lightPrimaryShade(theme), 5);
  return {
    light: shade === undefined ? darkenedTo(tuple[9] ?? '#000000', 5) : shadeVariable(color, shade),
    dark: shadeVariable(color, readableOnDarkShade(tuple)),
  };
}

/**
 * Readable text in both schemes (axe-core counts anything under 4.5:1 as serious):
 * - every theme colour's text colour (`--mantine-color-<name>-text`, textColors above), which
 *   `c="red"` and readableVariants use;
 * - dimmed text one shade darker than Mantine's on white (gray 7, 7.5:1, instead of gray 6 at
 *   3.3:1) and lighter on dark (dark-1 instead of dark-2): hints, greetings and the icon credit are
 *   read on a handheld in a bright hall;
 * - field errors and links in the colours' text shades (red 9 on white; Mantine's red 8 and a dark
 *   brand's shade 4 fail on the dark page).
 */
export const floorCssVariables: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-text)',
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-text)',
    '--mantine-color-anchor': `var(--mantine-color-${theme.primaryColor}-text)`,
  };
  for (const color of Object.keys(theme.colors)) {
    const text = textColors(theme, color);
    if (!text) continue;
    light[`--mantine-color-${color}-text`] = text.light;
    dark[`--mantine-color-${color}-text`] = text.dark;
  }
  return { variables: {}, light, dark };
};

/**
 * Mantine's variant colours, made readable: white on filled green, yellow or a pale brand colour is
 * under 4.5:1 (axe-core: serious), and so is shade-6 text of light, outline and subtle variants on
 * white or a dark shade of it on the dark page. A colour named without a shade (`color="green"`)
 * fills with its first shade that carries white at 4.5:1 (black text where none does), and writes the
 * other variants in its text colour of the scheme (`--mantine-color-green-text`, floorCssVariables);
 * a shade named by hand (`green.9`) is kept.
 */
export const readableVariants: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme, colorScheme: 'light' });
  const tuple = input.theme.colors[parsed.color];
  if (!parsed.isThemeColor || parsed.shade !== undefined || !tuple || input.gradient) return base;
  switch (input.variant) {
    case 'filled': {
      const primary = lightPrimaryShade(input.theme);
      const shade = readableShade(tuple, primary, 4.5);
      if (shade === primary) return base;
      // No shade of it carries white text (green, yellow, lime): black text on the colour itself.
      if (shade === undefined) return { ...base, color: 'var(--mantine-color-black)' };
      return {
        ...base,
        background: shadeVariable(parsed.color, shade),
        hover: shadeVariable(parsed.color, shade + 1),
        color: 'var(--mantine-color-white)',
      };
    }
    case 'light':
    case 'outline':
    case 'subtle':
    case 'transparent': {
      const text = `var(--mantine-color-${parsed.color}-text)`;
      return { ...base, color: text, ...(input.variant === 'outline' ? { border: `1px solid ${text}` } : {}) };
    }
    default:
      return base;
  }
};
