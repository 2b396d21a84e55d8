// Zod-free: the login page's request helper reads these without loading zod (its schema is in common.ts).

/** The spec's server error (section 8): code, message or msg, detail, locId, causedByErr. */
export interface ServerErr {
  code: string;
  message: string;
  msg?: string;
  detail?: string;
  locId?: string;
  causedByErr?: ServerErr;
}

/** Every error code the server sends, in one place. */
export const ERR = {
  generic: 'ERR',
  badInput: 'ERR_BAD_INPUT',
  unauthorized: 'ERR_UNAUTHORIZED',
  badToken: 'ERR_BAD_TOKEN',
  forbidden: 'ERR_FORBIDDEN',
  orgMismatch: 'ERR_ORG_MISMATCH',
  notFound: 'ERR_NOT_FOUND',
  siteUnknown: 'ERR_SITE_UNKNOWN',
  loginFailed: 'ERR_LOGIN_FAILED',
  accountRestricted: 'ERR_ACCOUNT_RESTRICTED',
  rateLimited: 'ERR_RATE_LIMITED',
  conflict: 'ERR_CONFLICT',
  dbErr: 'DB_ERR',
  unregistered: 'UN-REGISTERED',
  countIncorrect: 'COUNT_INCORRECT',
  dup: 'DUP',
  /** A kiosk worker's human token was revoked or timed out: back to the kiosk page, the kiosk stays logged in. */
  kioskSessionEnded: 'ERR_KIOSK_SESSION_ENDED',
} as const;
export type ErrCode = (typeof ERR)[keyof typeof ERR];

/** Codes that also log the user out (spec section 8). */
export const LOGOUT_ERR_CODES: readonly string[] = [ERR.unauthorized, ERR.badToken];

export function makeErr(code: string, message: string, extra: Partial<Omit<ServerErr, 'code' | 'message'>> = {}): ServerErr {
  return { code, message, ...extra };
}

/** A thrown error that carries a ServerErr and its HTTP status; the server's one error handler sends it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly err: ServerErr,
  ) {
    super(err.message);
  }
}

/** "A" or "An" before a type name, for the DUP message. */
export function article(word: string): 'A' | 'An' {
  return /^[aeiou]/i.test(word) ? 'An' : 'A';
}
