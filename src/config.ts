// One typed configuration, read from the environment (SPEC 7); command-line flags override by passing the same
// variable names in `overrides`. Every problem stops start-up with one line naming the variable.
import { accessSync, constants } from 'node:fs';
import { hostname } from 'node:os';
import { oidcProviders, tokenIssuers } from './config-identity.ts';
import type { OidcProviderConfig, TokenIssuerConfig } from './config-identity.ts';
import { MAX_AUDIT_TTL_DAYS } from './rules/bounds.ts';

export type { OidcProviderConfig, RoleGrant, TokenIssuerConfig } from './config-identity.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export type CompatMode = 'default' | 'decisionrules-cloud';
const COMPAT_MODES: readonly CompatMode[] = ['default', 'decisionrules-cloud'];

export interface KafkaConfig {
  enabled: boolean;
  brokers: string[];
  clientId: string;
  ssl: boolean;
  saslMechanism: string | undefined;
  saslUsername: string | undefined;
  saslPassword: string | undefined;
  groupId: string;
  /** PEM file of the CA(s) that signed the brokers' certificates (KAFKA_SSL_CA_FILE); default: Node's trusted CAs. */
  sslCaFile: string | undefined;
  /** Partitions of the topics `kafka enable` creates, unless --partitions says otherwise. */
  partitions: number;
  /** Replication factor of those topics; undefined: the broker's default.replication.factor. */
  replicationFactor: number | undefined;
  /** Request values larger than this are answered with a 400 error instead of being parsed. */
  maxMessageBytes: number;
  /** How often the channel re-reads the topic bindings to pick up topics enabled elsewhere. */
  topicRefreshMs: number;
  /** A consumer missing heartbeats this long is removed from the group and its partitions reassigned. */
  sessionTimeoutMs: number;
  /** Responses and consumed offsets commit in one Kafka transaction (docs/decisions/kafka-exactly-once.md). */
  exactlyOnce: boolean;
  /**
   * The producer's transactional id in exactly-once mode: distinct per instance and stable across its restarts, so
   * that a restarted instance fences its predecessor and aborts the transaction the predecessor left open.
   */
  transactionalId: string;
}

/** Batch jobs (docs/jobs.md): chunked inputs leased from the store by every instance with jobs enabled. */
export interface JobsConfig {
  /** This instance works jobs (JOBS_ENABLED, default true; DecisionRules' JOBS_SERVER_DISABLED inverted). */
  enabled: boolean;
  /** This instance works jobs and serves only the health and job routes (DecisionRules' ONLY_JOB_SERVER). */
  only: boolean;
  /** Inputs per chunk: the unit of leasing, solving and atomic result commit. */
  chunkSize: number;
  /** Chunks this instance solves at once. */
  concurrency: number;
  /** A chunk leased this long without completing is taken by another worker, which solves it again. */
  leaseMs: number;
  /** Results (and the job) are deleted this long after the job ended (JOBS_RESULTS_TTL: 7d, 12h, 30m, 45s). */
  resultsTtlMs: number;
  /** Inputs one job may hold. */
  maxInputs: number;
  /** Bytes of one NDJSON or CSV upload. */
  maxUploadBytes: number;
  /** How often the sweeper deletes expired jobs and an idle worker looks for chunks. */
  sweepIntervalMs: number;
  pollIntervalMs: number;
}

export interface HttpFunctionsConfig {
  /** Hosts that HTTP functions may call: `host`, `host:port` or `*.domain`. Empty: none. */
  allow: string[];
  timeoutMs: number;
  maxResponseBytes: number;
  maxRequestBytes: number;
  maxRedirects: number;
}

/** Webhooks (docs/webhooks.md): their targets, the dispatcher of this instance, retries and disabling. */
export interface WebhooksConfig {
  /** This instance dispatches deliveries (WEBHOOKS_ENABLED); events write their deliveries either way. */
  enabled: boolean;
  /** Hosts in loopback and private ranges that webhooks may target anyway: `host`, `host:port` or `*.domain`. */
  allow: string[];
  /** One attempt's time limit, connection to the end of the answer. */
  timeoutMs: number;
  /** The first retry's delay; each next one doubles, up to an hour. */
  retryBaseMs: number;
  /** A delivery is retried this long after its event, then marked failed. */
  retryHours: number;
  /** Failed attempts in a row after which a webhook is disabled. */
  disableAfter: number;
  /** How often the dispatcher looks for due deliveries. */
  pollMs: number;
}

