import { availableParallelism } from 'node:os';
import { z } from 'zod';

// Configuration comes from the environment, checked once at start with a readable error.
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Connections to PostgreSQL this node keeps at most; default defaultPoolSize(), twice this machine's cores. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  TOKEN_LIFETIME_SECS: z.coerce.number().int().min(10).max(31_536_000).default(3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Load the demo data set; never when NODE_ENV=production. */
  DEMO_SEED: z.enum(['auto', 'on', 'off']).default('auto'),
  NODE_ENV: z.string().default('development'),
  WEB_DIST: z.string().optional(),
  /** Which proxies' X-Forwarded-For to believe: 'loopback' (default), 'none', or a comma-separated list of addresses/CIDRs. */
  TRUST_PROXY: z.string().min(1).default('loopback'),
  /** How long a write's idempotency key is remembered: a retry after that is a new request. */
  IDEMPOTENCY_KEEP_HOURS: z.coerce.number().int().min(1).max(8760).default(168),
  /** Seconds between the sweeps that fail label print jobs past their expiry (docs/labels.md). */
  LABEL_JOB_SWEEP_SECS: z.coerce.number().int().min(1).max(3600).default(60),
  /** A print agent not heard from for this long is offline (its heartbeat is a quarter of it; docs/labels.md). */
  LABEL_AGENT_OFFLINE_SECS: z.coerce.number().int().min(2).max(3600).default(60),
  /** Failed logins (or wrong current passwords) per account name from any address in 15 minutes before it must wait. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Failed logins per client address for any account names in 15 minutes before it must wait. */
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Badges not recognised at one device (time clock, kiosk) in 15 minutes before it is refused every badge (docs/timeclock.md). */
  BADGE_MAX_UNKNOWN_PER_DEVICE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Failed badge + PIN entries at one device in 15 minutes before it is refused typed badges. */
  BADGE_MAX_WRONG_PINS_PER_DEVICE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Failed badges at all devices of an organisation in 15 minutes before every device with a failure of its own is refused badges. */
  BADGE_MAX_UNKNOWN_PER_ORG: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Bearer token that reads /metrics from anywhere (without it, only from this host; docs/operations.md). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
  /** Prefix of this deployment's keys in Redis. */
  REDIS_KEY_PREFIX: z.string().min(1).max(60).default('floorhand'),
  /** `all`: every answer is checked against its schema; `cold`: all but the hot calls' (lib/response-serializer.ts). Default: `cold` in production, `all` elsewhere. */
  CHECK_RESPONSES: z.enum(['all', 'cold']).optional(),
  /** Serve the web app's source maps (`*.map`): `on` or `off`. Default: `off` in production, `on` elsewhere. */
  SOURCE_MAPS: z.enum(['on', 'off']).optional(),
});

/**
 * The PostgreSQL pool's size when DATABASE_POOL_SIZE does not set it: twice the cores of this machine,
 * the common rule for a database's active connections, for PostgreSQL on the same machine as the
 * server (the floor's usual install). More connections than the cores can run do not make the
 * database faster; on a machine short of CPU they made the tails longer: statements that held row
 * locks were paused among more runnable backends (docs/performance.md, pool size).
 */
export const defaultPoolSize = (): number => 2 * availableParallelism();

export type Config = z.infer<typeof envSchema> & { demoSeed: boolean; checkResponses: 'all' | 'cold'; serveSourceMaps: boolean };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blanksRemoved = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(blanksRemoved);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(blanksRemoved[String(i.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee the Configuration table in README.md.`);
  }
  const c = parsed.data;
  const production = c.NODE_ENV === 'production';
  // The demo seed belongs to the embedded database only, unless asked for explicitly (tests, demos).
  const demoSeed = !production && (c.DEMO_SEED === 'on' || (c.DEMO_SEED === 'auto' && !c.DATABASE_URL));
  // Source maps give away the app's source: a production server sends them only when asked to.
  const serveSourceMaps = c.SOURCE_MAPS ? c.SOURCE_MAPS === 'on' : !production;
  return { ...c, demoSeed, checkResponses: c.CHECK_RESPONSES ?? (production ? 'cold' : 'all'), serveSourceMaps };
}
