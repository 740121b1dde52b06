// `verdict serve`: start the HTTP server (SPEC 6). Flags override the environment. The process itself (start,
// first-start banner, graceful stop on SIGTERM/SIGINT) is the composition root's: src/server/serve.ts.
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config.ts';
import type { Config } from '../../config.ts';
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
      // Loaded here, not at the top, so that other commands start fast.
      const { serve } = await import('../../server/serve.ts');
      // A failed Kafka connection is one clear line.
      await serve(config).catch((err: unknown) => {
        throw err instanceof Error && err.name === 'KafkaStartError' ? new InputError(err.message) : err;
      });
    });
}