export interface AuditConfig {
  defaultTtlDays: number;
  flushIntervalMs: number;
  batchSize: number;
  /** Records waiting to be written; beyond it new records are dropped (and counted) rather than growing memory. */
  queueLimit: number;
  retentionIntervalMs: number;
}

/** The script worker pool (src/script-workers) and its bounds. */
export interface ScriptConfig {
  /** Worker processes hosting script isolates. */
  workers: number;
  /** Workers one space may hold at once, so one space cannot starve the others. */
  workersPerSpace: number;
  /** Scripts of one space waiting for a worker; beyond it they are refused with a 400. */
  queuePerSpace: number;
  /** Heap limit of each script isolate, MB. */
  isolateMemoryMb: number;
  /** Resident memory of a worker, i.e. of all the scripts of one solve together, MB; the worker is killed beyond it. */
  solveMemoryMb: number;
  /** Characters of JSON in a script's input and in its output. */
  maxDataChars: number;
  /** Nesting of a script's input and output. */
  maxDataDepth: number;
}

/** Bounds of one top-level solve over all its nested calls (engine SolveLimits). */
export interface SolveLimitsConfig {
  maxDepth: number;
  maxCalls: number;
  maxConcurrentScripts: number;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  adminToken: string | undefined;
  bodyLimitBytes: number;
  /** A request not received whole (headers and body) this long after it began is answered 408, or closed if answered. */
  bodyTimeoutMs: number;
  bulkLimit: number;
  ruleTimeoutMs: number;
  timeZone: string;
  /** COMPAT: `default`, or `decisionrules-cloud` to evaluate as DecisionRules' cloud does (docs/decisions/compat-decisionrules-cloud.md). */
  compat: CompatMode;
  /** How `a - b - c` groups in expression text: 'left' (standard) or 'right' (DecisionRules, under COMPAT=decisionrules-cloud). */
  arithmeticAssociativity: 'left' | 'right';
  httpFunctions: HttpFunctionsConfig;
  webhooks: WebhooksConfig;
  kafka: KafkaConfig;
  logLevel: LogLevel;
  audit: AuditConfig;
  /** Solves per second per key; undefined: rate limiting off. */
  rateLimitPerSecond: number | undefined;
  /**
   * SECRETS_KEY: the 32-byte key that seals stored secrets (webhook signing secrets), given as 64 hex digits or
   * base64. Unset: an embedded SQLite store keeps a generated key file beside its database; PostgreSQL stores them
   * as they are, and the server warns (docs/decisions/webhook-secrets-at-rest.md).
   */
  secretsKey: Buffer | undefined;
  /** SECRETS_KEY_PREVIOUS: earlier keys (comma-separated), still opening what they sealed until the start re-seals it. */
  secretsKeysPrevious: Buffer[];
  /** Import the example rules of `examples/rules` into the `default` space created on first start. */
  seedExamples: boolean;
  shutdownTimeoutMs: number;
  scripts: ScriptConfig;
  solveLimits: SolveLimitsConfig;
  /** Serve the Studio (the browser rule editor) at /studio/ and redirect / to it. */
  studioEnabled: boolean;
  /** Serve the MCP endpoint (AI assistants, management keys only) at /mcp. */
  mcpEnabled: boolean;
  /** Issuers whose JWT access tokens the solver and management APIs accept (TOKEN_ISSUERS). */
  tokenIssuers: TokenIssuerConfig[];
  /** OpenID Connect providers people sign in with (OIDC_PROVIDERS). */
  oidcProviders: OidcProviderConfig[];
  /** Browser sessions (docs/decisions/users-and-sessions.md). */
  sessions: SessionsConfig;
  /** Believe X-Forwarded-For and X-Forwarded-Proto (a reverse proxy in front): client address and TLS come from them. */
  trustProxy: boolean;
  jobs: JobsConfig;
}

