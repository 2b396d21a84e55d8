/*
 * What every inventory file shares that is not shared by the whole server: a call's parsed body type.
 * SQL helpers live in db/sql.ts, database error mapping in db/errors.ts, error answers in lib/errors.ts.
 */
import type { z } from 'zod';
import type { CallPath, calls } from '@floorhand/contract/api';

/** A call's body as the server sees it: parsed and transformed by its schema (quantities are bigint units). */
export type Body<P extends CallPath> = z.output<(typeof calls)[P]['body']>;
