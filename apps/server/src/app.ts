import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { AppError, ERR, type ServerErr } from '@floorhand/contract/errors';
import { tk, type Language } from '@floorhand/contract/i18n';
import { badInput } from './lib/errors.ts';
import { errInLanguage, languageOf, zodIssueIn } from './lib/language.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { seedDemo } from './seed/demo.ts';
import type { Deps } from './lib/calls.ts';
import { createTokenService } from './lib/tokens.ts';
import { createAuthCache } from './lib/auth-cache.ts';
import { responseSerializerCompiler } from './lib/response-serializer.ts';
import { useSecurityHeaders } from './lib/security-headers.ts';
import { accountsRoutes } from './modules/accounts/routes.ts';
import { rolesRoutes } from './modules/roles/routes.ts';
import { siteAdminRoutes } from './modules/site-admin/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { attachRealtime } from './modules/realtime/socket.ts';
import { createMemoryLimitStore, createRedisLimitStore } from './lib/limit-store.ts';
import { recordRoutes } from './modules/records/routes.ts';
import { sessionRoutes } from './modules/session/routes.ts';
import { siteRoutes } from './modules/site/routes.ts';
import { stockRoutes } from './modules/stock/routes.ts';
import { locationRoutes } from './modules/locations/routes.ts';
import { itemRoutes } from './modules/items/routes.ts';
import { csvTransferRoutes } from './modules/csv-transfer/routes.ts';
import { laborRoutes } from './modules/labor/routes.ts';
import { labelRoutes } from './modules/labels/routes.ts';
import { countRoutes } from './modules/counts/routes.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { pickingRoutes } from './modules/picking/routes.ts';
import { shippingRoutes } from './modules/shipping/routes.ts';
import { timeclockRoutes } from './modules/timeclock/routes.ts';
import { kioskRoutes } from './modules/kiosk/routes.ts';
import { schedulePurge } from './modules/housekeeping/service.ts';
import { bodyCheckedOffThread } from './lib/json-off-thread.ts';
import { useMetrics } from './lib/metrics.ts';
import { openLabelJobCounts } from './modules/labels/service.ts';

