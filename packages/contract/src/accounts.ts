import { z } from 'zod';
import { withErr, type callBase } from './common.ts';
import { roleNameSchema } from './roles.ts';
import { tk } from './i18n.ts';

// Accounts (docs/admin.md): one's own account, the accounts of the organisation with their perms per
// site, passwords and service-account API keys. The calls are spread into `calls` of api.ts; this file
// imports api.ts for types only, so there is no import cycle at run time.

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

/** Why a new password is refused, or undefined when it is acceptable. The server checks the same. */
/**
 * What is wrong with the name fields of one's own account (My account), or undefined. A person shows
 * a first name on labels and in the header: it cannot be left blank (the spec's required message).
 */
export function myAccountProblem(fields: { firstName: string }): string | undefined {
  return fields.firstName.trim() === '' ? tk("'First name' must be provided") : undefined;
}

export function passwordProblem(password: string, userName?: string): string | undefined {
  if ([...password].length < PASSWORD_MIN) return tk(`The password must be at least ${PASSWORD_MIN} characters long.`);
  if ([...password].length > PASSWORD_MAX) return tk(`The password must not be longer than ${PASSWORD_MAX} characters.`);
  if (!password.trim()) return tk('The password must not be blank.');
  if (userName && password.toLowerCase() === userName.toLowerCase()) return tk('The password must not be the account name.');
  return undefined;
}

/** Service-account API keys: `fhk_<prefix>_<secret>`, the prefix public (it identifies the key), the secret shown once. */
export const API_KEY_PATTERN = /^fhk_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;
export const looksLikeApiKey = (token: string): boolean => token.startsWith('fhk_');

export const userNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._@-]*$/,
    tk('may only contain letters, digits, dots, underscores, @ and hyphens, and must start with a letter or digit'),
  );
const personName = z.string().trim().max(100);
const email = z.union([z.literal(''), z.email(tk('does not appear to be a valid email address')).max(200)]);
const badgeCode = z.union([
  z.literal(''),
  z.string().regex(/^[\x21-\x7e]{1,64}$/, tk('must be 1 to 64 printable ASCII characters without spaces')),
]);

export const sitePermsSchema = z.object({
  siteId: z.string().min(1).max(40),
  roles: z.array(roleNameSchema).max(50),
  kioskAcct: z.boolean(),
  timeclockAcct: z.boolean(),
  serviceAcct: z.boolean(),
});
export type SitePerms = z.infer<typeof sitePermsSchema>;

export const accountSchema = z.object({
  id: z.string(),
  userName: z.string(),
  firstName: z.string(),
  surnames: z.string(),
  email: z.string(),
  badgeCode: z.string(),
  active: z.boolean(),
  hasPassword: z.boolean(),
  apiKey: z.object({ prefix: z.string(), createdAt: z.string() }).nullable(),
  /** Per site of the organisation (a site admin sees only its own site). */
  perms: z.array(sitePermsSchema),
  /** May the caller change this account (a site admin may not change an organisation admin)? */
  editable: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountFieldsSchema = z.object({
  userName: userNameSchema,
  firstName: personName,
  surnames: personName,
  email,
  badgeCode,
});

const accountId = z.string().min(1).max(40);
const page = { offset: z.number().int().min(0).max(100_000).default(0), limit: z.number().int().min(1).max(100).default(50) };

/** The account calls, built on common.ts's callBase. */
export function accountsCalls(base: typeof callBase) {
  return {
    'account/me/get': { locId: undefined, auth: 'required', body: base, response: withErr({ account: accountSchema.optional() }) },
    'account/me/update': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ account: accountFieldsSchema.pick({ firstName: true, surnames: true, email: true }) }),
      response: withErr({ account: accountSchema.optional() }),
    },
    'account/me/changePassword': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ oldPassword: z.string().min(1).max(PASSWORD_MAX), newPassword: z.string().min(1).max(PASSWORD_MAX) }),
      response: withErr({}),
    },
    'admin/account/list': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ search: z.string().max(100).optional(), includeInactive: z.boolean().default(false), ...page }),
      response: withErr({ accounts: z.array(accountSchema).optional(), total: z.number().int().optional() }),
    },
    'admin/account/get': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ accountId }),
      response: withErr({ account: accountSchema.optional() }),
    },
    'admin/account/create': {
      locId: undefined,
      auth: 'required',
      /** A password is required unless the account is a service account on some site (it gets an API key instead). */
      body: base.extend({
        account: accountFieldsSchema,
        password: z.string().max(PASSWORD_MAX).optional(),
        perms: z.array(sitePermsSchema).max(50),
      }),
      response: withErr({ account: accountSchema.optional() }),
    },
    'admin/account/update': {
      locId: undefined,
      auth: 'required',
      /** Changes only what is given; `perms` replaces the perms of the sites it names. Deactivate with active false. */
      body: base.extend({
        accountId,
        account: accountFieldsSchema.extend({ active: z.boolean() }).partial().default({}),
        perms: z.array(sitePermsSchema).max(50).optional(),
      }),
      response: withErr({ account: accountSchema.optional() }),
    },
    'admin/account/setPassword': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ accountId, password: z.string().min(1).max(PASSWORD_MAX) }),
      response: withErr({}),
    },
    'admin/account/resetPassword': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ accountId }),
      /** A new random password, shown once for the admin to hand over. */
      response: withErr({ password: z.string().optional() }),
    },
    'admin/account/issueApiKey': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ accountId }),
      /** The key is shown this once; only its hash is stored. A new key replaces the old one. */
      response: withErr({ apiKey: z.string().optional(), account: accountSchema.optional() }),
    },
    'admin/account/revokeApiKey': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ accountId }),
      response: withErr({ account: accountSchema.optional() }),
    },
  } as const;
}
