// GET /metrics: Prometheus text format from the service's registry.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/index.ts';

export async function metricsPlugin(app: FastifyInstance, options: { services: Services }): Promise<void> {
  const { registry } = options.services.metrics;
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}