/** The built web app: WEB_DIST, or apps/web/dist found from here. */
function webDist(config: Config): string | undefined {
  if (config.WEB_DIST) return resolve(config.WEB_DIST);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'apps', 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

/**
 * Vite names everything under assets/ by its content's hash, so a name never changes meaning: cache
 * it for a year without asking again. Everything else (index.html, the favicon, the service worker
 * /sw.js and the manifest) is asked for again every time, so a new release is seen at the next load:
 * a service worker script kept by the HTTP cache would hold the installed app on its old version.
 */
export function cacheControlOf(path: string): string {
  return /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** The Content-Security-Policy of every answer: the web app and /api/docs (Swagger UI) pass with it. */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  // The zxing barcode reader compiles WebAssembly; nothing evaluates script text.
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  scriptSrcAttr: ["'none'"],
  // Mantine and Swagger UI set styles at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Photos and previews are shown from data: and blob: URLs; the camera stream is a blob.
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  // The API and the socket (same origin, ws: included by 'self').
  connectSrc: ["'self'"],
  // The installed app's service worker (/sw.js) and the scanner's workers; the web app manifest.
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

function locIdOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'locId' in body && typeof body.locId === 'string' ? body.locId : undefined;
}

/** JSON nesting allowed in a body; deeper values overflow the stack when serialised for the database. */
const MAX_BODY_DEPTH = 64;
/** Text PostgreSQL cannot store in text or jsonb: U+0000, and UTF-16 surrogates that are not in a pair. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what must be refused
const UNSTORABLE_TEXT = /\u0000|\p{Cs}/u;

/** Why a parsed body cannot be stored (bad characters, nested too deep), or undefined. */
function unstorableInput(value: unknown, path = '', depth = 0): string | undefined {
  const at = path || 'body';
  if (typeof value === 'string')
    return UNSTORABLE_TEXT.test(value) ? `${at}: must not contain NUL or unpaired surrogate characters` : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_BODY_DEPTH) return `${at}: nested more than ${MAX_BODY_DEPTH} levels deep`;
  for (const [key, v] of Object.entries(value)) {
    if (UNSTORABLE_TEXT.test(key)) return `${at}: a key must not contain NUL or unpaired surrogate characters`;
    const problem = unstorableInput(v, path ? `${path}.${key}` : key, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** Turns anything thrown into the spec's error shape; 5xx details stay in the log. A body's schema problems are worded in `lang`. */
function toErrorReply(error: FastifyError | Error, body: unknown, lang: Language): { status: number; err: ServerErr } {
  const locId = locIdOf(body);
  if (error instanceof AppError) return { status: error.status, err: { ...error.err, locId: error.err.locId ?? locId } };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const problems = error.validation.map(
      (v) => `${v.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body'}: ${zodIssueIn(lang, v)}`,
    );
    return { status: 400, err: { code: ERR.badInput, message: tk(`The request is not valid: ${problems.join('; ')}`), locId } };
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status < 500) return { status, err: { code: ERR.badInput, message: error.message, locId } };
  return { status: 500, err: { code: ERR.generic, message: tk('The server could not complete the request'), locId } };
}

export interface BuildOptions {
  config: Config;
  database: Database;
}

export async function buildApp({ config, database }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] },
    // X-Forwarded-For is believed from a proxy on this host only: from anyone else it would let a client
    // pick its own address and slip past the login limiter.
    trustProxy: config.TRUST_PROXY === 'none' ? false : config.TRUST_PROXY.split(',').map((s) => s.trim()),
    bodyLimit: 1024 * 1024,
    // Errors Fastify meets before any route (a URL it cannot decode) answer in the spec's shape too.
    frameworkErrors: (error, req, reply) => {
      const err = { code: ERR.badInput, message: tk(`The request is not valid: ${error.message}`) };
      void (reply as FastifyReply).status(400).send({ err: errInLanguage(err, req) });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(config.checkResponses));

  app.setErrorHandler((error, req, reply) => {
    const { status, err } = toErrorReply(error instanceof Error ? error : new Error(String(error)), req.body, languageOf(req));
    if (status >= 500) req.log.error(error);
    else req.log.info({ code: err.code, status }, err.message);
    // Answered in the screen's language (the log keeps the message as built).
    return reply.status(status).send({ err: errInLanguage(err, req) });
  });
  // Bad input is a 400 before it can become a database error (500).
  app.addHook('preValidation', async (req) => {
    // The query string and path too: a NUL in a CSV export's query would break its stream.
    // A large body parsed off the event loop was scanned there too (lib/json-off-thread.ts).
    const problem =
      (bodyCheckedOffThread(req.body) ? undefined : unstorableInput(req.body)) ??
      unstorableInput(req.query, 'query') ??
      unstorableInput(req.params, 'path');
    if (problem) throw badInput(`The request is not valid: ${problem}`);
  });

  // Security headers on every answer. The auth token lives in localStorage (the spec's client), so the
  // script policy is what keeps an injected script from reading it: scripts only from this origin (and
  // WebAssembly for the barcode reader), no inline scripts, nothing may frame the app (docs/operations.md).
  useSecurityHeaders(app, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Floorhand API',
        version: '0.1.0',
        description:
          'Every call of the Floorhand web app. Bodies carry locId, siteId, appId and orgId; identity comes from the bearer token only.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  const db = database.db;
  if (config.demoSeed && (await seedDemo(db))) app.log.info('demo data loaded (organisation demo, password demo1234)');
  const tokens = await createTokenService(db);
  const authCache = createAuthCache();
  const realtime = await attachRealtime(app.server, {
    db,
    tokens,
    authCache,
    redisUrl: config.REDIS_URL,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    log: app.log,
  });
  app.addHook('preClose', () => realtime.close());
  const stopPurge = schedulePurge(db, config.IDEMPOTENCY_KEEP_HOURS, app.log);
  app.addHook('onClose', async () => stopPurge());
  const limitStore = config.REDIS_URL ? await createRedisLimitStore(config.REDIS_URL, config.REDIS_KEY_PREFIX) : createMemoryLimitStore();
  app.addHook('onClose', async () => limitStore.close());
  const metrics = useMetrics(app, {
    token: config.METRICS_TOKEN,
    pool: database.pool,
    socketClients: () => realtime.clientCount(),
    labelJobs: () => openLabelJobCounts(db),
  });
  const deps: Deps = { db, tokens, config, realtime, authCache, limitStore, metrics };

  app.get('/api/health', { schema: { hide: true } }, async () => ({ ok: true, db: database.kind }));
  authRoutes(app, deps);
  accountsRoutes(app, deps);
  rolesRoutes(app, deps);
  siteAdminRoutes(app, deps);
  siteRoutes(app, deps);
  sessionRoutes(app, deps);
  mediaRoutes(app, deps);
  recordRoutes(app, deps);
  // PGlite is one connection; PostgreSQL's pool as opened (DATABASE_POOL_SIZE or its default).
  stockRoutes(app, deps, database.pool?.size ?? 1);
  locationRoutes(app, deps);
  itemRoutes(app, deps);
  csvTransferRoutes(app, deps);
  laborRoutes(app, deps);
  labelRoutes(app, deps);
  countRoutes(app, deps);
  orderRoutes(app, deps);
  pickingRoutes(app, deps);
  shippingRoutes(app, deps);
  timeclockRoutes(app, deps);
  kioskRoutes(app, deps);

  // No answer of the API may be kept by a browser, a proxy or a shared device's cache: they carry
  // people's data and tokens (a route that sets its own rule, media by content hash, keeps it; the
  // built web app sets its own below).
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
  });
  const dist = webDist(config);
  // Source maps only where the configuration asks for them (SOURCE_MAPS; not in production by default).
  if (dist && !config.serveSourceMaps) {
    app.addHook('onRequest', async (req, reply) => {
      const path = req.url.split('?')[0] ?? '';
      if (!path.startsWith('/api/') && /\.map$/i.test(path))
        await reply.status(404).send({ err: errInLanguage({ code: ERR.notFound, message: tk('Source maps are not served here') }, req) });
    });
  }
  if (dist) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz beside every text asset (apps/web/vite.config.ts); the one the
      // browser accepts is sent, with Vary: Accept-Encoding (this version of the plugin does not add it).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', cacheControlOf(path));
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // Every client route is served the web app; unknown API paths get the spec's error shape.
    if (req.method === 'GET' && !req.url.startsWith('/api/') && dist) return reply.type('text/html').sendFile('index.html');
    const err = { code: ERR.notFound, message: tk(`No such call: ${req.method} ${req.url.split('?')[0]}`), locId: locIdOf(req.body) };
    return reply.status(404).send({ err: errInLanguage(err, req) });
  });
  return app;
}
