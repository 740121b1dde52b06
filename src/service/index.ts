// The service layer: one instance per process (or per test server), built by the composition root (src/server).
// Adapters (HTTP, Kafka, CLI) receive this object and call its use cases; the store stays private to it, and
// nothing here knows about HTTP or Kafka.
import type { Config } from '../config.ts';
import { compileRule } from '../engine/index.ts';
import type { CompiledRule, HttpClient, ScriptSandbox } from '../engine/types.ts';
import type { AuditFilter, AuditPage, Store } from '../store/ports.ts';
import { ActivityLog } from './activity.ts';
import { AuditWriter } from './audit-writer.ts';
import type { Clock } from './clock.ts';
import { isoAt, systemClock } from './clock.ts';
import { AllowlistHttpClient } from './http-client.ts';
import { JobService } from './jobs/service.ts';
import { KafkaBindingService } from './kafka-bindings.ts';
import type { TopicProvisioner } from './kafka-bindings.ts';
import { KeyService } from './keys.ts';
import { MachineTokenService } from './machine-tokens.ts';
import { ManagementService } from './management/index.ts';
import { Metrics } from './metrics.ts';
import { RateLimiter } from './rate-limit.ts';
import { RetentionTask } from './retention.ts';
import { RuleCache } from './rule-cache.ts';
import { RulesIO } from './rules-io.ts';
import { RuleTestService } from './rule-tests/service.ts';
import { createSandboxes, sharedSandbox } from './sandbox.ts';
import type { SpaceSandboxes } from './sandbox.ts';
import { SessionService } from './sessions.ts';
import { SsoService } from './sso.ts';
import { SignInThrottle } from './sign-in-throttle.ts';
import { SolveService } from './solve.ts';
import { SolveWindow } from './solve-window.ts';
import type { WindowReport } from './solve-window.ts';
import { SpaceService } from './spaces.ts';
import { UserService } from './users.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { SecretBox } from './webhooks/secret-box.ts';
import { httpSender } from './webhooks/sender.ts';
import type { Sender } from './webhooks/sender.ts';
import { WebhookService } from './webhooks/service.ts';

import type { ServiceLogger } from './logger.ts';
export type { ServiceLogger };

/** The key that seals stored secrets (none: kept as they are) and earlier keys that still open them. */
export interface SecretsKeys {
  current: Buffer | undefined;
  previous: Buffer[];
}

export interface ServicesOptions {
  config: Config;
  store: Store;
  log: ServiceLogger;
  clock?: Clock;
  /** Defaults to the engine's compileRule with the configured time zone and arithmetic grouping (COMPAT). */
  compile?: (document: Record<string, unknown>) => CompiledRule;
  /**
   * Defaults to the pool of script worker processes; pass a sandbox to run every space's scripts in it, or null
   * for none (scripts then fail with a rule error).
   */
  sandbox?: ScriptSandbox | null;
  http?: HttpClient;
  /** Default true; tests that build many services turn off process-level default metrics. */
  defaultMetrics?: boolean;
  /** Sends webhook deliveries; default: HTTP POST within WEBHOOKS_TIMEOUT_MS to targets WEBHOOKS_ALLOW permits. */
  webhookSender?: Sender;
  /** The keys of stored secrets (webhook signing secrets); default: SECRETS_KEY and SECRETS_KEY_PREVIOUS. */
  secretsKeys?: SecretsKeys;
  /** Loads the topic provisioner for `kafka.enable` (src/kafka, wired by src/server); without it enabling fails. */
  topicProvisioner?: () => Promise<TopicProvisioner>;
}

export class Services {
  readonly config: Config;
  readonly #store: Store;
  readonly clock: Clock;
  readonly metrics: Metrics;
  readonly keys: KeyService;
  /** JWT access tokens of the configured issuers (TOKEN_ISSUERS). */
  readonly machineTokens: MachineTokenService;
  readonly spaces: SpaceService;
  readonly cache: RuleCache;
  readonly audit: AuditWriter;
  readonly retention: RetentionTask;
  readonly solver: SolveService;
  readonly rulesIO: RulesIO;
  readonly management: ManagementService;
  readonly ruleTests: RuleTestService;
  readonly kafka: KafkaBindingService;
  readonly rateLimiter: RateLimiter | undefined;
  readonly users: UserService;
  readonly sessions: SessionService;
  /** Single sign-on with the providers of OIDC_PROVIDERS. */
  readonly sso: SsoService;
  readonly signInThrottle: SignInThrottle;
  /** The space's activity log: who did what (rule writes record through their own transactions). */
  readonly activity: ActivityLog;
  /** Webhooks of a space and their delivery log. */
  readonly webhooks: WebhookService;
  /** Sends the outbox's due deliveries (started only when WEBHOOKS_ENABLED). */
  readonly webhookDispatcher: WebhookDispatcher;
  /** Batch jobs: start, state, cancel, results; the worker and sweeper run when JOBS_ENABLED (docs/jobs.md). */
  readonly jobs: JobService;
  /** Per-rule solves and latency of the last hour, for the Studio's overview. */
  readonly solveWindow = new SolveWindow();
  readonly sandbox: SpaceSandboxes | undefined;
  readonly log: ServiceLogger;
  #started = false;