export interface SessionsConfig {
  /** A session unused this long ends. */
  idleMinutes: number;
  /** A session ends this long after sign-in, however busy. */
  maxHours: number;
  /** The Studio may sign in with a management key (it becomes a session); false: users only. */
  keySignIn: boolean;
  /** The cookie's Secure flag: 'auto' sets it when the request came over TLS (or X-Forwarded-Proto: https with TRUST_PROXY). */
  cookieSecure: 'auto' | boolean;
}

/** Names every environment variable the configuration reads, so `--help` and docs can list them. */
export const CONFIG_VARIABLES = [
  'PORT', 'HOST', 'DATABASE_URL', 'VERDICT_ADMIN_TOKEN', 'BODY_LIMIT_BYTES', 'BODY_TIMEOUT_MS', 'BULK_LIMIT', 'RULE_TIMEOUT_MS', 'TIMEZONE', 'COMPAT',
  'HTTP_FUNCTIONS_ALLOW', 'HTTP_FUNCTIONS_TIMEOUT_MS', 'HTTP_FUNCTIONS_MAX_RESPONSE_BYTES', 'HTTP_FUNCTIONS_MAX_REQUEST_BYTES',
  'HTTP_FUNCTIONS_MAX_REDIRECTS', 'KAFKA_ENABLED', 'KAFKA_BROKERS', 'KAFKA_CLIENT_ID', 'KAFKA_SSL', 'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_GROUP_ID', 'KAFKA_SSL_CA_FILE', 'KAFKA_PARTITIONS',
  'KAFKA_REPLICATION_FACTOR', 'KAFKA_MAX_MESSAGE_BYTES', 'KAFKA_TOPIC_REFRESH_MS', 'KAFKA_SESSION_TIMEOUT_MS',
  'KAFKA_EXACTLY_ONCE', 'KAFKA_TRANSACTIONAL_ID', 'LOG_LEVEL', 'AUDIT_TTL_DAYS', 'AUDIT_FLUSH_MS',
  'AUDIT_BATCH_SIZE', 'AUDIT_QUEUE_LIMIT', 'AUDIT_RETENTION_INTERVAL_MS', 'RATE_LIMIT_PER_SECOND', 'VERDICT_SEED_EXAMPLES',
  'SHUTDOWN_TIMEOUT_MS', 'SCRIPT_WORKERS', 'SCRIPT_WORKERS_PER_SPACE', 'SCRIPT_QUEUE_PER_SPACE', 'SCRIPT_MEMORY_MB',
  'SCRIPT_SOLVE_MEMORY_MB', 'SCRIPT_MAX_DATA_CHARS', 'SCRIPT_MAX_DATA_DEPTH', 'SOLVE_MAX_DEPTH', 'SOLVE_MAX_CALLS',
  'SOLVE_MAX_CONCURRENT_SCRIPTS', 'STUDIO_ENABLED', 'MCP_ENABLED', 'SESSION_IDLE_MINUTES', 'SESSION_MAX_HOURS',
  'STUDIO_KEY_SIGNIN', 'COOKIE_SECURE', 'TRUST_PROXY', 'TOKEN_ISSUERS', 'OIDC_PROVIDERS',
  'WEBHOOKS_ENABLED', 'WEBHOOKS_ALLOW', 'WEBHOOKS_TIMEOUT_MS', 'WEBHOOKS_RETRY_BASE_MS', 'WEBHOOKS_RETRY_HOURS',
  'WEBHOOKS_DISABLE_AFTER', 'WEBHOOKS_POLL_MS', 'SECRETS_KEY', 'SECRETS_KEY_PREVIOUS',
  'JOBS_ENABLED', 'JOBS_ONLY', 'JOBS_CHUNK_SIZE', 'JOBS_CONCURRENCY', 'JOBS_LEASE_MS', 'JOBS_RESULTS_TTL', 'JOBS_MAX_INPUTS',
  'JOBS_MAX_UPLOAD_BYTES', 'JOBS_SWEEP_INTERVAL_MS', 'JOBS_POLL_INTERVAL_MS',
] as const;
export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

