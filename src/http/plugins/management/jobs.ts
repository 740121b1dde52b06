// The Studio's Jobs page: the job routes of ../jobs.ts under /api/space/jobs, for a session or a management key of
// the space (permission rules:solve), plus the list of the space's jobs, newest first.
import type { FastifyInstance } from 'fastify';
import { jobSchema, registerJobRoutes } from '../jobs.ts';
import { authenticate, errors, securedBy, setUpScope, spaceOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

export async function spaceJobsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  app.get('/api/space/jobs', {
    onRequest: authenticate(services),
    config: { permission: 'rules:solve' },
    schema: {
      tags: ['Jobs'],
      security: securedBy,
      summary: "The space's jobs, newest first (the last 100)",
      operationId: 'listSpaceJobs',
      response: { 200: { type: 'array', items: jobSchema }, ...errors([401, 403, 429, 500]) },
    },
    handler: (request) => services.jobs.list(spaceOf(request)),
  });
  registerJobRoutes(app, services, {
    prefix: '/api/space/jobs',
    authenticate: authenticate(services),
    permission: 'rules:solve',
    tag: 'Jobs',
    security: securedBy,
    cancelAll: false,
  });
}
