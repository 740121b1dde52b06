// `verdict mcp`: the process around the MCP server over stdio. The store comes from DATABASE_URL as for every
// command (not listening for other instances' changes: each tool call reads the store), scripts run in the
// supervised worker pool as in `verdict serve`, the caller is the management key in VERDICT_KEY, and logs go to
// stderr because stdout carries the protocol.
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { ServiceError } from '../service/errors.ts';
import { openStore } from '../store/open.ts';
import { resolveSecretsKeys } from './secrets-key.ts';
import { buildServices } from './services.ts';

export class McpStartError extends Error {}

export async function runMcpOverStdio(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env);
  const key = env.VERDICT_KEY?.trim();
  if (!key) {
    throw new McpStartError('VERDICT_KEY must hold a management key of the space to work in (create one: verdict key create --space SPACE --type management)');
  }
  const logger = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, base: { service: 'verdict-mcp' } }, pino.destination(2));
  const store = await openStore(config.databaseUrl);
  const services = buildServices({ config, store, secretsKeys: resolveSecretsKeys(config), log: logger, defaultMetrics: false });
  try {
    let principal;
    try {
      principal = await services.keys.authenticate(`Bearer ${key}`, 'management');
    } catch (err) {
      if (err instanceof ServiceError) throw new McpStartError(`VERDICT_KEY is not a management key of any space (${err.message}); MCP needs a management key`);
      throw err;
    }
    const { serveMcpOverStdio } = await import('../mcp/stdio.ts');
    await serveMcpOverStdio(services, principal);
  } finally {
    await services.stop();
    await store.close();
  }
}
