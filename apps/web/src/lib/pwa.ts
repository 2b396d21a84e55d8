import { create } from 'zustand';
import type { RegisterSWOptions } from 'virtual:pwa-register';

// The installed app's service worker (sw.js, written by vite-plugin-pwa: apps/web/vite.config.ts;
// registered by lib/pwa-register.ts) and its updates (docs/offline.md, "Installing and the app
// offline"). A new version installs beside the running one and waits: the shell offers it ("Update
// ready — reload", app/update-banner.tsx) and it is applied only when the worker presses Reload,
// never in the middle of a task.

/** How often an open app asks the server whether there is a new version (a handheld stays open all shift). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

interface AppUpdateState {
  /** A new version is installed and waits for the worker to press Reload. */
  ready: boolean;
  /** Applies the waiting version: it takes over and this page reloads. */
  apply: () => void;
}

export const useAppUpdate = create<AppUpdateState>(() => ({ ready: false, apply: () => undefined }));

type RegisterSW = (options: RegisterSWOptions) => (reloadPage?: boolean) => Promise<void>;

interface UpdateOptions {
  reload?: () => void;
  checkEveryMs?: number;
  isOnline?: () => boolean;
}

/**
 * Registers the worker with `registerSW` (virtual:pwa-register) and wires its updates to useAppUpdate.
 * When another tab applies the new version, it takes this page over too (one worker per origin); this
 * page does not reload then: it keeps its banner, and its Reload just reloads.
 */
export function startServiceWorker(
  registerSW: RegisterSW,
  { reload = () => window.location.reload(), checkEveryMs = UPDATE_CHECK_MS, isOnline = () => navigator.onLine }: UpdateOptions = {},
): void {
  let applying = false;
  let takenOver = false;
  const apply = () => {
    if (takenOver) return reload();
    applying = true;
    // Tells the waiting worker to skip waiting; its taking over reloads this page (onNeedReload).
    void updateServiceWorker(true);
  };
  const updateServiceWorker = registerSW({
    onNeedRefresh: () => useAppUpdate.setState({ ready: true, apply }),
    onNeedReload: () => {
      if (applying) reload();
      else takenOver = true;
    },
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      setInterval(() => {
        if (isOnline()) registration.update().catch(() => undefined);
      }, checkEveryMs);
    },
  });
}
