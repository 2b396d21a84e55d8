/*
 * The server's answers for refused requests, in the spec's error shape (section 8): one constructor
 * per kind, so a message is worded where the rule is and the status and code are never mistyped.
 * Throw what these return; the app's one error handler sends it.
 */
import { AppError, ERR, article } from '@floorhand/contract/errors';
import { tk } from '@floorhand/contract/i18n';
import type { ValidationDetail } from '@floorhand/contract/api';
import { RECORD_KEY, type ValidationErrors } from '@floorhand/contract/records/validate';

const withDetail = (detail?: string) => (detail === undefined ? {} : { detail });

export const badInput = (message: string, detail?: string) => new AppError(400, { code: ERR.badInput, message, ...withDetail(detail) });
export const unauthorized = (message: string) => new AppError(401, { code: ERR.unauthorized, message });
export const loginFailed = (message: string) => new AppError(401, { code: ERR.loginFailed, message });
export const badToken = (message: string) => new AppError(401, { code: ERR.badToken, message });
export const forbidden = (message: string) => new AppError(403, { code: ERR.forbidden, message });
/** The body names another organisation, site or app than the caller's token. */
export const orgMismatch = (message: string, detail?: string) =>
  new AppError(403, { code: ERR.orgMismatch, message, ...withDetail(detail) });
export const accountRestricted = (message: string) => new AppError(403, { code: ERR.accountRestricted, message });
export const notFound = (message: string) => new AppError(404, { code: ERR.notFound, message });
/** The spec's UN-REGISTERED: a record type nobody registered. */
export const unregistered = (message: string) => new AppError(404, { code: ERR.unregistered, message });
export const siteUnknown = (message: string, status: 400 | 404 = 404) => new AppError(status, { code: ERR.siteUnknown, message });
export const conflict = (message: string, detail?: string) => new AppError(409, { code: ERR.conflict, message, ...withDetail(detail) });
export const rateLimited = (message: string) => new AppError(429, { code: ERR.rateLimited, message });
/** A 500 for an answer the database should have given and did not (a row count that is off). */
export const countIncorrect = (message: string) => new AppError(500, { code: ERR.countIncorrect, message });

/** A 500 DB_ERR: the database failed in a way no other answer describes. */
export const dbError = (message: string) => new AppError(500, { code: ERR.dbErr, message });

/** The spec's DUP: "A/An {type} with id '{id}' already exists." (two keys: a translation has no article to fill in). */
export const dup = (type: string, id: string, detail?: string) =>
  new AppError(409, {
    code: ERR.dup,
    message: article(type) === 'An' ? tk(`An ${type} with id '${id}' already exists.`) : tk(`A ${type} with id '${id}' already exists.`),
    ...withDetail(detail),
  });
/** A DUP worded by the caller (a badge code or a user name that another account uses). */
export const dupMessage = (message: string) => new AppError(409, { code: ERR.dup, message });

/** How many messages `invalidRecord` lists before "and N more"; `detail` has them all. */
const MESSAGES_SHOWN = 3;

/** A 400 ERR_BAD_INPUT for failed validation; `path` prefixes field names in the message ('record', 'siteData'). */
export function invalidRecord(errors: ValidationErrors, path = 'record', calcError?: string): AppError {
  const lines = Object.entries(errors).flatMap(([key, list]) => list.map((m) => `${key === RECORD_KEY ? path : `${path}.${key}`}: ${m}`));
  const more = lines.length > MESSAGES_SHOWN ? `; and ${lines.length - MESSAGES_SHOWN} more` : '';
  const detail: ValidationDetail = { errors, ...(calcError === undefined ? {} : { calcError }) };
  return badInput(`The request is not valid: ${lines.slice(0, MESSAGES_SHOWN).join('; ')}${more}`, JSON.stringify(detail));
}

/** Refuses a stale revision when the client sent the one it read. */
export function checkRev(what: string, stored: number, sent: number | undefined): void {
  if (sent !== undefined && sent !== stored)
    throw conflict(`${what} was changed by someone else; reload it and try again`, `revision sent: ${sent}, stored: ${stored}`);
}
