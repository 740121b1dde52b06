// Liveness (/health-check, DecisionRules' path) and readiness (/health/ready: the store and any registered
// dependency such as Kafka answer; 503 while shutting down).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/index.ts';

export type ReadinessCheck = () => Promise<void>;

export interface HealthPluginOptions {
  services: Services;
  checks: Record<string, ReadinessCheck>;
  /** True once shutdown began: the load balancer should stop sending traffic. */
  isShuttingDown: () => boolean;
  timeoutMs?: number;
}

async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthPlugin(app: FastifyInstance, options: HealthPluginOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 2000;
  app.get('/health-check', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    if (options.isShuttingDown()) return reply.code(503).send({ status: 'shutting down', checks: {} });
    const checks: Record<string, string> = {};
    let ready = true;
    const all: Record<string, ReadinessCheck> = { store: () => options.services.ping(), ...options.checks };
    await Promise.all(
      Object.entries(all).map(async ([name, check]) => {
        try {
          await within(check(), timeoutMs);
          checks[name] = 'ok';
        } catch (err) {
          ready = false;
          checks[name] = err instanceof Error ? err.message : String(err);
        }
      }),
    );
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
}
