// Decision tables as DecisionRules XLSX v2 files (docs/xlsx.md): export a version, import a file as a new rule or
// a new version, or read it without storing anything. Request bodies are the file's bytes
// (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet), within BODY_LIMIT_BYTES.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { XLSX_CONTENT_TYPE } from '../../../service/management/xlsx.ts';
import { HttpError } from '../../errors.ts';
import {
  STANDARD_ERRORS, WRITE_ERRORS, authenticate, errors, params, ruleDocumentSchema, securedBy, setUpScope, spaceOf, versionOf,
  versionedRuleSchema, withETag, writeOptions,
} from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

interface RuleParams {
  idOrAlias: string;
  version?: string;
}

const TAGS = ['Excel (XLSX)'];

const fileBody = {
  description: `The .xlsx file's bytes, Content-Type ${XLSX_CONTENT_TYPE}. Problems name sheet and cell (Table!D7); hostile files (zip bombs, formulas, external links, macros, oversized sheets) are refused (docs/xlsx.md).`,
} as const;

const fileResponse = {
  description: `The .xlsx file (${XLSX_CONTENT_TYPE}), named <alias>-v<version>.xlsx in Content-Disposition`,
  type: 'string',
  format: 'binary',
} as const;

/** The body as bytes: present, and sent with the XLSX content type (the parser below makes it a Buffer). */
function fileOf(request: FastifyRequest): Buffer {
  if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
    throw new HttpError(400, `Request body is empty: send the .xlsx file with Content-Type ${XLSX_CONTENT_TYPE}`);
  }
  return request.body;
}

/** `attachment; filename="a.xlsx"`, with the RFC 5987 form for names outside ASCII. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export async function xlsxPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const xlsx = services.management.xlsx;
  setUpScope(app, services);
  app.addContentTypeParser(XLSX_CONTENT_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const onRequest = authenticate(services);

  for (const withVersion of [false, true]) {
    app.get(withVersion ? '/api/xlsx/export/:idOrAlias/:version' : '/api/xlsx/export/:idOrAlias', {
      onRequest,
      config: { permission: 'rules:read' },
      schema: {
        tags: TAGS,
        summary: `Export a decision table as XLSX, ${withVersion ? 'the given version' : 'the latest version'}`,
        description: 'DecisionRules XLSX v2: sheets Settings, Rule Variables, Table and Valid Values; operator cells offer a dropdown. Another rule type is a 400.',
        operationId: withVersion ? 'exportXlsxVersion' : 'exportXlsx',
        security: securedBy,
        params: params(withVersion),
        response: { 200: fileResponse, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const p = request.params as RuleParams;
        const file = await xlsx.export(spaceOf(request), p.idOrAlias, versionOf(p));
        void reply.header('content-type', XLSX_CONTENT_TYPE).header('content-disposition', disposition(file.filename));
        return reply.send(file.bytes);
      },
    });
  }

  app.post('/api/xlsx/import', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      summary: 'Create a rule from an XLSX file',
      description: 'Answers like POST /api/rule: the file\'s Rule ID and Rule Alias are kept when free (409 otherwise). Nothing is stored unless the whole file reads.',
      operationId: 'importXlsx',
      security: securedBy,
      body: fileBody,
      response: { 200: versionedRuleSchema, ...errors(WRITE_ERRORS) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => withETag(reply, await xlsx.importRule(spaceOf(request), fileOf(request), writeOptions(request))),
  });

  app.post('/api/xlsx/import/:idOrAlias', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      summary: 'Add a version to a decision table from an XLSX file',
      description: 'Answers like POST /api/rule/{idOrAlias}/new-version (pending, the rule\'s id, alias and name). Columns are matched to the rule\'s by Column Alias and keep their ids, so a comparison shows only what changed.',
      operationId: 'importXlsxVersion',
      security: securedBy,
      params: params(false),
      body: fileBody,
      response: { 200: versionedRuleSchema, ...errors(WRITE_ERRORS) },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const p = request.params as RuleParams;
      return withETag(reply, await xlsx.importVersion(spaceOf(request), p.idOrAlias, fileOf(request), writeOptions(request)));
    },
  });

  app.post('/api/xlsx/read', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      tags: TAGS,
      summary: 'Read an XLSX file into a rule document, storing nothing',
      description: 'For editors that put the table into an open draft. With ?rule=<id or alias>, columns matched by Column Alias keep that rule\'s column ids.',
      operationId: 'readXlsx',
      security: securedBy,
      querystring: { type: 'object', properties: { rule: { type: 'string', minLength: 1, description: 'The rule the file goes back into' } } },
      body: fileBody,
      response: { 200: ruleDocumentSchema, ...errors([400, 401, 404, 413, 415, 429, 500]) },
    },
    handler: async (request: FastifyRequest) => xlsx.read(spaceOf(request), fileOf(request), (request.query as { rule?: string }).rule),
  });
}
