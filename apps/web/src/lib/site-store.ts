import { create } from 'zustand';

export interface Brand {
  siteName?: string;
  title?: string;
  logo?: { mediaId?: string };
  /** Favicons by size in px ('16' … '192'), see FAVICON_SIZES. */
  favIcon?: Partial<Record<'16' | '32' | '48' | '64' | '128' | '192', { mediaId?: string }>>;
  colors?: Partial<
    Record<
      | 'primary'
      | 'secondary'
      | 'accent'
      | 'dark'
      | 'positive'
      | 'negative'
      | 'info'
      | 'warning'
      | 'headFg'
      | 'headBg'
      | 'clickPrimary'
      | 'clickSecondary',
      string
    >
  >;
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
