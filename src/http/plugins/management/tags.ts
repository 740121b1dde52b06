// Tags (SPEC 5.1): GET /api/tags/items?tags=a,b (versions carrying all of them), PATCH /api/tags/{id}/{version?}
// (add), DELETE /api/tags/{id}/{version?}?tags=a,b (remove). Without a version, every version of the rule.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TagChange } from '../../../service/management/tags.ts';
import { readTags, splitTags } from '../../../service/management/documents.ts';
import {
  STANDARD_ERRORS, authenticate, errors, ifMatchHeaders, params, ruleDocumentSchema, securedBy, setUpScope, spaceOf, versionOf, writeOptions,
} from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

interface TagParams {
  idOrAlias: string;
  version?: string;
}

const TAGS = ['Tags'];
const tagsQuery = {
  type: 'object',
  properties: { tags: { type: 'string', description: 'Comma-separated tag names, e.g. tags=eu,pricing' } },
} as const;
const tagListSchema = { type: 'array', items: { type: 'string' }, description: 'The tags of the (highest) version changed, afterwards' } as const;

/** The tag list; with one version named, its new ETag as a header. */
function answer(reply: FastifyReply, change: TagChange): string[] {
  if (change.etag !== undefined) void reply.header('etag', change.etag);
  return change.tags;
}

export async function tagsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const tags = services.management.tags;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  app.get('/api/tags/items', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      tags: TAGS,
      summary: 'Rule versions carrying every tag given',
      operationId: 'getRulesByTags',
      security: securedBy,
      querystring: { ...tagsQuery, required: ['tags'] },
      response: { 200: { type: 'array', items: ruleDocumentSchema }, ...errors([400, 401, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => {
      const query = request.query as { tags?: string };
      return tags.find(spaceOf(request), splitTags(query.tags, 'Query parameter tags'));
    },
  });

  for (const withVersion of [false, true]) {
    const url = withVersion ? '/api/tags/:idOrAlias/:version' : '/api/tags/:idOrAlias';
    const which = withVersion ? 'one version' : 'every version';
    app.patch(url, {
      onRequest,
      config: { permission: 'rules:edit' },
      schema: {
        tags: TAGS,
        summary: `Add tags to ${which} of a rule`,
        description: 'Body: an array of tag names, or of {"tagName": ..., "color": ...} objects (colours are not kept).',
        operationId: withVersion ? 'addTagsToVersion' : 'addTags',
        security: securedBy,
        params: params(withVersion),
        headers: ifMatchHeaders,
        body: {
          anyOf: [
            { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object', properties: { tagName: { type: 'string' }, color: { type: 'string' } } }] } },
            { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
          ],
          'x-message': 'Request body must be an array of tag names, e.g. ["eu", "pricing"]',
        },
        response: { 200: tagListSchema, ...errors([...STANDARD_ERRORS, 409, 412]) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as TagParams;
        return answer(reply, await tags.add(spaceOf(request), p.idOrAlias, versionOf(p), readTags(request.body, 'body'), writeOptions(request)));
      },
    });
    app.delete(url, {
      onRequest,
      config: { permission: 'rules:edit' },
      schema: {
        tags: TAGS,
        summary: `Remove tags from ${which} of a rule`,
        operationId: withVersion ? 'removeTagsFromVersion' : 'removeTags',
        security: securedBy,
        params: params(withVersion),
        querystring: { ...tagsQuery, required: ['tags'] },
        headers: ifMatchHeaders,
        response: { 200: tagListSchema, ...errors([...STANDARD_ERRORS, 409, 412]) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as TagParams;
        const query = request.query as { tags?: string };
        const names = splitTags(query.tags, 'Query parameter tags');
        return answer(reply, await tags.remove(spaceOf(request), p.idOrAlias, versionOf(p), names, writeOptions(request)));
      },
    });
  }
}
