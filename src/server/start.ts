// The composition root: starts and stops a whole Verdict process. It owns the order of things: store (opened
// and migrated), services, first-start bootstrap, HTTP listener, Kafka channel (KAFKA_ENABLED=true); and a
// graceful stop: readiness goes 503, the listener stops accepting, in-flight requests finish, the Kafka channel
// stops, audits are flushed, the store closes. Adapters (src/http, src/kafka) never see each other or the store.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { buildApp } from '../http/app.ts';
import type { AppOptions, VerdictApp } from '../http/app.ts';
import { adminPlugin } from '../http/plugins/admin.ts';
import type { ReadinessCheck } from '../http/plugins/health.ts';
import { MANAGEMENT_PLUGINS } from '../http/plugins/management/index.ts';
import { mcpPlugin } from '../http/plugins/mcp.ts';
import { studioPlugin } from '../http/plugins/studio.ts';
import type { Services, ServicesOptions } from '../service/index.ts';
import type { Clock } from '../service/clock.ts';
import type { CreatedSpace } from '../service/spaces.ts';
import { openStore } from '../store/open.ts';
import type { Store } from '../store/ports.ts';
import { bootstrapFirstStart } from './first-start.ts';
import { createLogger } from './logger.ts';
import { reportNamespaceClashes } from './namespace-report.ts';
import { resolveSecretsKeys } from './secrets-key.ts';
import type { ResolvedSecretsKeys } from './secrets-key.ts';
import { buildServices } from './services.ts';

/** A part that runs beside the HTTP listener (the Kafka channel): stopped before the services and the store. */
interface RunningPart {
  name: string;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  config: Config;
  logger?: Logger;
  clock?: Clock;
  /** An already-open store (tests); otherwise opened from config.databaseUrl with change listening on. */
  store?: Store;
  managementPlugins?: AppOptions['managementPlugins'];
  plugins?: AppOptions['plugins'];
  services?: Partial<Pick<ServicesOptions, 'compile' | 'sandbox' | 'http' | 'defaultMetrics'>>;
  /** The built Studio to serve; default studio/dist of this checkout. */
  studioDir?: string;
}

export interface RunningServer {
  app: VerdictApp;
  services: Services;
  store: Store;
  logger: Logger;
  /** `http://host:port` as bound (the real port when PORT=0). */
  url: string;
  /** Set on the first start on an empty store: the keys to print once. */
  createdDefaultSpace: CreatedSpace | undefined;
  /** Seeded example rules (first start only). */
  seededExamples: string[];
  /** The admin user made on the first start, with its password to print once. */
  adminUser: { username: string; password: string } | undefined;
  close(): Promise<void>;
}

function boundUrl(app: VerdictApp, config: Config): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Seals the webhook secrets kept as they are or under an earlier key; says what it did, or why it could not. */
async function sealStoredSecrets(services: Services, secrets: ResolvedSecretsKeys, config: Config, logger: Logger): Promise<void> {
  if (secrets.current === undefined) {
    if (!config.databaseUrl.startsWith('sqlite:')) {
      logger.warn('SECRETS_KEY is not set: webhook signing secrets are stored unencrypted (set it to 32 random bytes, the same on every instance)');
    }
    return;
  }
  if (secrets.source === 'key file') logger.info({ file: secrets.file }, 'secrets key read from its file (keep it with the database and its backups)');
  const { sealed, unreadable } = await services.webhooks.sealStoredSecrets();
  if (sealed > 0) logger.info({ sealed }, 'stored webhook secrets sealed with the current secrets key');
  if (unreadable.length > 0) {
    logger.error({ webhooks: unreadable }, 'webhook secrets sealed under a key this instance does not have: their deliveries fail until SECRETS_KEY or SECRETS_KEY_PREVIOUS holds it');
  }
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config);
  const ownsStore = options.store === undefined;
  const store = options.store ?? (await openStore(config.databaseUrl, { listen: true, log: logger }));
  let services: Services | undefined;
  let app: VerdictApp | undefined;
  const running: RunningPart[] = [];
  try {
    // The SQLite key file is the database's companion: only a store this process opened from DATABASE_URL has one.
    const secrets: ResolvedSecretsKeys = ownsStore
      ? resolveSecretsKeys(config)
      : { current: config.secretsKey, previous: config.secretsKeysPrevious, source: config.secretsKey ? 'SECRETS_KEY' : 'none' };
    services = buildServices({ config, store, log: logger, clock: options.clock, secretsKeys: secrets, ...options.services });
    await sealStoredSecrets(services, secrets, config, logger);
    const { createdDefaultSpace, seededExamples, adminUser } = await bootstrapFirstStart(services, logger);
    await reportNamespaceClashes(services, logger);
    const readinessChecks: Record<string, ReadinessCheck> = {};
    // JOBS_ONLY: a dedicated job worker (DecisionRules' ONLY_JOB_SERVER) serves the job routes and health only.
    const jobsOnly = config.jobs.only;
    app = await buildApp({
      services,
      logger,
      readinessChecks,
      jobsOnly,
      managementPlugins: [...MANAGEMENT_PLUGINS, ...(options.managementPlugins ?? [])],
      plugins: jobsOnly
        ? (options.plugins ?? [])
        : [
          adminPlugin,
          (scope, opts) => studioPlugin(scope, { ...opts, dir: options.studioDir }),
          (scope, opts) => mcpPlugin(scope, { ...opts, load: async (s) => (await import('../mcp/http.ts')).mcpHttpHandler(s) }),
          ...(options.plugins ?? []),
        ],
    });
    await app.listen({ port: config.port, host: config.host });
    services.start();
    if (config.kafka.enabled) {
      // Loaded only when enabled: servers without Kafka never load the Kafka client.
      const { startKafkaChannel } = await import('./kafka-channel.ts');
      const channel = await startKafkaChannel(config.kafka, services, store, logger);
      services.kafka.attachChannel({ topics: () => channel.topics });
      const kafkaBindings = services.kafka;
      running.push({ name: 'kafka', stop: () => { kafkaBindings.attachChannel(undefined); return channel.stop(); } });
      readinessChecks.kafka = () => channel.ready();
    }
    let closing: Promise<void> | undefined;
    const readyServices = services;
    const readyApp = app;
    return {
      app,
      services,
      store,
      logger,
      url: boundUrl(app, config),
      createdDefaultSpace,
      seededExamples,
      adminUser,
      close: () => {
        closing ??= (async () => {
          readyApp.markShuttingDown();
          await readyApp.close();
          for (const part of running.reverse()) await part.stop().catch((err: unknown) => logger.error({ err, part: part.name }, 'stop failed'));
          await readyServices.stop();
          if (ownsStore) await store.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    for (const part of running) await part.stop().catch(() => undefined);
    if (app) await app.close().catch(() => undefined);
    if (services) await services.stop().catch(() => undefined);
    if (ownsStore) await store.close().catch(() => undefined);
    throw err;
  }
}
