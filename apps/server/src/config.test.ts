import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { ConfigError, defaultPoolSize, loadConfig } from './config.ts';

/** The ConfigError loadConfig throws for `env`, or a failure when it throws none. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toEqual({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      TOKEN_LIFETIME_SECS: 3600,
      LOG_LEVEL: 'info',
      DEMO_SEED: 'auto',
      NODE_ENV: 'development',
      TRUST_PROXY: 'loopback',
      IDEMPOTENCY_KEEP_HOURS: 168,
      LABEL_JOB_SWEEP_SECS: 60,
      LABEL_AGENT_OFFLINE_SECS: 60,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 10,
      LOGIN_MAX_FAILURES_PER_ADDRESS: 30,
      BADGE_MAX_UNKNOWN_PER_DEVICE: 10,
      BADGE_MAX_WRONG_PINS_PER_DEVICE: 10,
      BADGE_MAX_UNKNOWN_PER_ORG: 100,
      REDIS_KEY_PREFIX: 'floorhand',
      demoSeed: true,
      checkResponses: 'all',
      serveSourceMaps: true,
    });
  });

  it('serves source maps except in production, unless SOURCE_MAPS says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).serveSourceMaps).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SOURCE_MAPS: 'on' }).serveSourceMaps).toBe(true);
    expect(loadConfig({ SOURCE_MAPS: 'off' }).serveSourceMaps).toBe(false);
    expect(() => loadConfig({ SOURCE_MAPS: 'yes' })).toThrow(/SOURCE_MAPS/);
  });

  it('reads and converts the variables', () => {
    const c = loadConfig({
      PORT: '3000',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/fh',
      DATABASE_URL: 'postgresql://u@db:5432/fh',
      REDIS_URL: 'rediss://cache:6380',
      TOKEN_LIFETIME_SECS: '600',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/srv/web',
      DATABASE_POOL_SIZE: '6',
    });
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/fh',
      DATABASE_URL: 'postgresql://u@db:5432/fh',
      REDIS_URL: 'rediss://cache:6380',
      TOKEN_LIFETIME_SECS: 600,
      LOG_LEVEL: 'warn',
      WEB_DIST: '/srv/web',
      DATABASE_POOL_SIZE: 6,
    });
  });

  it('sizes the PostgreSQL pool at twice the cores unless DATABASE_POOL_SIZE says otherwise', () => {
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBeUndefined();
    expect(defaultPoolSize()).toBe(2 * availableParallelism());
    expect(configError({ DATABASE_POOL_SIZE: '0' }).message).toContain('DATABASE_POOL_SIZE');
    expect(configError({ DATABASE_POOL_SIZE: '2.5' }).message).toContain('DATABASE_POOL_SIZE');
  });

  it('treats blank variables as unset', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '', LOG_LEVEL: '' });
    expect(c).toMatchObject({ PORT: 8080, LOG_LEVEL: 'info', demoSeed: true });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('ignores unrelated variables', () => {
    expect(loadConfig({ PATH: '/usr/bin', HOME: '/root' })).not.toHaveProperty('PATH');
  });

  it.each([
    { env: {}, demoSeed: true, why: 'auto on the embedded database' },
    { env: { DATABASE_URL: 'postgres://db/fh' }, demoSeed: false, why: 'auto on PostgreSQL' },
    { env: { DATABASE_URL: 'postgres://db/fh', DEMO_SEED: 'on' }, demoSeed: true, why: 'asked for on PostgreSQL' },
    { env: { DEMO_SEED: 'off' }, demoSeed: false, why: 'switched off' },
    { env: { NODE_ENV: 'production' }, demoSeed: false, why: 'auto in production' },
    { env: { NODE_ENV: 'production', DEMO_SEED: 'on' }, demoSeed: false, why: 'never in production, even when asked for' },
  ])('demo seed $demoSeed: $why', ({ env, demoSeed }) => {
    expect(loadConfig(env).demoSeed).toBe(demoSeed);
  });

  it.each([
    { env: {}, check: 'all', why: 'every answer checked in development and tests' },
    { env: { NODE_ENV: 'production' }, check: 'cold', why: 'hot calls unchecked in production' },
    { env: { NODE_ENV: 'production', CHECK_RESPONSES: 'all' }, check: 'all', why: 'as asked for' },
    { env: { CHECK_RESPONSES: 'cold' }, check: 'cold', why: 'as asked for' },
  ])('response check $check: $why', ({ env, check }) => {
    expect(loadConfig(env).checkResponses).toBe(check);
  });

  it.each([
    { name: 'PORT', value: 'abc' },
    { name: 'PORT', value: '0' },
    { name: 'PORT', value: '70000' },
    { name: 'PORT', value: '80.5' },
    { name: 'DATABASE_URL', value: 'mysql://db/fh' },
    { name: 'DATABASE_URL', value: 'db.example.com' },
    { name: 'REDIS_URL', value: 'http://cache' },
    { name: 'LOG_LEVEL', value: 'loud' },
    { name: 'TOKEN_LIFETIME_SECS', value: '5' },
    { name: 'TOKEN_LIFETIME_SECS', value: 'forever' },
    { name: 'DEMO_SEED', value: 'yes' },
    { name: 'METRICS_TOKEN', value: 'too-short' },
  ])('refuses $name=$value with a message naming the variable and the value', ({ name, value }) => {
    const e = configError({ [name]: value });
    expect(e.message).toContain('Invalid configuration');
    expect(e.message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    expect(e.message).toContain(JSON.stringify(value));
  });

  it('lists every bad variable at once', () => {
    const e = configError({ PORT: 'x', DATABASE_URL: 'mysql://db', LOG_LEVEL: 'loud' });
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL']) expect(e.message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    expect(e.message).toContain('must be a postgres:// or postgresql:// URL');
  });
});
