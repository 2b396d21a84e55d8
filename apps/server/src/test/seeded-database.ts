import { existsSync, readFileSync } from 'node:fs';

// Where the run's seeded database is (test/global-setup.ts), for the test apps to copy.

/** The file holding the PGlite dump of a migrated, seeded data folder. */
export const SEEDED_PGLITE_ENV = 'FLOORHAND_TEST_SEEDED_PGLITE';
/** The PostgreSQL template database, migrated and seeded. */
export const SEEDED_TEMPLATE_ENV = 'FLOORHAND_TEST_SEEDED_TEMPLATE';

/** The seeded PGlite dump, if this run made one (outside Vitest, e.g. a bench, none). */
export function seededPgliteDump(): Blob | undefined {
  const file = process.env[SEEDED_PGLITE_ENV];
  return file && existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** The seeded PostgreSQL template database's name, if this run made one. */
export function seededTemplate(): string | undefined {
  return process.env[SEEDED_TEMPLATE_ENV] || undefined;
}
