// Folders (SPEC 5.1, rule-format §9.2): tree, create, replace content, move, rename, delete, find, export, import.
// A folder is named by node id in the path (omitted or `root`: the root) or by `?path=/A/B`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_VERSION } from '../../../rules/bounds.ts';
import type { FindCriteria, FolderTarget, MoveRequest } from '../../../service/management/folders.ts';
import {
  STANDARD_ERRORS, WRITE_ERRORS, acceptXml, anyObjectSchema, authenticate, errors, securedBy, setUpScope, spaceOf, writeOptions,
} from './common.ts';
import type { ManagementPluginOptions } from './common.ts';

const TAGS = ['Folders'];

const nodeParams = {
  type: 'object',
  required: ['nodeId'],
  properties: { nodeId: { type: 'string', description: 'Folder id; `root` is the root.' } },
} as const;

const pathQuery = {
  type: 'object',
  properties: { path: { type: 'string', description: 'The folder by path instead of id, e.g. /Pricing/EU' } },
} as const;

const folderNodeSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'A folder: {id, name, type: ROOT|FOLDER, children: [folders..., {type: RULE, baseId, version, name, ruleAlias, ruleType, ruleStatus}...]}',
  properties: { id: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' }, children: { type: 'array', items: anyObjectSchema } },
} as const;

const folderBodySchema = {
  type: 'object',
  additionalProperties: true,
  description: 'A folder node: {"type": "FOLDER", "name": ..., "children": [folder nodes, {"type": "RULE", "baseId" or "ruleAlias", "version"?}]}',
  properties: { type: { type: 'string' }, name: { type: 'string' }, children: { type: 'array', items: anyObjectSchema } },
} as const;

function target(request: FastifyRequest): FolderTarget {
  const nodeId = (request.params as { nodeId?: string }).nodeId;
  const path = (request.query as { path?: string }).path;
  return { ...(nodeId === undefined ? {} : { nodeId }), ...(path === undefined ? {} : { path }) };
}

