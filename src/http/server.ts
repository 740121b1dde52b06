// Starts and stops a whole server: store (migrated), services, first-start bootstrap, HTTP listener, extensions
// (the Kafka channel plugs in here), and a graceful stop: readiness goes 503, the listener stops accepting,
// in-flight requests finish, extensions stop, audits are flushed, the store closes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { Services } from '../service/index.ts';
import type { ServicesOptions } from '../service/index.ts';
import type { Clock } from '../service/clock.ts';
import type { CreatedSpace } from '../service/spaces.ts';
import { openStore } from '../store/open.ts';
import type { Store } from '../store/ports.ts';
import { buildApp } from './app.ts';
import type { AppOptions, VerdictApp } from './app.ts';
import type { ReadinessCheck } from './plugins/health.ts';
import { adminPlugin } from './plugins/admin.ts';
import { MANAGEMENT_PLUGINS } from './plugins/management/index.ts';
import { studioPlugin } from './plugins/studio.ts';

/** Something that runs beside the HTTP server (the Kafka channel): started after listen, stopped before the store. */
export interface ServerExtension {
  name: string;
  start(context: { services: Services; app: VerdictApp; logger: Logger }): Promise<RunningExtension>;
}
export interface RunningExtension {
  stop(): Promise<void>;
  /** Readiness check for /health/ready. */
  ready?: ReadinessCheck;
}

export interface StartServerOptions {
  config: Config;
  logger?: Logger;
  clock?: Clock;
  /** An already-open store (tests); otherwise opened from config.databaseUrl with change listening on. */
  store?: Store;
  extensions?: ServerExtension[];
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
  close(): Promise<void>;
}

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/rules/', import.meta.url));

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'verdict' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}

async function seedExamples(services: Services, space: string, logger: Logger): Promise<string[]> {
  let files: string[];
  try {
    files = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const seeded: string[] = [];
  for (const file of files) {
    try {
      const { imported } = await services.rulesIO.importContainer(space, JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')));
      seeded.push(...imported.map((r) => r.ruleAlias));
    } catch (err) {
      logger.warn({ err, file }, 'example rule not imported');
    }
  }
  return seeded;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config);
  const ownsStore = options.store === undefined;
  const store = options.store ?? (await openStore(config.databaseUrl, { listen: true, log: logger }));
  let services: Services | undefined;
  let app: VerdictApp | undefined;
  const running: RunningExtension[] = [];
  try {
    services = new Services({ config, store, log: logger, clock: options.clock, ...options.services });
    const createdDefaultSpace = await services.spaces.createDefaultIfEmpty();
    const seededExamples = createdDefaultSpace && config.seedExamples ? await seedExamples(services, createdDefaultSpace.space, logger) : [];
    const readinessChecks: Record<string, ReadinessCheck> = {};
    app = await buildApp({
      services,
      logger,
      readinessChecks,
      managementPlugins: [...MANAGEMENT_PLUGINS, ...(options.managementPlugins ?? [])],
      plugins: [adminPlugin, (scope, opts) => studioPlugin(scope, { ...opts, dir: options.studioDir }), ...(options.plugins ?? [])],
    });
    await app.listen({ port: config.port, host: config.host });
    services.start();
    for (const extension of options.extensions ?? []) {
      const started = await extension.start({ services, app, logger });
      running.push(started);
      if (started.ready) readinessChecks[extension.name] = started.ready;
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    let closing: Promise<void> | undefined;
    const readyServices = services;
    const readyApp = app;
    return {
      app,
      services,
      store,
      logger,
      url,
      createdDefaultSpace,
      seededExamples,
      close: () => {
        closing ??= (async () => {
          readyApp.markShuttingDown();
          await readyApp.close();
          for (const extension of running.reverse()) await extension.stop().catch((err: unknown) => logger.error({ err }, 'extension stop failed'));
          await readyServices.stop();
          if (ownsStore) await store.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    for (const extension of running) await extension.stop().catch(() => undefined);
    if (app) await app.close().catch(() => undefined);
    if (services) await services.stop().catch(() => undefined);
    if (ownsStore) await store.close().catch(() => undefined);
    throw err;
  }
}
