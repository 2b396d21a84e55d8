import { useSiteStore } from './site-store.ts';

// The site this page's host name resolved to, kept on the device (issue 27): an offline start (a
// reload with no network, the server down) knows its site, its trusted hosts and its brand, so the
// signed-in worker's requests carry their token when the server answers again.

const KEY = 'site_cache';

export function keepSite(): void {
  const { siteId, orgId, trustedDomains, brand, clientConf } = useSiteStore.getState();
  try {
    localStorage.setItem(KEY, JSON.stringify({ hostname: window.location.hostname, siteId, orgId, trustedDomains, brand, clientConf }));
  } catch {
    /* private mode or full: an offline start then shows the site error */
  }
}

/** Puts the kept site in the site store when it is this host's; whether it did. */
export function restoreSite(): boolean {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? 'null') as {
      hostname?: string;
      siteId?: string;
      orgId?: string;
      trustedDomains?: string[];
      brand?: object;
      clientConf?: object;
    } | null;
    if (!kept || kept.hostname !== window.location.hostname || typeof kept.siteId !== 'string' || !Array.isArray(kept.trustedDomains))
      return false;
    useSiteStore.getState().set({
      siteId: kept.siteId,
      orgId: kept.orgId ?? null,
      trustedDomains: kept.trustedDomains,
      brand: kept.brand ?? {},
      clientConf: (kept.clientConf ?? {}) as Record<string, unknown>,
      error: null,
    });
    return true;
  } catch {
    return false;
  }
}
