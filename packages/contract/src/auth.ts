import type { UserPerms } from './perms.ts';

// What the auth token's payload holds. The client decodes it (after turning '!' back into '.') for
// its timers and guards; the server verifies the signature and reads rights from the database.

export interface AuthClaims {
  typ: 'auth';
  sub: string;
  org: string;
  site: string;
  app: string;
  /** Lifetime in seconds, kept across refreshes. */
  lt: number;
  stay: boolean;
  /** For the client's guards only; the server reads rights from the database on every call. */
  perms: UserPerms;
  /** The workstation logged in from, and what it is authorised for (home redirect rule 4). */
  ws: { id: string; timeclock: boolean; kiosk: boolean };
  jti: string;
  /**
   * The login this token continues: the first token's jti, kept across refreshes. A kiosk's worker
   * session (human token) is valid only with tokens of the login it was opened under.
   */
  sid?: string;
  exp: number;
  iat: number;
}

export interface SessionClaims {
  typ: 'session';
  sub: string;
  sid: string;
  site: string;
  app: string;
  exp: number;
}

export const toUrlSafe = (jwt: string): string => jwt.replaceAll('.', '!');
export const fromUrlSafe = (token: string): string => token.replaceAll('!', '.');
