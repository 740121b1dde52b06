// `verdict serve`: start the HTTP server (SPEC 6). Flags override the environment. SIGTERM/SIGINT stop it
// gracefully: readiness 503, no new connections, in-flight requests finish, audits flushed, store closed.
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config.ts';
import type { Config } from '../../config.ts';
import type { CreatedSpace } from '../../service/spaces.ts';
import { InputError } from '../errors.ts';

interface ServeOptions {
  port?: string;
  host?: string;
  databaseUrl?: string;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('start the HTTP server (configured by environment variables: see the README section "Configuration")')
    .option('-p, --port <port>', 'listen port (PORT, default 8080)', (value: string) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a port number');
      return value;
    })
    .option('--host <host>', 'listen address (HOST, default 0.0.0.0)')
    .option('--database-url <url>', 'sqlite:PATH or postgres://... (DATABASE_URL, default sqlite:./data/verdict.db)')
    .action(async (options: ServeOptions) => {
      let config: Config;
      try {
        config = loadConfig(process.env, { PORT: options.port, HOST: options.host, DATABASE_URL: options.databaseUrl });
      } catch (err) {
        if (err instanceof ConfigError) throw new InputError(err.message);
        throw err;
      }
      await serve(config);
    });
}

export function firstStartBanner(created: CreatedSpace, seeded: string[], url: string): string {
  const lines = [
    '',
    `Verdict created the space "${created.space}" (first start on an empty store).`,
    'These keys are shown once; store them now:',
    `  solver key:      ${created.solverKey}`,
    `  management key:  ${created.managementKey}`,
  ];
  if (seeded.length > 0) {
    lines.push(`Example rules imported: ${seeded.join(', ')}`);
    if (seeded.includes('shipping-fee')) {
      lines.push(
        'Try:',
        `  curl -s -X POST ${url}/rule/solve/shipping-fee -H "Authorization: Bearer ${created.solverKey}" \\`,
        `       -H "Content-Type: application/json" -d '{"data": {"order": {"country": "CZ", "total": 120}}}'`,
      );
    }
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}

async function serve(config: Config): Promise<void> {
  const { startServer, createLogger } = await import('../../http/server.ts');
  const logger = createLogger(config);
  // Kafka channel hook (src/kafka): runs beside HTTP when KAFKA_ENABLED=true; a failed connection is one clear line.
  const extensions = config.kafka.enabled ? [(await import('../../kafka/extension.ts')).kafkaExtension(config.kafka)] : [];
  const server = await startServer({ config, logger, extensions }).catch((err: unknown) => {
    throw err instanceof Error && err.name === 'KafkaStartError' ? new InputError(err.message) : err;
  });
  if (server.createdDefaultSpace) process.stdout.write(firstStartBanner(server.createdDefaultSpace, server.seededExamples, server.url));
  logger.info({ url: server.url, store: server.store.dialect }, 'verdict listening');

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      const force = setTimeout(() => {
        logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
        process.exit(1);
      }, config.shutdownTimeoutMs);
      force.unref();
      server.close().then(
        () => {
          logger.info({}, 'stopped');
          resolve();
        },
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exitCode = 1;
          resolve();
        },
      );
    };
    // `on`, not `once`: Ctrl-C under a wrapper (npm, bin/verdict.js on an older Node) delivers SIGINT twice, from
    // the terminal and forwarded; the second must not kill the process mid-shutdown. The timer above still ends it.
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}
