import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n.ts';
import { followLanguage } from './lib/language.ts';
import { ApiError, call } from './lib/api.ts';
import { isAuthenticated, useAuthStore } from './lib/auth-store.ts';
import { useSiteStore, type Brand } from './lib/site-store.ts';
import { useDialogStore } from './components/dialogs/dialog-store.ts';
import { LoginShell } from './app/login-shell.tsx';
import { registerServiceWorker } from './lib/pwa-register.ts';
import { isUnreachable } from '@floorhand/contract/offline';
import { onServerReached } from './lib/offline/connection.ts';
import { keepSite, restoreSite } from './lib/site-cache.ts';

// The first load is the login page alone (React, i18next and the page: no Mantine, router, query
// cache or zod); the whole app is a chunk of its own (app/whole-app.tsx), loaded at once when this
// device is logged in or opens any other page, and otherwise after the login.

// The installed app's service worker: the production build only, registered once the page has loaded.
registerServiceWorker();

const root = createRoot(document.getElementById('root')!);

/** The whole app's chunk, fetched once (from the login page: as the login starts, beside its request). */
const loadWholeApp = () => import('./app/whole-app.tsx');
let whole: Promise<void> | undefined;
/** Loads and shows the whole app, once; later calls share the first. */
const showWholeApp = (opts: { resumeSession?: boolean; to?: string } = {}): Promise<void> =>
  (whole ??= loadWholeApp().then((m) => m.mountWholeApp(root, opts)));

/**
 * Resolves the site from the host name and loads what the landing page shows before login. What it
 * found is kept (site_cache): a start with the server out of reach (issue 27: an offline reload) goes
 * on with it, and the site is resolved again as soon as the server answers.
 */
async function resolveSite(): Promise<void> {
  const site = useSiteStore.getState();
  try {
    const res = await call('site/resolve', { hostname: window.location.hostname }, { suppress: /.*/ });
    if (res.site) site.set({ siteId: res.site.siteId, orgId: res.site.orgId, trustedDomains: res.site.trustedDomains, error: null });
    const [client, brand] = await Promise.allSettled([
      call('site/getData', { section: 'conf', dataId: 'client' }, { suppress: /.*/ }),
      call('site/getData', { section: 'brand', dataId: 'brand' }, { suppress: /.*/ }),
    ]);
    site.set({
      clientConf: client.status === 'fulfilled' ? (client.value.siteData?.data ?? {}) : {},
      brand: brand.status === 'fulfilled' ? ((brand.value.siteData?.data ?? {}) as Brand) : {},
    });
    if (res.site) keepSite();
  } catch (e) {
    if (e instanceof ApiError && isUnreachable(e.status) && restoreSite()) {
      const stop = onServerReached(() => {
        stop();
        void resolveSite();
      });
      return;
    }
    site.set({ error: e instanceof ApiError ? e.err.message : String(e) });
  }
}

// The first page shows once the site is known and the screen's language shows (the workstation's or
// the browser's before anyone logs in): a Spanish login page waits for its catalogue, no English flash.
void Promise.allSettled([resolveSite(), followLanguage()]).then(() => {
  if (isAuthenticated()) {
    void showWholeApp({ resumeSession: true });
    return;
  }
  if (useAuthStore.getState().authToken) useAuthStore.getState().clear();
  // Any other page goes through the router's guards (to the login page, with the page as pending).
  if (window.location.pathname !== '/') {
    void showWholeApp();
    return;
  }
  // A dialog (a refusal, an error) is shown by the whole app's dialog host.
  const unsubscribe = useDialogStore.subscribe((s) => {
    if (s.open.length === 0) return;
    unsubscribe();
    void showWholeApp();
  });
  root.render(
    <StrictMode>
      <LoginShell onLoggingIn={() => void loadWholeApp()} onLoggedIn={(to) => showWholeApp({ to })} />
    </StrictMode>,
  );
});
