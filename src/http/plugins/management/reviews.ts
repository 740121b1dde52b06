// Reviews of rule versions, four eyes (docs/decisions/approvals.md): read a version's review, request one, approve
// or reject it. With the space setting `approvals` on, publishing needs an approval of the version's content.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReviewState } from '../../../service/management/reviews.ts';
import { principalOf } from '../../auth.ts';
import { authenticate, errors, ifMatchHeaders, ifMatchOf, params, securedBy, setUpScope, spaceOf, STANDARD_ERRORS, versionOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['Reviews'];

const actorSchema = {
  type: 'object',
  nullable: true,
  properties: { kind: { type: 'string' }, id: { type: 'string' }, name: { type: 'string' } },
} as const;

const reviewSchema = {
  type: 'object',
  properties: {
    state: { type: 'string', enum: ['none', 'requested', 'approved', 'rejected'] },
    current: { type: 'boolean', description: 'False when the content changed since the state was set: an approval of older content does not count' },
    requestedBy: actorSchema,
    requestedAt: { type: 'string', nullable: true },
    decidedBy: actorSchema,
    decidedAt: { type: 'string', nullable: true },
    comment: { type: 'string', nullable: true },
    lastEditor: { ...actorSchema, description: 'Who last changed the content: they cannot approve it' },
  },
} as const;

const commentBody = {
  type: 'object',
  properties: { comment: { type: 'string', maxLength: 2000 } },
  additionalProperties: false,
  'x-message': 'Request body must be {"comment": "<text, at most 2000 characters>"} or empty',
} as const;

interface ReviewParams {
  idOrAlias: string;
  version: string;
}

/** The version's ETag in the ETag header: the reviewer sends it back as If-Match with their decision. */
function withReviewETag(reply: FastifyReply, state: ReviewState): ReviewState {
  void reply.header('etag', state.etag);
  return state;
}

export async function reviewsPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const { reviews } = services.management;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  app.get('/api/rule/review/:idOrAlias/:version', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: "A version's review: requested, approved or rejected, by whom, and its last editor",
      operationId: 'getReview',
      params: params(true),
      response: { 200: reviewSchema, ...errors(STANDARD_ERRORS) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const p = request.params as ReviewParams;
      return withReviewETag(reply, await reviews.get(spaceOf(request), p.idOrAlias, versionOf(p)));
    },
  });

  const decisions = [
    { name: 'request', permission: 'rules:edit', summary: "Request a review of the version's current content", run: reviews.request.bind(reviews) },
    { name: 'approve', permission: 'rules:approve', summary: "Approve the version's current content (not by its last editor: 409 own-approval)", run: reviews.approve.bind(reviews) },
    { name: 'reject', permission: 'rules:approve', summary: 'Reject the version, with a comment saying what to change', run: reviews.reject.bind(reviews) },
  ] as const;
  for (const decision of decisions) {
    app.post(`/api/rule/review/:idOrAlias/:version/${decision.name}`, {
      onRequest,
      config: { permission: decision.permission },
      schema: {
        tags: TAGS,
        security: securedBy,
        summary: decision.summary,
        operationId: `${decision.name}Review`,
        params: params(true),
        headers: ifMatchHeaders,
        body: commentBody,
        response: { 200: reviewSchema, ...errors([...STANDARD_ERRORS, 409, 412]) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as ReviewParams;
        const principal = principalOf(request);
        const body = request.body as { comment?: string } | undefined;
        return withReviewETag(reply, await decision.run(principal.space, p.idOrAlias, versionOf(p), principal.actor, body?.comment, ifMatchOf(request)));
      },
    });
  }
}
