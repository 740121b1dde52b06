// GET /api/space/items (SPEC 5.1): one row per rule version of the key's space, without rule bodies.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, errors, securedBy, setUpScope, spaceOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const itemSchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    baseId: { type: 'string' },
    ruleId: { type: 'string' },
    version: { type: 'integer' },
    name: { type: 'string' },
    ruleAlias: { type: 'string' },
    type: { type: 'string' },
    status: { type: 'string', enum: ['published', 'pending'] },
    locked: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    description: { type: 'string' },
    createdIn: { type: 'string', description: 'Creation time as the document records it (kept from an imported export)' },
    lastUpdate: { type: 'string', description: 'Last update as the document records it (kept from an imported export until the next write)' },
    createdAt: { type: 'string', format: 'date-time', description: 'When this version was first stored in this Verdict' },
    updatedAt: { type: 'string', format: 'date-time', description: 'When this version was last written in this Verdict (its last change)' },
    folder: { type: 'string', description: 'Folder path; / is the root' },
    rules: {
      type: 'array',
      description: 'Rule flows and decision flows: the rules they use, as referenced',
      items: { type: 'object', properties: { id: { type: 'string' }, version: { type: 'integer' } } },
    },
  },
} as const;

export async function spacePlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  setUpScope(app, services);
  app.get('/api/space/items', {
    onRequest: authenticate(services),
    config: { permission: 'rules:read' },
    schema: {
      tags: ['Space'],
      summary: "List every version of every rule of the key's space",
      operationId: 'getSpaceItems',
      security: securedBy,
      response: { 200: { type: 'array', items: itemSchema }, ...errors([401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => services.management.rules.items(spaceOf(request)),
  });
}
