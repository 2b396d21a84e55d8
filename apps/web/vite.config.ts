import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { DEFAULT_PRIMARY } from './src/lib/brand-colors.ts';

/** What is worth compressing: text and wasm, above 1 KiB (source maps are for developers, left alone). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|wasm|txt)$/;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip 9) beside every compressible file of
 * the build, once, so the server sends them as they are (@fastify/static `preCompressed`) instead of
 * the raw bytes or compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'floorhand-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const raw = readFileSync(file);
        if (raw.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      }
    },
  };
}

/**
 * Every `import … from 'zod'` outside lib/zod-config.ts resolves to lib/zod-config.ts, which sets
 * zod's jitless mode and re-exports zod: the mode is set before the first schema is made, whatever
 * the order in which chunks load (a schema made before it would probe `new Function`, which the CSP
 * refuses).
 */
function zodJitless(): Plugin {
  const wrapper = fileURLToPath(new URL('./src/lib/zod-config.ts', import.meta.url));
  return {
    name: 'floorhand-zod-jitless',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'zod' || !importer || importer === wrapper) return null;
      return wrapper;
    },
  };
}

/** A chunk larger than this is fetched when first used and kept then, rather than precached at install. */
const PRECACHE_LIMIT = 10 * 1024 * 1024;

/**
 * The installable app (issue 27 item 1): the web app manifest and a Workbox service worker (sw.js)
 * that precaches the whole build (the shell and every work area's chunk, styles, wasm, fonts, icons),
 * answers a navigation to any route with the precached index.html (the server does the same for client
 * routes), and leaves /api/* and /socket.io/* to the network: no route of the worker matches them, so
 * it never answers them. A new version waits until the worker presses Reload (registerType 'prompt':
 * the worker skips waiting only on the page's SKIP_WAITING message; lib/pwa.ts registers it).
 * docs/decisions.md says why vite-plugin-pwa with generateSW.
 */
function installableApp(): Plugin[] {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    strategies: 'generateSW',
    filename: 'sw.js',
    manifestFilename: 'manifest.webmanifest',
    // The icons are in the build's precache list already (globPatterns).
    includeManifestIcons: false,
    manifest: {
      id: '/',
      name: 'Floorhand',
      short_name: 'Floorhand',
      description: 'Warehouse, inventory and labor tracking',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      theme_color: DEFAULT_PRIMARY,
      background_color: '#ffffff',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      // Everything the app draws with; not the .br/.gz twins (the server picks those by Accept-Encoding)
      // nor source maps.
      globPatterns: ['**/*.{js,mjs,css,html,wasm,svg,png,ico,woff,woff2,ttf}'],
      maximumFileSizeToCacheInBytes: PRECACHE_LIMIT,
      navigateFallback: 'index.html',
      navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/],
      // A chunk too large to precache (none today: the largest, zxing's wasm, is about 1 MB) is kept
      // once used, so it works offline after that; the index.html the server sends for a path it does
      // not have is never kept in its place.
      runtimeCaching: [
        {
          urlPattern: ({ url, sameOrigin }) => sameOrigin && /^\/assets\/[^/]+\.(js|mjs|css|wasm)$/.test(url.pathname),
          handler: 'CacheFirst',
          options: {
            cacheName: 'floorhand-large-assets',
            expiration: { maxEntries: 20 },
            plugins: [
              {
                cacheWillUpdate: async ({ response }) =>
                  response.ok && !(response.headers.get('content-type') ?? '').startsWith('text/html') ? response : null,
              },
            ],
          },
        },
      ],
      cleanupOutdatedCaches: true,
      // The first install takes the open page at once (nothing older to be out of step with), so the
      // first visit already works offline; a later version waits for the Reload button.
      clientsClaim: true,
      skipWaiting: false,
      sourcemap: false,
    },
  });
}

// In development the API and the socket are proxied to the server on 8080.
export default defineConfig({
  plugins: [zodJitless(), react(), installableApp(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:8080',
      '/socket.io': { target: 'ws://localhost:8080', ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1500 },
  worker: { format: 'es' },
});
