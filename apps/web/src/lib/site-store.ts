import { create } from 'zustand';

export interface Brand {
  siteName?: string;
  title?: string;
  logo?: { mediaId?: string };
  /** Favicons by size in px ('16' … '192'), see FAVICON_SIZES. */
  favIcon?: Partial<Record<'16' | '32' | '48' | '64' | '128' | '192', { mediaId?: string }>>;
  colors?: Partial<Record<'primary' | 'secondary' | 'accent' | 'dark' | 'positive' | 'negative' | 'info' | 'warning' | 'headFg' | 'headBg' | 'clickPrimary' | 'clickSecondary', string>>;
}

interface SiteState {
  siteId: string | null;
  orgId: string | null;
  trustedDomains: string[];
  brand: Brand;
  clientConf: Record<string, unknown>;
  /** Why the site could not be resolved, shown on the landing page. */
  error: string | null;
  set(p: Partial<Omit<SiteState, 'set'>>): void;
}

export const useSiteStore = create<SiteState>()((set) => ({
  siteId: null,
  orgId: null,
  trustedDomains: [],
  brand: {},
  clientConf: {},
  error: null,
  set: (p) => set(p),
}));

/** The last site this host resolved to, kept for a start while the server cannot be reached (issue 27). */
interface KnownSite {
  hostname: string;
  siteId: string;
  orgId: string;
  trustedDomains: string[];
}
const KNOWN_SITE_KEY = 'site_resolved';

/** Keeps the site a host resolved to (no person's data: the same for everyone on the device). */
export function rememberSite(site: KnownSite): void {
  try {
    localStorage.setItem(KNOWN_SITE_KEY, JSON.stringify(site));
  } catch {
    // Storage full or refused: an offline start then waits for the server, as before.
  }
}

/**
 * The site this host resolved to last time: an app reloaded offline (the service worker draws it)
 * still sends its token to the trusted hosts, so the outbox's replays are not refused as unsigned.
 */
export function knownSite(hostname: string): KnownSite | null {
  try {
    const site = JSON.parse(localStorage.getItem(KNOWN_SITE_KEY) ?? 'null') as KnownSite | null;
    return site && site.hostname === hostname && typeof site.siteId === 'string' && Array.isArray(site.trustedDomains) ? site : null;
  } catch {
    return null;
  }
}
