import type { Brand } from './site-store.ts';

// A brand's colours, worked out without Mantine: the login page (no Mantine) and the theme
// (brand-theme.ts) both use them.

export const DEFAULT_PRIMARY = '#1f6f8b';

export function hexToRgb(hex: string): [number, number, number] | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) return undefined;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

const mix = (a: number, b: number, t: number) => Math.round(a + (b - a) * t);
const toHex = (rgb: number[]) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** Ten shades around a brand colour (index 6 is the colour itself), as Mantine expects. */
export function shadesOf(hex: string): string[] | undefined {
  const rgb = hexToRgb(hex);
  if (!rgb) return undefined;
  const tints = [0.92, 0.8, 0.65, 0.5, 0.35, 0.18].map((t) => toHex(rgb.map((c) => mix(c, 255, t))));
  const shades = [0.15, 0.3, 0.45].map((t) => toHex(rgb.map((c) => mix(c, 0, t))));
  return [...tints, toHex(rgb), ...shades];
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminanceOf(hex: string): number {
  const rgb = hexToRgb(hex) ?? [0, 0, 0];
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminanceOf(a), luminanceOf(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The first shade from `from` to 9 that reads at `min`:1 against white, or undefined when none does. */
export function readableShade(tuple: readonly string[], from: number, min: number): number | undefined {
  for (let shade = from; shade <= 9; shade++) if (contrastRatio(tuple[shade] ?? '#000000', '#ffffff') >= min) return shade;
  return undefined;
}

/** `fg` laid over `bg` at `alpha` (a translucent tint as the eye sees it), as #rrggbb. */
export function blend(fg: string, bg: string, alpha: number): string {
  const [f, b] = [hexToRgb(fg) ?? [0, 0, 0], hexToRgb(bg) ?? [0, 0, 0]];
  return toHex(b.map((c, i) => mix(c, f[i]!, alpha)));
}

/**
 * What text sits on in the dark scheme: Mantine's page (dark-7), fields and default buttons (dark-6)
 * and a hovered one (dark-5).
 */
export const DARK_SURFACES = ['#242424', '#2e2e2e', '#3b3b3b'] as const;

/**
 * The darkest shade from `from` down to 0 that reads at `min`:1 on every dark surface and on the
 * colour's own light tint (Mantine's dark light variant: shade 4 at 15 % over the page): the text
 * colour of a colour in the dark scheme. A dark brand colour gets a lighter tint of itself.
 */
export function readableOnDarkShade(tuple: readonly string[], from = 4, min = 4.5): number {
  const surfaces = [...DARK_SURFACES, blend(tuple[4] ?? '#000000', DARK_SURFACES[0], 0.15)];
  for (let shade = from; shade > 0; shade--) {
    const text = tuple[shade] ?? '#000000';
    if (surfaces.every((bg) => contrastRatio(text, bg) >= min)) return shade;
  }
  return 0;
}

/** `hex` darkened towards black until it reads at `min`:1 against white. */
export function darkenedTo(hex: string, min: number): string {
  const rgb = hexToRgb(hex) ?? [0, 0, 0];
  for (let t = 0.1; t < 1; t += 0.1) {
    const darker = toHex(rgb.map((c) => mix(c, 0, t)));
    if (contrastRatio(darker, '#ffffff') >= min) return darker;
  }
  return '#000000';
}

/** The first shade of `hex` that reads at 4.5:1 against white: a button's background with white text, or black text on the colour itself. */
export function filledColors(hex: string): { bg: string; fg: string } {
  const tuple = shadesOf(hex) ?? shadesOf(DEFAULT_PRIMARY)!;
  const shade = readableShade(tuple, 6, 4.5);
  return shade === undefined ? { bg: tuple[6]!, fg: '#000000' } : { bg: tuple[shade]!, fg: '#ffffff' };
}

/** The header's and the main button's colours of a brand, as the shell and the theme give them. */
export function brandBasics(brand: Brand): { headBg: string; headFg: string; button: { bg: string; fg: string } } {
  const primary = brand.colors?.primary && hexToRgb(brand.colors.primary) ? brand.colors.primary : DEFAULT_PRIMARY;
  return {
    headBg: brand.colors?.headBg ?? shadesOf(primary)![6]!,
    headFg: brand.colors?.headFg ?? '#ffffff',
    button: filledColors(brand.colors?.clickPrimary ?? primary),
  };
}
