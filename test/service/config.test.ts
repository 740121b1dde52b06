import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('defaults follow SPEC 7', () => {
  const config = loadConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.host, '0.0.0.0');
  assert.equal(config.databaseUrl, 'sqlite:./data/verdict.db');
  assert.equal(config.bodyLimitBytes, 10 * 1024 * 1024);
  assert.equal(config.bulkLimit, 10000);
  assert.equal(config.ruleTimeoutMs, 5000);
  assert.equal(config.timeZone, 'UTC');
  assert.deepEqual(config.httpFunctions.allow, []);
  assert.equal(config.kafka.enabled, false);
  assert.equal(config.logLevel, 'info');
  assert.equal(config.adminToken, undefined);
  assert.equal(config.rateLimitPerSecond, undefined);
  assert.equal(config.audit.defaultTtlDays, 14);
});

test('flags override the environment', () => {
  const config = loadConfig({ PORT: '1000', DATABASE_URL: 'sqlite:a.db' }, { PORT: '2000', DATABASE_URL: undefined });
  assert.equal(config.port, 2000);
  assert.equal(config.databaseUrl, 'sqlite:a.db');
});

test('values are parsed: lists, booleans, postgres URLs, zones', () => {
  const config = loadConfig({
    DATABASE_URL: 'postgres://u@db:5432/verdict',
    HTTP_FUNCTIONS_ALLOW: 'api.example.com, *.partner.io ,localhost:9000',
    KAFKA_ENABLED: 'true',
    KAFKA_BROKERS: 'k1:9092,k2:9092',
    KAFKA_SASL_MECHANISM: 'plain',
    KAFKA_SASL_USERNAME: 'me',
    KAFKA_SASL_PASSWORD: 'secret',
    TIMEZONE: 'Europe/Prague',
    RATE_LIMIT_PER_SECOND: '50',
    LOG_LEVEL: 'DEBUG',
  });
  assert.deepEqual(config.httpFunctions.allow, ['api.example.com', '*.partner.io', 'localhost:9000']);
  assert.deepEqual(config.kafka.brokers, ['k1:9092', 'k2:9092']);
  assert.equal(config.kafka.saslMechanism, 'PLAIN');
  assert.equal(config.timeZone, 'Europe/Prague');
  assert.equal(config.rateLimitPerSecond, 50);
  assert.equal(config.logLevel, 'debug');
});

test('each bad value is refused with one line naming the variable', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ PORT: 'x' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    [{ BODY_TIMEOUT_MS: '50' }, 'BODY_TIMEOUT_MS'],
    [{ BULK_LIMIT: '0' }, 'BULK_LIMIT'],
    [{ RULE_TIMEOUT_MS: '1.5' }, 'RULE_TIMEOUT_MS'],
    [{ TIMEZONE: 'Nowhere/Special' }, 'TIMEZONE'],
    [{ HTTP_FUNCTIONS_ALLOW: 'http://x.com/path' }, 'HTTP_FUNCTIONS_ALLOW'],
    [{ KAFKA_ENABLED: 'maybe' }, 'KAFKA_ENABLED'],
    [{ KAFKA_ENABLED: 'true' }, 'KAFKA_BROKERS'],
    [{ KAFKA_SASL_MECHANISM: 'GSSAPI' }, 'KAFKA_SASL_MECHANISM'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ RATE_LIMIT_PER_SECOND: '0' }, 'RATE_LIMIT_PER_SECOND'],
    [{ AUDIT_TTL_DAYS: '99999999' }, 'AUDIT_TTL_DAYS'],
    [{ AUDIT_TTL_DAYS: '0.5' }, 'AUDIT_TTL_DAYS'],
  ];
  for (const [env, variable] of cases) {
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && !err.message.includes('\n') && err.message.includes(variable),
      JSON.stringify(env),
    );
  }
});

test('COMPAT=decisionrules-cloud sets Europe/Prague and right-grouped arithmetic; an explicit TIMEZONE wins', () => {
  const plain = loadConfig({});
  assert.equal(plain.compat, 'default');
  assert.equal(plain.timeZone, 'UTC');
  assert.equal(plain.arithmeticAssociativity, 'left');
  const cloud = loadConfig({ COMPAT: 'decisionrules-cloud' });
  assert.equal(cloud.compat, 'decisionrules-cloud');
  assert.equal(cloud.timeZone, 'Europe/Prague');
  assert.equal(cloud.arithmeticAssociativity, 'right');
  const zoned = loadConfig({ COMPAT: 'decisionrules-cloud', TIMEZONE: 'America/New_York' });
  assert.equal(zoned.timeZone, 'America/New_York');
  assert.equal(zoned.arithmeticAssociativity, 'right');
  assert.throws(() => loadConfig({ COMPAT: 'decisionrules' }), (error: unknown) => error instanceof ConfigError && error.variable === 'COMPAT' && /decisionrules-cloud/.test(error.message));
});

test('webhooks: defaults, WEBHOOKS_ALLOW with the syntax of HTTP_FUNCTIONS_ALLOW, bad values named', () => {
  assert.deepEqual(loadConfig({}).webhooks, { enabled: true, allow: [], timeoutMs: 10_000, retryBaseMs: 30_000, retryHours: 24, disableAfter: 100, pollMs: 1000 });
  const set = loadConfig({ WEBHOOKS_ALLOW: '127.0.0.1, hooks.internal:8443 ,*.corp.example', WEBHOOKS_ENABLED: 'false', WEBHOOKS_RETRY_BASE_MS: '20' }).webhooks;
  assert.deepEqual([set.allow, set.enabled, set.retryBaseMs], [['127.0.0.1', 'hooks.internal:8443', '*.corp.example'], false, 20]);
  for (const [env, variable] of [
    [{ WEBHOOKS_ALLOW: 'http://x.com/path' }, 'WEBHOOKS_ALLOW'],
    [{ WEBHOOKS_TIMEOUT_MS: '5' }, 'WEBHOOKS_TIMEOUT_MS'],
    [{ WEBHOOKS_RETRY_HOURS: '0' }, 'WEBHOOKS_RETRY_HOURS'],
    [{ WEBHOOKS_DISABLE_AFTER: 'many' }, 'WEBHOOKS_DISABLE_AFTER'],
  ] as const) {
    assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && err.variable === variable, JSON.stringify(env));
  }
});

test('jobs: durations for JOBS_RESULTS_TTL, JOBS_ONLY needs JOBS_ENABLED', () => {
  assert.equal(loadConfig({}).jobs.resultsTtlMs, 7 * 86_400_000);
  assert.deepEqual(['45', '45s', '30m', '12h', '2d'].map((v) => loadConfig({ JOBS_RESULTS_TTL: v }).jobs.resultsTtlMs), [45_000, 45_000, 1_800_000, 43_200_000, 172_800_000]);
  assert.throws(() => loadConfig({ JOBS_RESULTS_TTL: '1w' }), /JOBS_RESULTS_TTL "1w" is not a duration/);
  assert.throws(() => loadConfig({ JOBS_ONLY: 'true', JOBS_ENABLED: 'false' }), /JOBS_ONLY is true but JOBS_ENABLED is false/);
  assert.deepEqual([loadConfig({}).jobs.enabled, loadConfig({}).jobs.only, loadConfig({}).jobs.chunkSize], [true, false, 5000]);
});
