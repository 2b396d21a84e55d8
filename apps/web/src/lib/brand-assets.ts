import { useEffect } from 'react';
import { FAVICON_SIZES } from '@floorhand/contract/constants';
import { useSiteStore, type Brand } from './site-store.ts';

// Where the brand's pictures are served (spec section 7: media/pic by org and media id; icons by site,
// org, media id and size), and the page head that shows them.

const part = encodeURIComponent;

export const mediaPicUrl = (orgId: string, mediaId: string): string => `/api/media/pic/${part(orgId)}/${part(mediaId)}`;

export const brandIconUrl = (siteId: string, orgId: string, mediaId: string, size: number): string =>
  `/api/media/pic/${part(siteId)}/${part(orgId)}/${part(mediaId)}/${size}`;

/** The brand logo, or the product's own before a site admin uploads one. */
export function brandLogoUrl(brand: Brand, orgId: string | null): string {
  return brand.logo?.mediaId && orgId ? mediaPicUrl(orgId, brand.logo.mediaId) : '/logo.svg';
}

/** Replaces the page's icon links with the brand's favicon sizes; the product icon stays when there are none. */
export function applyFavicon(brand: Brand, siteId: string | null, orgId: string | null, doc: Document = document): void {
  const icons = FAVICON_SIZES.flatMap((size) => {
    const mediaId = brand.favIcon?.[String(size) as `${typeof size}`]?.mediaId;
    return mediaId && siteId && orgId ? [{ size, href: brandIconUrl(siteId, orgId, mediaId, size) }] : [];
  });
  if (!icons.length) return;
  for (const old of doc.head.querySelectorAll('link[rel~="icon"], link[rel="apple-touch-icon"]')) old.remove();
  // Browsers pick the best size among the icon links; the largest is also the home-screen icon.
  const largest = icons[icons.length - 1]!;
  for (const { size, href, rel } of [...icons.map((i) => ({ ...i, rel: 'icon' })), { ...largest, rel: 'apple-touch-icon' }]) {
    const link = doc.createElement('link');
    link.rel = rel;
    link.setAttribute('sizes', `${size}x${size}`);
    link.href = href;
    doc.head.append(link);
  }
}

/** Keeps the favicon and the theme-color meta in step with the brand. */
export function useBrandHead(): void {
  const brand = useSiteStore((s) => s.brand);
  const siteId = useSiteStore((s) => s.siteId);
  const orgId = useSiteStore((s) => s.orgId);
  useEffect(() => {
    applyFavicon(brand, siteId, orgId);
    const themeColor = brand.colors?.headBg ?? brand.colors?.primary;
    if (themeColor) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', themeColor);
  }, [brand, siteId, orgId]);
}
