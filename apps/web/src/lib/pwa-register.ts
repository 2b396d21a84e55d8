import { startServiceWorker } from './pwa.ts';

// Apart from lib/pwa.ts so that tests of the update flow need not resolve the build's virtual module.

/** Registers the service worker in the production build (not under `vite dev`), after the page has loaded. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void import('virtual:pwa-register').then(({ registerSW }) => startServiceWorker(registerSW)).catch(() => undefined);
}