  constructor(options: ServicesOptions) {
    const { config, store, log } = options;
    this.config = config;
    this.#store = store;
    this.log = log;
    this.clock = options.clock ?? systemClock;
    this.metrics = new Metrics({ defaultMetrics: options.defaultMetrics });
    this.keys = new KeyService(store, this.clock);
    this.machineTokens = new MachineTokenService(config.tokenIssuers, log);
    this.spaces = new SpaceService(store, this.clock);
    const compile = options.compile ?? ((document: Record<string, unknown>) => compileRule(document, { timeZone: config.timeZone, arithmeticAssociativity: config.arithmeticAssociativity }));
    this.cache = new RuleCache(store, compile);
    this.audit = new AuditWriter(store.audits, config.audit, log, this.metrics);
    this.retention = new RetentionTask(store.audits, this.clock, config.audit.retentionIntervalMs, log);
    this.sandbox =
      options.sandbox === null
        ? undefined
        : options.sandbox
          ? sharedSandbox(options.sandbox)
          : createSandboxes(config, this.metrics, (message, details) => log.warn(details, message));
    this.solver = new SolveService({
      config,
      cache: this.cache,
      audit: this.audit,
      metrics: this.metrics,
      clock: this.clock,
      http: options.http ?? new AllowlistHttpClient(config.httpFunctions),
      sandbox: this.sandbox,
      window: this.solveWindow,
    });
    this.rulesIO = new RulesIO(store, this.clock);
    this.ruleTests = new RuleTestService({ store, cache: this.cache, solver: this.solver, clock: this.clock, compile });
    this.management = new ManagementService({ store, clock: this.clock, compile, cache: this.cache, solver: this.solver, publishGate: this.ruleTests });
    this.kafka = new KafkaBindingService(store, config.kafka, this.clock, options.topicProvisioner);
    this.rateLimiter = config.rateLimitPerSecond === undefined ? undefined : new RateLimiter(config.rateLimitPerSecond, this.clock);
    this.users = new UserService(store, this.clock);
    this.sessions = new SessionService(store, this.clock, this.users, config.sessions);
    this.sso = new SsoService(config.oidcProviders, { users: this.users, sessions: this.sessions }, log);
    this.signInThrottle = new SignInThrottle(this.clock);
    this.activity = new ActivityLog(store, this.clock);
    const keys = options.secretsKeys ?? { current: config.secretsKey, previous: config.secretsKeysPrevious };
    const secrets = new SecretBox(keys.current, keys.previous);
    this.webhooks = new WebhookService(store, this.clock, config.webhooks, secrets);
    this.webhookDispatcher = new WebhookDispatcher({
      secrets,
      store: store.webhooks,
      clock: this.clock,
      config: config.webhooks,
      send: options.webhookSender ?? httpSender({ allow: config.webhooks.allow, timeoutMs: config.webhooks.timeoutMs }),
      log,
    });
    this.webhooks.onEnqueued = () => this.webhookDispatcher.wake();
    this.jobs = new JobService({ config, store: store.jobs, cache: this.cache, solver: this.solver, activity: this.activity, clock: this.clock, log });
  }

  /** Starts the background tasks: audit flushing and retention, (WEBHOOKS_ENABLED) webhook dispatching and (JOBS_ENABLED) the job worker and sweeper. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.audit.start();
    this.retention.start();
    if (this.config.webhooks.enabled) this.webhookDispatcher.start();
    this.jobs.startWorking();
  }

  listAudits(space: string, filter: AuditFilter): Promise<AuditPage> {
    return this.#store.audits.list(space, filter, isoAt(this.clock));
  }

  /** Solves per minute of each rule of the space over the last hour, with error counts and p50/p99 latency. */
  overview(space: string): WindowReport {
    return this.solveWindow.report(space, this.clock());
  }

  /** Readiness: throws when the database cannot be reached. */
  ping(): Promise<void> {
    return this.#store.ping();
  }

  /** Flushes audits and stops background tasks; the store stays open (its owner closes it). */
  async stop(): Promise<void> {
    // The worker first: the chunks in hand finish (their audits and events still go out), other leases are released.
    await this.jobs.stop();
    await this.webhookDispatcher.stop();
    await this.audit.stop();
    await this.retention.stop();
    this.sandbox?.dispose();
  }
}

export { ServiceError, MESSAGES } from './errors.ts';
export type { ErrorCode, ErrorKind } from './errors.ts';
export type { Principal } from './keys.ts';
export type { SolveRequest, SolveResponse } from './solve.ts';
