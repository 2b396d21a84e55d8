// Roles and permissions (spec section 6): derived checks used by the web guards and the server alike.

import { tk } from './i18n.ts';

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

/**
 * A timekeeper: timeclockAdmin or an admin role. Timekeepers correct punches and set PINs (timeclock
 * calls), read labor reports and print anyone's staff badge.
 */
export const isTimekeeper = (perms: UserPerms): boolean => isAdmin(perms) || hasAnyRole(perms, ROLE.timeclockAdmin);

/**
 * Who may use the time clock (its page, its menu entry and its punches): a time-clock account, or an
 * admin (who sets the device up). Timekeepers who are no admin correct punches but do not punch for others.
 */
export const mayUseTimeclock = (perms: UserPerms): boolean => perms.timeclockAcct || isAdmin(perms);

/** The answer to anyone else at the time clock. */
export const TIMECLOCK_REFUSAL = tk('The time clock can only be used from designated timeclock accounts or administrative accounts.');