type Source = Record<string, string | undefined>;

function raw(source: Source, name: string): string | undefined {
  const value = source[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function integer(source: Source, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = raw(source, name);
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `"${value}" is not an integer`);
  const n = Number(value);
  if (n < min || n > max) {
    throw new ConfigError(name, `${value} is out of range (${min}..${max === Number.MAX_SAFE_INTEGER ? '' : max})`);
  }
  return n;
}

function boolean(source: Source, name: string, fallback: boolean): boolean {
  const value = raw(source, name);
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  throw new ConfigError(name, `"${value}" is not a boolean (use true or false)`);
}

function list(source: Source, name: string): string[] {
  const value = raw(source, name);
  if (value === undefined) return [];
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function secretsKeyOf(value: string, name: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : undefined;
  if (key?.length !== 32) throw new ConfigError(name, 'must be 32 bytes, as 64 hex digits or base64 (e.g. `openssl rand -hex 32`)');
  return key;
}

function secretsKey(source: Source, name: string): Buffer | undefined {
  const value = raw(source, name);
  return value === undefined ? undefined : secretsKeyOf(value, name);
}

function databaseUrl(source: Source): string {
  const value = raw(source, 'DATABASE_URL') ?? 'sqlite:./data/verdict.db';
  if (value.startsWith('sqlite:')) {
    if (value.slice('sqlite:'.length).trim() === '') throw new ConfigError('DATABASE_URL', 'has an empty SQLite path (use sqlite:PATH)');
    return value;
  }
  if (value.startsWith('postgres://') || value.startsWith('postgresql://')) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return value;
  }
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres:// (got "${value.split(':')[0]}:...")`);
}

function compat(source: Source): CompatMode {
  const value = (raw(source, 'COMPAT') ?? 'default').toLowerCase();
  if (!(COMPAT_MODES as readonly string[]).includes(value)) {
    throw new ConfigError('COMPAT', `"${value}" is not one of ${COMPAT_MODES.join(', ')}`);
  }
  return value as CompatMode;
}

/** An explicit TIMEZONE wins; otherwise the preset's zone (DecisionRules' cloud evaluates in Europe/Prague). */
function timeZone(source: Source, mode: CompatMode): string {
  const value = raw(source, 'TIMEZONE') ?? (mode === 'decisionrules-cloud' ? 'Europe/Prague' : 'UTC');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw new ConfigError('TIMEZONE', `"${value}" is not an IANA time zone (e.g. UTC, Europe/Prague)`);
  }
  return value;
}

const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;
const IPV6_HOST = /^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/** A host allowlist (HTTP_FUNCTIONS_ALLOW, WEBHOOKS_ALLOW): `host`, `host:port` or `*.domain`, comma-separated. */
function allowedHosts(source: Source, name: 'HTTP_FUNCTIONS_ALLOW' | 'WEBHOOKS_ALLOW'): string[] {
  const hosts = list(source, name).map((h) => h.toLowerCase());
  for (const host of hosts) {
    if (!HOST_PATTERN.test(host) && !IPV6_HOST.test(host)) {
      throw new ConfigError(name, `entry "${host}" is not a host name (use host, host:port or *.domain)`);
    }
  }
  return hosts;
}

