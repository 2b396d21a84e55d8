import { StrictMode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import { router } from './router.tsx';
import { retryOnce } from '../lib/api.ts';
import { brandTheme, floorCssVariables } from '../lib/brand-theme.ts';
import { sessionColorSchemeManager } from '../lib/color-scheme.ts';
import { watchConnection } from '../lib/offline-cache/connection.ts';
import { startReadCache } from '../lib/offline-cache/read-cache.ts';
import { onPersonEnds, resume } from '../lib/session.ts';
import { forgetAccountLanguage, languageShown } from '../lib/language.ts';
import { onReplayed } from '../lib/offline/outbox.ts';
import { useSiteStore } from '../lib/site-store.ts';
import { useNarrow } from '../lib/use-narrow.ts';
import { followScreenLanguage } from '../lib/zod-language.ts';

// The whole app: Mantine, the router, the query cache and the work areas. main.tsx loads it at once
// for a logged-in device or any page but the login page, and after the login otherwise.

followScreenLanguage();
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryOnce, staleTime: 30_000 } } });
// Answers are a person's: when the person of the session changes (a kiosk worker comes or goes, a
// logout), the cache and the notices go with them, and whatever the next person opens is asked again.
// A queued action the server took: what the screens show is asked again (once for a burst of replays).
let replayedTimer: ReturnType<typeof setTimeout> | null = null;
onReplayed(() => {
  replayedTimer ??= setTimeout(() => {
    replayedTimer = null;
    void queryClient.invalidateQueries();
  }, 300);
});
onPersonEnds(() => {
  void queryClient.cancelQueries();
  queryClient.clear();
  notifications.clean();
});
// Their language too: the next person's screen is not in the last one's choice (lib/language.ts).
onPersonEnds(forgetAccountLanguage);
// What a worker is in the middle of stays readable offline: the work areas' answers are kept in
// IndexedDB for the person of the session (lib/offline-cache/read-cache.ts).
watchConnection(queryClient);
const readCache = startReadCache(queryClient);
/** How long the first page waits for the cached answers (a slow IndexedDB must not hold the app). */
const RESTORE_WAIT_MS = 1_500;

/**
 * Notices at the top on a desk; at the bottom on a handheld, where the top holds the scan field and
 * the step a worker is on (a notice there hid what to scan next).
 */
function FloorNotifications() {
  const narrow = useNarrow();
  return <Notifications autoClose={NOTIFICATION_TIMEOUT_MS} position={narrow ? 'bottom-center' : 'top-center'} zIndex={8500} />;
}

/** Light, dark or the device's: the session person's choice (lib/color-scheme.ts). One for the app's life. */
const colorSchemeManager = sessionColorSchemeManager();

function App() {
  const brand = useSiteStore((s) => s.brand);
  const { t } = useTranslation();
  const close = t('Close');
  const theme = useMemo(() => brandTheme(brand, close), [brand, close]);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={floorCssVariables}
    >
      <FloorNotifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

export interface MountOptions {
  /** A stored login is resumed (the session read again) before the first page shows. */
  resumeSession?: boolean;
  /** The page to go to once shown (after a login on the login page: the pending route or home). */
  to?: string;
}

export async function mountWholeApp(root: Root, { resumeSession, to }: MountOptions): Promise<void> {
  if (resumeSession) await resume().catch(() => undefined);
  // The resumed account's language (their preferences just loaded) shows from the first page.
  await languageShown();
  await Promise.race([readCache.ready, new Promise((r) => setTimeout(r, RESTORE_WAIT_MS))]);
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  if (to) await router.navigate({ href: to, replace: true });
}
