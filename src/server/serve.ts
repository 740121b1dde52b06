// `verdict serve` as a process: start everything, print the first-start banner, and stop gracefully on SIGTERM or
// SIGINT (readiness 503, no new connections, in-flight requests finish, audits flushed, store closed), exiting
// with code 1 when the stop takes longer than SHUTDOWN_TIMEOUT_MS.
import type { Config } from '../config.ts';
import type { CreatedSpace } from '../service/spaces.ts';
import { createLogger } from './logger.ts';
import { startServer } from './start.ts';

export function firstStartBanner(created: CreatedSpace, seeded: string[], url: string, admin?: { username: string; password: string }): string {
  const lines = [
    '',
    `Verdict created the space "${created.space}" (first start on an empty store).`,
    admin === undefined ? 'These keys are shown once; store them now:' : 'These keys and the password are shown once; store them now:',
    `  solver key:      ${created.solverKey}`,
    `  management key:  ${created.managementKey}`,
  ];
  if (admin !== undefined) {
    lines.push(
      `  Studio sign-in:  ${url}/studio/ as user "${admin.username}", password ${admin.password}`,
      `  (admin of "${created.space}"; add people with \`verdict user create NAME --space ${created.space} --role editor\`)`,
    );
  }
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

/** Runs the server until a signal stops it. Throws when it cannot start (a KafkaStartError names the cause). */
export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config);
  const server = await startServer({ config, logger });
  if (server.createdDefaultSpace) process.stdout.write(firstStartBanner(server.createdDefaultSpace, server.seededExamples, server.url, server.adminUser));
  logger.info({ url: server.url, store: server.store.dialect, pid: process.pid }, 'verdict listening');

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