function logLevel(source: Source): LogLevel {
  const value = (raw(source, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new ConfigError('LOG_LEVEL', `"${value}" is not one of ${LOG_LEVELS.join(', ')}`);
  }
  return value as LogLevel;
}

function kafka(source: Source): KafkaConfig {
  const enabled = boolean(source, 'KAFKA_ENABLED', false);
  const brokers = list(source, 'KAFKA_BROKERS');
  if (enabled && brokers.length === 0) throw new ConfigError('KAFKA_BROKERS', 'is required when KAFKA_ENABLED=true');
  const saslMechanism = raw(source, 'KAFKA_SASL_MECHANISM')?.toUpperCase();
  if (saslMechanism !== undefined && !['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'].includes(saslMechanism)) {
    throw new ConfigError('KAFKA_SASL_MECHANISM', `"${saslMechanism}" is not PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512`);
  }
  const saslUsername = raw(source, 'KAFKA_SASL_USERNAME');
  if (saslMechanism !== undefined && saslUsername === undefined) {
    throw new ConfigError('KAFKA_SASL_USERNAME', 'is required when KAFKA_SASL_MECHANISM is set');
  }
  if (saslMechanism !== undefined && source.KAFKA_SASL_PASSWORD === undefined) {
    throw new ConfigError('KAFKA_SASL_PASSWORD', 'is required when KAFKA_SASL_MECHANISM is set');
  }
  for (const broker of brokers) {
    if (!/^[^\s:]+:\d{1,5}$/.test(broker) && !/^\[[0-9a-f:.]+\]:\d{1,5}$/i.test(broker)) {
      throw new ConfigError('KAFKA_BROKERS', `entry "${broker}" is not host:port`);
    }
  }
  const ssl = boolean(source, 'KAFKA_SSL', false);
  const sslCaFile = raw(source, 'KAFKA_SSL_CA_FILE');
  if (sslCaFile !== undefined) {
    if (!ssl) throw new ConfigError('KAFKA_SSL_CA_FILE', 'is set but KAFKA_SSL is not true');
    try {
      accessSync(sslCaFile, constants.R_OK);
    } catch {
      throw new ConfigError('KAFKA_SSL_CA_FILE', `"${sslCaFile}" cannot be read`);
    }
  }
  const replication = raw(source, 'KAFKA_REPLICATION_FACTOR');
  const clientId = raw(source, 'KAFKA_CLIENT_ID') ?? 'verdict';
  const groupId = raw(source, 'KAFKA_GROUP_ID') ?? 'verdict';
  const exactlyOnce = boolean(source, 'KAFKA_EXACTLY_ONCE', false);
  const transactionalId = raw(source, 'KAFKA_TRANSACTIONAL_ID');
  if (transactionalId !== undefined && !exactlyOnce) throw new ConfigError('KAFKA_TRANSACTIONAL_ID', 'is set but KAFKA_EXACTLY_ONCE is not true');
  return {
    enabled,
    brokers,
    clientId,
    ssl,
    saslMechanism,
    saslUsername,
    saslPassword: source.KAFKA_SASL_PASSWORD,
    groupId,
    sslCaFile,
    partitions: integer(source, 'KAFKA_PARTITIONS', 3, 1, 10_000),
    replicationFactor: replication === undefined ? undefined : integer(source, 'KAFKA_REPLICATION_FACTOR', 1, 1, 100),
    maxMessageBytes: integer(source, 'KAFKA_MAX_MESSAGE_BYTES', 1024 * 1024, 1024),
    topicRefreshMs: integer(source, 'KAFKA_TOPIC_REFRESH_MS', 5000, 100),
    sessionTimeoutMs: integer(source, 'KAFKA_SESSION_TIMEOUT_MS', 10_000, 1000, 3_600_000),
    exactlyOnce,
    // The host name is what stays the same when the same instance restarts (a StatefulSet pod, a VM, a container
    // with a fixed hostname); instances on one host need KAFKA_TRANSACTIONAL_ID set apart.
    transactionalId: transactionalId ?? `${clientId}-${groupId}-${hostname()}`,
  };
}

function scripts(source: Source): ScriptConfig {
  const workers = integer(source, 'SCRIPT_WORKERS', 4, 1, 256);
  // By default a space may use every worker but one: a single-space installation loses little, and another space
  // always finds a worker while one space's scripts loop until their deadline.
  const workersPerSpace = integer(source, 'SCRIPT_WORKERS_PER_SPACE', Math.max(1, workers - 1), 1, workers);
  const isolateMemoryMb = integer(source, 'SCRIPT_MEMORY_MB', 64, 8, 4096);
  return {
    workers,
    workersPerSpace,
    queuePerSpace: integer(source, 'SCRIPT_QUEUE_PER_SPACE', 1000, 0, 1_000_000),
    isolateMemoryMb,
    solveMemoryMb: integer(source, 'SCRIPT_SOLVE_MEMORY_MB', 512, Math.max(128, isolateMemoryMb), 65_536),
    maxDataChars: integer(source, 'SCRIPT_MAX_DATA_CHARS', 5 * 1024 * 1024, 1024),
    maxDataDepth: integer(source, 'SCRIPT_MAX_DATA_DEPTH', 100, 2, 10_000),
  };
}

function solveLimits(source: Source): SolveLimitsConfig {
  return {
    maxDepth: integer(source, 'SOLVE_MAX_DEPTH', 32, 1, 1000),
    maxCalls: integer(source, 'SOLVE_MAX_CALLS', 1000, 1, 10_000_000),
    maxConcurrentScripts: integer(source, 'SOLVE_MAX_CONCURRENT_SCRIPTS', 64, 1, 1000),
  };
}

function sessions(source: Source): SessionsConfig {
  const secure = raw(source, 'COOKIE_SECURE')?.toLowerCase() ?? 'auto';
  if (!['auto', 'true', 'false'].includes(secure)) throw new ConfigError('COOKIE_SECURE', `"${secure}" is not auto, true or false`);
  return {
    idleMinutes: integer(source, 'SESSION_IDLE_MINUTES', 60, 1, 7 * 24 * 60),
    maxHours: integer(source, 'SESSION_MAX_HOURS', 12, 1, 24 * 90),
    keySignIn: boolean(source, 'STUDIO_KEY_SIGNIN', true),
    cookieSecure: secure === 'auto' ? 'auto' : secure === 'true',
  };
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration as `<n>` (seconds) or `<n>s|m|h|d`, in milliseconds. */
function duration(source: Source, name: string, fallbackMs: number): number {
  const value = raw(source, name);
  if (value === undefined) return fallbackMs;
  const match = /^(\d+)([smhd]?)$/i.exec(value);
  if (!match || Number(match[1]) < 1) throw new ConfigError(name, `"${value}" is not a duration (e.g. 7d, 12h, 30m, 45s)`);
  return Number(match[1]) * DURATION_UNITS_MS[(match[2] || 's').toLowerCase()]!;
}

function jobs(source: Source): JobsConfig {
  const enabled = boolean(source, 'JOBS_ENABLED', true);
  const only = boolean(source, 'JOBS_ONLY', false);
  if (only && !enabled) throw new ConfigError('JOBS_ONLY', 'is true but JOBS_ENABLED is false: an instance that serves only jobs must work them');
  return {
    enabled,
    only,
    chunkSize: integer(source, 'JOBS_CHUNK_SIZE', 5000, 1, 100_000),
    concurrency: integer(source, 'JOBS_CONCURRENCY', 1, 1, 64),
    leaseMs: integer(source, 'JOBS_LEASE_MS', 30_000, 100, 3_600_000),
    resultsTtlMs: duration(source, 'JOBS_RESULTS_TTL', 7 * 86_400_000),
    maxInputs: integer(source, 'JOBS_MAX_INPUTS', 10_000_000, 1),
    maxUploadBytes: integer(source, 'JOBS_MAX_UPLOAD_BYTES', 2 * 1024 * 1024 * 1024, 1024),
    sweepIntervalMs: integer(source, 'JOBS_SWEEP_INTERVAL_MS', 60_000, 10),
    pollIntervalMs: integer(source, 'JOBS_POLL_INTERVAL_MS', 500, 5, 60_000),
  };
}

/**
 * Reads and validates the configuration. `overrides` (from command-line flags) take precedence over `env`.
 * Throws ConfigError naming the first bad variable.
 */
export function loadConfig(env: Source = process.env, overrides: Partial<Record<ConfigVariable, string>> = {}): Config {
  const source: Source = { ...env };
  for (const [name, value] of Object.entries(overrides)) if (value !== undefined) source[name] = value;
  const rate = raw(source, 'RATE_LIMIT_PER_SECOND');
  const mode = compat(source);
  return {
    port: integer(source, 'PORT', 8080, 0, 65535),
    host: raw(source, 'HOST') ?? '0.0.0.0',
    databaseUrl: databaseUrl(source),
    adminToken: raw(source, 'VERDICT_ADMIN_TOKEN'),
    bodyLimitBytes: integer(source, 'BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024),
    bodyTimeoutMs: integer(source, 'BODY_TIMEOUT_MS', 60_000, 100, 3_600_000),
    bulkLimit: integer(source, 'BULK_LIMIT', 10000, 1),
    ruleTimeoutMs: integer(source, 'RULE_TIMEOUT_MS', 5000, 1),
    timeZone: timeZone(source, mode),
    compat: mode,
    arithmeticAssociativity: mode === 'decisionrules-cloud' ? 'right' : 'left',
    httpFunctions: {
      allow: allowedHosts(source, 'HTTP_FUNCTIONS_ALLOW'),
      timeoutMs: integer(source, 'HTTP_FUNCTIONS_TIMEOUT_MS', 2000, 1),
      maxResponseBytes: integer(source, 'HTTP_FUNCTIONS_MAX_RESPONSE_BYTES', 3000, 1),
      maxRequestBytes: integer(source, 'HTTP_FUNCTIONS_MAX_REQUEST_BYTES', 10000, 1),
      maxRedirects: integer(source, 'HTTP_FUNCTIONS_MAX_REDIRECTS', 5, 0, 20),
    },
    webhooks: {
      enabled: boolean(source, 'WEBHOOKS_ENABLED', true),
      allow: allowedHosts(source, 'WEBHOOKS_ALLOW'),
      timeoutMs: integer(source, 'WEBHOOKS_TIMEOUT_MS', 10_000, 100, 120_000),
      retryBaseMs: integer(source, 'WEBHOOKS_RETRY_BASE_MS', 30_000, 1, 3_600_000),
      retryHours: integer(source, 'WEBHOOKS_RETRY_HOURS', 24, 1, 24 * 7),
      disableAfter: integer(source, 'WEBHOOKS_DISABLE_AFTER', 100, 1, 100_000),
      pollMs: integer(source, 'WEBHOOKS_POLL_MS', 1000, 10, 60_000),
    },
    kafka: kafka(source),
    logLevel: logLevel(source),
    audit: {
      defaultTtlDays: integer(source, 'AUDIT_TTL_DAYS', 14, 1, MAX_AUDIT_TTL_DAYS),
      flushIntervalMs: integer(source, 'AUDIT_FLUSH_MS', 250, 1),
      batchSize: integer(source, 'AUDIT_BATCH_SIZE', 500, 1),
      queueLimit: integer(source, 'AUDIT_QUEUE_LIMIT', 10000, 1),
      retentionIntervalMs: integer(source, 'AUDIT_RETENTION_INTERVAL_MS', 3600_000, 1000),
    },
    rateLimitPerSecond: rate === undefined ? undefined : integer(source, 'RATE_LIMIT_PER_SECOND', 0, 1),
    secretsKey: secretsKey(source, 'SECRETS_KEY'),
    secretsKeysPrevious: list(source, 'SECRETS_KEY_PREVIOUS').map((value) => secretsKeyOf(value, 'SECRETS_KEY_PREVIOUS')),
    seedExamples: boolean(source, 'VERDICT_SEED_EXAMPLES', true),
    shutdownTimeoutMs: integer(source, 'SHUTDOWN_TIMEOUT_MS', 10000, 0),
    scripts: scripts(source),
    solveLimits: solveLimits(source),
    studioEnabled: boolean(source, 'STUDIO_ENABLED', true),
    mcpEnabled: boolean(source, 'MCP_ENABLED', true),
    sessions: sessions(source),
    trustProxy: boolean(source, 'TRUST_PROXY', false),
    tokenIssuers: tokenIssuers(raw(source, 'TOKEN_ISSUERS'), (problem) => new ConfigError('TOKEN_ISSUERS', problem)),
    oidcProviders: oidcProviders(raw(source, 'OIDC_PROVIDERS'), (problem) => new ConfigError('OIDC_PROVIDERS', problem)),
    jobs: jobs(source),
  };
}
