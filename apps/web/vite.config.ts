import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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
        writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
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

// In development the API and the socket are proxied to the server on 8080.
export default defineConfig({
  plugins: [zodJitless(), react(), precompress()],
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
