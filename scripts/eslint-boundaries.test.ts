// The layer boundaries and the file-name rule fail lint when broken: small in-memory files linted
// with the repository's own eslint.config.js (docs/architecture.md, "Boundaries").
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: resolve(root, 'eslint.config.js') });

/** The floorhand/* rules that `code` breaks when it sits at `file` (a repository path). */
async function broken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${file}: ${fatal.message}`);
  return messages.filter((m) => m.ruleId?.startsWith('floorhand/')).map((m) => m.ruleId!);
}

const LAYERS = 'floorhand/layer-imports';
const NAMES = 'floorhand/kebab-case-file-names';

describe('layer boundaries', { timeout: 30_000 }, () => {
  it('refuses a feature importing another feature', async () => {
    expect(
      await broken(
        'apps/web/src/features/locations/components/fixture-list.tsx',
        "export { useLookupStock } from '../../stock-lookup/api/lookup-stock.ts';\n",
      ),
    ).toEqual([LAYERS]);
    expect(
      await broken(
        'apps/web/src/features/locations/components/fixture-list.tsx',
        "export const load = () => import('../../admin/roles-page.tsx');\n",
      ),
    ).toEqual([LAYERS]);
  });

  it('refuses web ↔ server imports in both directions (they share only the contract)', async () => {
    expect(await broken('apps/web/src/lib/api.ts', "import { loadConfig } from '../../../server/src/config.ts';\n")).toEqual([LAYERS]);
    expect(
      await broken('apps/web/src/features/locations/components/fixture-list.tsx', "import '@floorhand/server/src/db/schema.ts';\n"),
    ).toEqual([LAYERS]);
    expect(await broken('apps/server/src/modules/stock/service.ts', "import { api } from '../../../../web/src/lib/api.ts';\n")).toEqual([
      LAYERS,
    ]);
    expect(await broken('apps/print-agent/src/agent.ts', "import type { X } from '@floorhand/web/src/lib/api.ts';\n")).toEqual([LAYERS]);
    expect(await broken('apps/server/src/modules/stock/service.ts', "import { STOCK } from '@floorhand/contract/stock.ts';\n")).toEqual([]);
  });

  it('refuses a feature importing the app', async () => {
    expect(await broken('apps/web/src/features/locations/components/fixture-list.tsx', "import '../../../app/router.tsx';\n")).toEqual([
      LAYERS,
    ]);
  });

  it('refuses shared web code importing a feature or the app', async () => {
    expect(
      await broken('apps/web/src/components/ui/fixture-table.tsx', "import '../../features/locations/components/location-list.tsx';\n"),
    ).toEqual([LAYERS]);
    expect(await broken('apps/web/src/lib/fixture-api.ts', "export * from '../features/stock-lookup/api/lookup-stock.ts';\n")).toEqual([
      LAYERS,
    ]);
    expect(await broken('apps/web/src/lib/fixture-api.ts', "import '../app/router.tsx';\n")).toEqual([LAYERS]);
  });

  it('refuses server lib/ or db/ importing a module', async () => {
    expect(await broken('apps/server/src/lib/fixture-context.ts', "import '../modules/auth/repository.ts';\n")).toEqual([LAYERS]);
    expect(await broken('apps/server/src/db/fixture-seed.ts', "import '../modules/stock/service.ts';\n")).toEqual([LAYERS]);
  });

  it("refuses a server module importing another module's private files (tests too)", async () => {
    const refused: [string, string][] = [
      ['apps/server/src/modules/picking/fixture-service.ts', "import { orderById } from '../orders/repository.ts';\n"],
      ['apps/server/src/modules/shipping/fixture-service.ts', "export { toPick } from '../picking/repository.ts';\n"],
      ['apps/server/src/modules/kiosk/fixture-service.ts', "export const load = () => import('../timeclock/badge.ts');\n"],
      ['apps/server/src/modules/orders/fixture.test.ts', "import { seedDemoInventory } from '../stock/demo-data.ts';\n"],
    ];
    for (const [file, code] of refused) {
      expect(await broken(file, code), file).toEqual([LAYERS]);
    }
  });

  it('refuses an import that closes a cycle between modules', async () => {
    // picking imports orders (orders/queries.ts, orders/service.ts), so orders may not import picking
    expect(
      await broken('apps/server/src/modules/orders/fixture-service.ts', "import { activePicks } from '../picking/queries.ts';\n"),
    ).toEqual([LAYERS]);
    // a test is no part of the module graph: an orders test may drive picking
    expect(
      await broken('apps/server/src/modules/orders/fixture.test.ts', "import { activePicks } from '../picking/queries.ts';\n"),
    ).toEqual([]);
  });

  it('refuses the contract importing an app', async () => {
    expect(await broken('packages/contract/src/fixture-area.ts', "import '../../../apps/server/src/lib/errors.ts';\n")).toEqual([LAYERS]);
    expect(await broken('packages/contract/src/fixture-area.ts', "import '@floorhand/web/src/lib/api.ts';\n")).toEqual([LAYERS]);
  });

  it('allows the imports the layers permit', async () => {
    const allowed: [string, string][] = [
      // inside one feature, and a feature using shared code and the contract
      [
        'apps/web/src/features/locations/components/fixture-list.tsx',
        "import '../api/save-location.ts';\nimport '../../../components/ui/save-bar.tsx';\nimport '../../../lib/api.ts';\nimport '@floorhand/contract/constants';\n",
      ],
      // the app importing features (the work-area registry)
      [
        'apps/web/src/app/fixture-registry.tsx',
        "export const load = () => import('../features/locations/components/locations-page.tsx');\nimport '../components/ui/save-bar.tsx';\n",
      ],
      // shared web code importing shared web code
      ['apps/web/src/components/ui/fixture-table.tsx', "import '../../lib/api.ts';\nimport '../dialogs/dialog-store.ts';\n"],
      // a server module importing lib/, db/, its own files and other modules' surfaces; lib/ importing db/
      [
        'apps/server/src/modules/picking/fixture-routes.ts',
        "import '../../lib/errors.ts';\nimport '../../db/sql.ts';\nimport './repository.ts';\nimport '../orders/service.ts';\nimport '../orders/queries.ts';\nimport '../stock/ledger.ts';\n",
      ],
      ['apps/server/src/modules/csv-transfer/fixture-routes.ts', "import '../items/csv-plan.ts';\n"],
      ['apps/server/src/lib/fixture-write.ts', "import '../db/errors.ts';\nimport './errors.ts';\nimport '@floorhand/contract/api';\n"],
      // the contract importing itself and packages
      ['packages/contract/src/fixture-area.ts', "import './common.ts';\nimport 'zod';\n"],
    ];
    for (const [file, code] of allowed) expect(await broken(file, code), file).toEqual([]);
  });
});

describe('kebab-case file names', () => {
  it('refuses a file or folder name that is not kebab-case', async () => {
    for (const file of [
      'apps/web/src/features/locations/components/LocationList.tsx',
      'apps/web/src/lib/scan_utils.ts',
      'apps/server/src/modules/stockItems/service.ts',
      'e2e/StockLookup.spec.ts',
      'scripts/check--names.mjs',
    ]) {
      expect(await broken(file, 'export {};\n'), file).toEqual([NAMES]);
    }
  });

  it('allows kebab-case names with the usual extra dots', async () => {
    for (const file of [
      'apps/web/src/features/stock-lookup/components/stock-lookup-page.tsx',
      'apps/web/src/lib/scanning/decode.worker.ts',
      'apps/server/src/modules/stock/stock.test.ts',
      'e2e/stock-lookup.spec.ts',
      'e2e/playwright.config.ts',
      'bench/scan/run-2.mjs',
    ]) {
      expect(await broken(file, 'export {};\n'), file).toEqual([]);
    }
  });
});

describe('SQL only in repositories and queries', () => {
  const SQL = 'floorhand/sql-in-repositories';
  const SELECT = "import { eq } from 'drizzle-orm';\nimport { items } from '../../db/schema.ts';\nexport const q = [eq, items];\n";

  it('refuses a service (or any other module file) importing Drizzle or the schema as values', async () => {
    expect(await broken('apps/server/src/modules/fixture/service.ts', SELECT)).toEqual([SQL, SQL]);
    expect(await broken('apps/server/src/modules/fixture/csv-plan.ts', "import { sql } from 'drizzle-orm';\nexport { sql };\n")).toEqual([
      SQL,
    ]);
    expect(await broken('apps/server/src/modules/fixture/packing-list.ts', "import '../../db/schema/stock.ts';\n")).toEqual([SQL]);
  });

  it('allows type imports in a service, and SQL in repositories, queries, the ledger, demo data and tests', async () => {
    expect(
      await broken(
        'apps/server/src/modules/fixture/service.ts',
        "import type { SQL } from 'drizzle-orm';\nimport { type items } from '../../db/schema.ts';\nexport type T = [SQL, typeof items];\n",
      ),
    ).toEqual([]);
    for (const file of ['repository.ts', 'lookup-repository.ts', 'queries.ts', 'ledger.ts', 'demo-data.ts', 'fixture.test.ts']) {
      expect(await broken(`apps/server/src/modules/fixture/${file}`, SELECT), file).toEqual([]);
    }
    expect(await broken('apps/server/src/lib/site-data.ts', SELECT)).toEqual([]);
  });
});

describe('no untranslated text in JSX (issue 29)', () => {
  const TEXT = 'floorhand/no-literal-text';
  const FILE = 'apps/web/src/features/locations/components/fixture-card.tsx';
  const component = (jsx: string) => `export const Card = ({ t }: { t: (k: string) => string }) => (${jsx});\n`;

  it('refuses words between tags and in attributes a person reads', async () => {
    expect(await broken(FILE, component('<p>Save the count</p>'))).toEqual([TEXT]);
    expect(await broken(FILE, component('<input placeholder="Part number" aria-label="Part" />'))).toEqual([TEXT, TEXT]);
    expect(await broken(FILE, component('<button title="Búsqueda">{t("Go")}</button>'))).toEqual([TEXT]);
  });

  it('allows t(), punctuation and symbols, attributes nobody reads, and tests', async () => {
    expect(await broken(FILE, component('<p title={t("Save")}>{t("Save the count")} · 12 × 3 – 50%</p>'))).toEqual([]);
    expect(await broken(FILE, component('<input data-testid="part-number" type="text" name="part" />'))).toEqual([]);
    expect(await broken('apps/web/src/features/locations/components/fixture-card.test.tsx', component('<p>Save the count</p>'))).toEqual(
      [],
    );
  });
});
