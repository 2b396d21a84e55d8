import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The login page loads alone (docs/decisions.md, "The login page loads alone"): what main.tsx
// imports statically must reach no Mantine, router, query cache or zod, or the login page's bytes
// grow back (bench/bundle measures them; this catches it in `npm test`). Dynamic imports and type
// imports are not followed: they are not in the first load.

const here = dirname(fileURLToPath(import.meta.url));
const contractSrc = resolve(here, '../../../packages/contract/src');
const FORBIDDEN = ['zod', '@mantine/', '@tanstack/react-router', '@tanstack/react-query', 'socket.io-client'];

/** Static value imports of a module's source (not `import type`, not `import()`). */
function staticImports(source: string): string[] {
  const specs: string[] = [];
  for (const m of source.matchAll(/^import\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  for (const m of source.matchAll(/^export\s+(?!type\b)[^'";]*?\sfrom\s+['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  return specs;
}

function resolveFile(from: string, spec: string): string | undefined {
  const base = spec.startsWith('@floorhand/contract/')
    ? join(contractSrc, spec.slice('@floorhand/contract/'.length))
    : spec.startsWith('.')
      ? resolve(dirname(from), spec)
      : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`].find((f) => existsSync(f) && /\.(ts|tsx)$/.test(f));
}

/** Every package the first load reaches, with the file that imports it. */
function packagesReached(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      const local = resolveFile(file, spec);
      if (local) queue.push(local);
      else if (!spec.startsWith('.') && !spec.startsWith('@floorhand/')) packages.set(spec, file);
    }
  }
  return packages;
}

describe('the login page loads alone', () => {
  it('main.tsx reaches no Mantine, router, query cache, socket or zod by static imports', () => {
    const reached = packagesReached(join(here, 'main.tsx'));
    const bad = [...reached].filter(([pkg]) => FORBIDDEN.some((f) => pkg === f || pkg.startsWith(f)));
    expect(bad.map(([pkg, file]) => `${pkg} (from ${file.slice(file.indexOf('/src/') + 1)})`)).toEqual([]);
    // It does reach React and i18next: the walk follows the imports at all.
    expect([...reached.keys()]).toEqual(expect.arrayContaining(['react', 'react-i18next']));
  });
});
