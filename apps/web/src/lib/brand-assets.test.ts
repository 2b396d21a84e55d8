import { describe, expect, it } from 'vitest';
import { applyFavicon, brandLogoUrl } from './brand-assets.ts';
import { brandColors } from './brand-theme.ts';

describe('brand assets', () => {
  it('serves the logo by organisation and media id, or the product logo', () => {
    expect(brandLogoUrl({ logo: { mediaId: 'm-1' } }, 'demo')).toBe('/api/media/pic/demo/m-1');
    expect(brandLogoUrl({}, 'demo')).toBe('/logo.svg');
    expect(brandLogoUrl({ logo: { mediaId: 'm-1' } }, null)).toBe('/logo.svg');
  });

  it('replaces the icon links with one per brand size, plus the home-screen icon', () => {
    document.head.innerHTML = '<link rel="icon" href="/favicon.svg">';
    applyFavicon({ favIcon: { '16': { mediaId: 'a' }, '192': { mediaId: 'b' } } }, 'demo-main', 'demo');
    const links = [...document.head.querySelectorAll('link')].map((l) => [l.rel, l.getAttribute('sizes'), l.getAttribute('href')]);
    expect(links).toEqual([
      ['icon', '16x16', '/api/media/pic/demo-main/demo/a/16'],
      ['icon', '192x192', '/api/media/pic/demo-main/demo/b/192'],
      ['apple-touch-icon', '192x192', '/api/media/pic/demo-main/demo/b/192'],
    ]);
  });

  it('keeps the product icon while the brand has none', () => {
    document.head.innerHTML = '<link rel="icon" href="/favicon.svg">';
    applyFavicon({}, 'demo-main', 'demo');
    expect(document.head.querySelector('link')?.getAttribute('href')).toBe('/favicon.svg');
  });

  it('turns the brand colours into theme colours, primary and buttons from primary by default', () => {
    const colors = brandColors({ colors: { primary: '#aa3300', positive: '#00ff00', clickPrimary: 'not a colour' } });
    expect(colors.brand?.[6]).toBe('#aa3300');
    expect(colors.positive?.[6]).toBe('#00ff00');
    expect(colors.clickPrimary?.[6]).toBe('#aa3300');
    expect(colors.negative).toBeUndefined();
  });
});
