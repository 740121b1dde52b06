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

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config);
  const ownsStore = options.store === undefined;
  const store = options.store ?? (await openStore(config.databaseUrl, { listen: true, log: logger }));
  let services: Services | undefined;
  let app: VerdictApp | undefined;
  const running: RunningPart[] = [];
  try {
    services = buildServices({ config, store, log: logger, clock: options.clock, ...options.services });
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
