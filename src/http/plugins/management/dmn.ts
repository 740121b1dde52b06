// DMN export (docs/dmn.md): one `dmn` rule as its .dmn file. Importing a .dmn file needs no route of its own: the
// rule-flow and folder imports take XML and detect DMN (src/formats/dmn).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STANDARD_ERRORS, authenticate, errors, params, securedBy, setUpScope, spaceOf, versionOf } from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['DMN'];

export async function dmnPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const transfer = services.management.transfer;
  setUpScope(app, services);
  const onRequest = authenticate(services);

  for (const withVersion of [false, true]) {
    app.get(withVersion ? '/api/dmn/export/:idOrAlias/:version' : '/api/dmn/export/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:read' },
      schema: {
        tags: TAGS,
        security: securedBy,
        summary: `Export a DMN rule as its .dmn file (${withVersion ? 'given version' : 'latest version'})`,
        description: 'The model\'s XML as it was imported or last saved. A rule of another type is a 400.',
        operationId: withVersion ? 'exportDmnVersion' : 'exportDmn',
        params: params(withVersion),
        response: { 200: { type: 'string', description: 'The DMN XML (application/xml)' }, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as { idOrAlias: string; version?: string };
        const file = await transfer.exportDmn(spaceOf(request), p.idOrAlias, versionOf(p));
        const ascii = file.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
        void reply.header('content-type', 'application/xml; charset=utf-8').header('content-disposition', `attachment; filename="${ascii}"`);
        return reply.send(file.xml);
      },
    });
  }
}
