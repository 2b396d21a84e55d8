/*
 * The security headers of every answer (Content-Security-Policy, HSTS, nosniff, framing, referrer …),
 * as helmet sets them, worked out once at start. @fastify/helmet built helmet's middleware again for
 * every request (its CSP directives parsed anew each time: 4 % of the server's CPU in a lookup
 * profile); the headers depend on the options alone, so one map serves every answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet sets with these options, by lower-case name. */
export function securityHeaders(options: Readonly<HelmetOptions>): ReadonlyMap<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

/** Sets the headers on every answer, before any handler runs (as @fastify/helmet's onRequest did). */
export function useSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = Object.fromEntries(securityHeaders(options));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
