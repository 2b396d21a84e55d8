// Roles and permissions (spec section 6): derived checks used by the web guards and the server alike.

export const ROLE = { siteAdmin: 'siteAdmin', orgAdmin: 'orgAdmin', timeclockAdmin: 'timeclockAdmin' } as const;
export const BUILT_IN_ROLES: readonly string[] = Object.values(ROLE);

export interface UserPerms {
  roles: string[];
  kioskAcct: boolean;
  timeclockAcct: boolean;
  serviceAcct: boolean;
}

export const NO_PERMS: UserPerms = { roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false };

export const hasAnyRole = (perms: UserPerms, ...roles: string[]): boolean => roles.some((r) => perms.roles.includes(r));
export const isSiteAdmin = (perms: UserPerms): boolean => hasAnyRole(perms, ROLE.siteAdmin);
export const isOrgAdmin = (perms: UserPerms): boolean => hasAnyRole(perms, ROLE.orgAdmin);
export const isAdmin = (perms: UserPerms): boolean => isSiteAdmin(perms) || isOrgAdmin(perms);
