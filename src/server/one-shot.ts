// A short-lived process context for one-shot commands (CLI): configuration, the store opened (and migrated)
// without change listening, and the services, closed together.
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import type { Services } from '../service/index.ts';
import { openStore } from '../store/open.ts';
import { resolveSecretsKeys } from './secrets-key.ts';
import { buildServices } from './services.ts';

const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

export async function withServices<T>(work: (services: Services, config: Config) => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const config = loadConfig(env);
  const store = await openStore(config.databaseUrl);
  const services = buildServices({ config, store, secretsKeys: resolveSecretsKeys(config), log: quiet, sandbox: null, defaultMetrics: false });
  try {
    return await work(services, config);
  } finally {
    await services.stop();
    await store.close();
  }
}
