// Bundles the server into dist/server.js: our own workspaces are bundled, node_modules stay external.
import { build } from 'esbuild';

// The server, and the script sandbox's worker thread beside it (modules/records/script-worker.ts).
await build({
  entryPoints: { server: 'src/server.ts', 'sandbox-worker': 'src/modules/records/sandbox-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [
    {
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.kind === 'entry-point' || args.path.startsWith('@floorhand/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
