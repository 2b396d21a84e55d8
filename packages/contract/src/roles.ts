import { z } from 'zod';
import { withErr, type callBase } from './common.ts';
import { tk } from './i18n.ts';

// Roles and feature access (docs/admin.md): the organisation's roles, who holds them, and which
// features each role gives on a site. The calls are spread into `calls` of api.ts (types only from it).

const GENERAL_ID = /^[A-Za-z0-9](?:[A-Za-z0-9_]*[A-Za-z0-9])?$/;
const GENERAL_ID_MESSAGE = tk(
  'must start with a letter or digit, may only contain letters (upper or lowercase), digits (0-9), underscores (_), and must end in a letter or digit.',
);

export const roleNameSchema = z.string().min(1).max(40).regex(GENERAL_ID, GENERAL_ID_MESSAGE);
/** Feature access rows under this role apply to everyone. */
export const EVERYONE = '*';

export const roleSchema = z.object({
  name: z.string(),
  description: z.string(),
  builtIn: z.boolean(),
  holders: z.array(
    z.object({ accountId: z.string(), userName: z.string(), fullName: z.string(), siteId: z.string(), active: z.boolean() }),
  ),
});
export type Role = z.infer<typeof roleSchema>;

export const storedLevel = z.union([z.literal(0), z.literal(1)]);
/** What a feature access cell accepts: null default, 0 None, 1 Full; R and W read as Full. */
export const levelInput = z.union([z.literal(0), z.literal(1), z.null(), z.literal('R'), z.literal('W')]);
export const featureLevelsSchema = z.record(z.string(), z.record(z.string(), storedLevel));
export const featureGridSchema = z.object({
  features: z.array(z.string()),
  /** '*' (Everyone) first, then the organisation's roles. */
  roles: z.array(z.string()),
  /** Only the cells that are not default. */
  levels: featureLevelsSchema,
});
export type FeatureGrid = z.infer<typeof featureGridSchema>;

/** The role and feature-access calls, built on common.ts's callBase. */
export function rolesCalls(base: typeof callBase) {
  return {
    'admin/role/list': { locId: undefined, auth: 'required', body: base, response: withErr({ roles: z.array(roleSchema).optional() }) },
    'admin/role/create': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ name: roleNameSchema, description: z.string().max(200).default('') }),
      response: withErr({ role: roleSchema.optional() }),
    },
    'admin/role/rename': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ name: roleNameSchema, newName: roleNameSchema, description: z.string().max(200).optional() }),
      response: withErr({ role: roleSchema.optional() }),
    },
    'admin/role/remove': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ name: roleNameSchema }),
      /** How many accounts (per site) lost the role. */
      response: withErr({ removedFrom: z.number().int().optional() }),
    },
    'admin/featureAccess/get': {
      locId: undefined,
      auth: 'required',
      body: base,
      response: withErr({ grid: featureGridSchema.optional() }),
    },
    'admin/featureAccess/put': {
      locId: undefined,
      auth: 'required',
      /** The whole grid of the site: cells left out (or null) are default. */
      body: base.extend({ levels: z.record(z.string().max(40), z.record(z.string().max(80), levelInput)) }),
      response: withErr({ grid: featureGridSchema.optional() }),
    },
  } as const;
}
