import { StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import './lib/zod-config.ts';
import './lib/i18n.ts';
import { router } from './app/router.tsx';
import { ApiError, call, retryOnce } from './lib/api.ts';
import { isAuthenticated, useAuthStore } from './lib/auth-store.ts';
import { brandTheme, floorCssVariables } from './lib/brand-theme.ts';
import { resume } from './lib/session.ts';
import { useSiteStore, type Brand } from './lib/site-store.ts';

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryOnce, staleTime: 30_000 } } });

function App() {
  const brand = useSiteStore((s) => s.brand);
  const theme = useMemo(() => brandTheme(brand), [brand]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={floorCssVariables}>
      <Notifications autoClose={NOTIFICATION_TIMEOUT_MS} position="top-center" zIndex={8500} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** Resolves the site from the host name and loads what the landing page shows before login. */
async function bootstrap(): Promise<void> {
  const site = useSiteStore.getState();
  try {
    const res = await call('site/resolve', { hostname: window.location.hostname }, { suppress: /.*/ });
    if (res.site) site.set({ siteId: res.site.siteId, orgId: res.site.orgId, trustedDomains: res.site.trustedDomains });
    const [client, brand] = await Promise.allSettled([
      call('site/getData', { section: 'conf', dataId: 'client' }, { suppress: /.*/ }),
      call('site/getData', { section: 'brand', dataId: 'brand' }, { suppress: /.*/ }),
    ]);
    site.set({
      clientConf: client.status === 'fulfilled' ? (client.value.siteData?.data ?? {}) : {},
      brand: brand.status === 'fulfilled' ? ((brand.value.siteData?.data ?? {}) as Brand) : {},
    });
  } catch (e) {
    site.set({ error: e instanceof ApiError ? e.err.message : String(e) });
  }
  if (isAuthenticated()) await resume().catch(() => undefined);
  else if (useAuthStore.getState().authToken) useAuthStore.getState().clear();
}

void bootstrap().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