export async function foldersPlugin(app: FastifyInstance, options: ManagementPluginOptions): Promise<void> {
  const { services } = options;
  const folders = services.management.folders;
  const transfer = services.management.transfer;
  setUpScope(app, services);
  acceptXml(app);
  const onRequest = authenticate(services);

  for (const withNode of [false, true]) {
    const suffix = withNode ? '/:nodeId' : '';
    const where = withNode ? 'a folder' : 'the root (or ?path=)';
    const op = (name: string): string => `${name}${withNode ? 'ById' : ''}`;
    const common = { tags: TAGS, security: securedBy, querystring: pathQuery, ...(withNode ? { params: nodeParams } : {}) };

    app.get(`/api/folder${suffix}`, {
      onRequest,
      config: { permission: 'rules:read' },
      schema: { ...common, summary: `The folder tree below ${where}`, operationId: op('getFolder'), response: { 200: folderNodeSchema, ...errors(STANDARD_ERRORS) } },
      handler: async (request: FastifyRequest) => folders.tree(spaceOf(request), target(request)),
    });

    app.post(`/api/folder${suffix}`, {
      onRequest,
      config: { permission: 'rules:edit' },
      schema: {
        ...common,
        summary: `Create a folder in ${where}`,
        description: 'RULE nodes in the body move those rules (every version, or the one given) into the new folders.',
        operationId: op('createFolder'),
        body: folderBodySchema,
        response: { 200: folderNodeSchema, ...errors(WRITE_ERRORS) },
      },
      handler: async (request: FastifyRequest) => folders.create(spaceOf(request), target(request), request.body),
    });

    app.put(`/api/folder${suffix}`, {
      onRequest,
      config: { permission: 'rules:edit' },
      schema: {
        ...common,
        summary: `Replace the content of ${where}`,
        description: 'Sub-folders are replaced by the body\'s children; rules the body does not place again go to the root. `name` renames the folder.',
        operationId: op('replaceFolder'),
        body: folderBodySchema,
        response: { 200: folderNodeSchema, ...errors(WRITE_ERRORS) },
      },
      handler: async (request: FastifyRequest) => folders.replace(spaceOf(request), target(request), request.body),
    });

    app.delete(`/api/folder${suffix}`, {
      onRequest,
      config: { permission: 'rules:edit' },
      schema: {
        ...common,
        summary: `Delete ${withNode ? 'a folder' : 'the folder at ?path='} and its sub-folders`,
        description: 'A folder holding rules is refused (409) unless deleteAll=true, which deletes those rules too.',
        operationId: op('deleteFolder'),
        querystring: {
          type: 'object',
          properties: {
            ...pathQuery.properties,
            deleteAll: { type: 'string', enum: ['true', 'false'], 'x-message': 'Query parameter deleteAll must be true or false' },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              deletedFolders: { type: 'integer' },
              deletedRules: { type: 'array', items: { type: 'object', properties: { ruleId: { type: 'string' }, version: { type: 'integer' } } } },
            },
          },
          ...errors([...STANDARD_ERRORS, 409]),
        },
      },
      handler: async (request: FastifyRequest) => {
        const query = request.query as { deleteAll?: string };
        return folders.delete(spaceOf(request), target(request), query.deleteAll === 'true', writeOptions(request));
      },
    });

    app.get(`/api/folder/export${suffix}`, {
      onRequest,
      config: { permission: 'rules:read' },
      schema: {
        ...common,
        summary: `Export ${where} with every rule version in it`,
        description: 'The DecisionRules folder export: {"export": {"exportType": "FOLDER", "data": {"structure", "rules"}}}.',
        operationId: op('exportFolder'),
        response: { 200: anyObjectSchema, ...errors(STANDARD_ERRORS) },
      },
      handler: async (request: FastifyRequest) => transfer.exportFolder(spaceOf(request), target(request)),
    });

    app.post(`/api/folder/import${suffix}`, {
      onRequest,
      config: { permission: 'rules:edit' },
      schema: {
        ...common,
        summary: `Import a folder export into ${where}`,
        description:
          'Validates every rule first and imports all or nothing. Folders merge by name; rule ids are kept (the same id and version overwrites it); a rule new to the space keeps its alias unless another rule has it (409).',
        operationId: op('importFolder'),
        body: {
          description: 'A folder export (also accepted: one rule, an array of rules, or a DMN model as XML)',
          // Any array: what its items are is for the import to say (src/rules/containers.ts names a file that is
          // not a rule export, and the item that is not a rule), not the generic "not a JSON object".
          anyOf: [anyObjectSchema, { type: 'array' }, { type: 'string', description: 'A DMN 1.1-1.5 model (.dmn XML as application/xml or text/xml): one `dmn` rule' }],
          'x-message': 'Request body must be a folder export {"export": {"data": {"structure", "rules"}}}, a rule, or an array of rules',
        },
        response: {
          200: {
            type: 'object',
            properties: {
              folderNode: { type: 'string' },
              imported: {
                type: 'array',
                items: { type: 'object', properties: { ruleId: { type: 'string' }, version: { type: 'integer' }, ruleAlias: { type: 'string' }, type: { type: 'string' } } },
              },
            },
          },
          ...errors(WRITE_ERRORS),
        },
      },
      handler: async (request: FastifyRequest) => transfer.importFolder(spaceOf(request), target(request), request.body, writeOptions(request)),
    });
  }

  app.patch('/api/folder/rename/:nodeId', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Rename a folder',
      operationId: 'renameFolder',
      params: nodeParams,
      body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, 'x-message': 'Request body must be {"name": "<new name>"}' },
      response: { 200: folderNodeSchema, ...errors(WRITE_ERRORS) },
    },
    handler: async (request: FastifyRequest) =>
      folders.rename(spaceOf(request), (request.params as { nodeId: string }).nodeId, (request.body as { name: string }).name),
  });

  app.put('/api/folder/move', {
    onRequest,
    config: { permission: 'rules:edit' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Move folders and rules into a folder',
      description: 'RULE nodes name a rule by id or alias; without a version every version moves. The target: targetId, or targetPath (a path, or a node id).',
      operationId: 'moveFolderNodes',
      body: {
        type: 'object',
        required: ['nodes'],
        properties: {
          targetId: { type: 'string' },
          targetPath: { type: 'string' },
          nodes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type', 'id'],
              properties: { type: { type: 'string', enum: ['FOLDER', 'RULE'] }, id: { type: 'string', minLength: 1 }, version: { type: 'integer', minimum: 1, maximum: MAX_VERSION } },
            },
          },
        },
      },
      response: { 200: folderNodeSchema, ...errors(WRITE_ERRORS) },
    },
    handler: async (request: FastifyRequest) => folders.move(spaceOf(request), request.body as MoveRequest),
  });

  app.post('/api/folder/find', {
    onRequest,
    config: { permission: 'rules:read' },
    schema: {
      tags: TAGS,
      security: securedBy,
      summary: 'Find folders and rule versions by attributes',
      description: 'Every criterion given must match. Rule criteria (baseId, ruleAlias, ruleType, tags, ruleState, version) leave folders out.',
      operationId: 'findFolderOrRule',
      body: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          id: { type: 'string' },
          baseId: { type: 'string' },
          ruleAlias: { type: 'string' },
          ruleType: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          ruleState: { type: 'string', enum: ['published', 'pending'] },
          type: { type: 'string', enum: ['FOLDER', 'RULE'] },
          version: { type: 'integer', minimum: 1, maximum: MAX_VERSION },
        },
      },
      response: {
        200: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: true,
            properties: { type: { type: 'string' }, id: { type: 'string' }, baseId: { type: 'string' }, name: { type: 'string' }, path: { type: 'string' } },
          },
        },
        ...errors([400, 401, 429, 500]),
      },
    },
    handler: async (request: FastifyRequest) => folders.find(spaceOf(request), (request.body ?? {}) as FindCriteria),
  });
}
