// What every management route group shares: management-key authentication, the error mapping of management
// failures (with each problem of an invalid rule listed), body parsing that accepts the empty JSON bodies the SDKs
// send on PUT/PATCH without data, and the schema pieces of paths and responses.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../../engine/errors.ts';
import type { Problem } from '../../../engine/errors.ts';
import type { Principal, Services } from '../../../service/index.ts';
import { classify, ServiceError } from '../../../service/errors.ts';
import type { VersionedDocument, WriteOptions } from '../../../service/management/context.ts';
import { parseVersion } from '../../../service/management/lookup.ts';
import { principalOf, requireManagement } from '../../auth.ts';
import { errorHandler, HttpError, statusOf } from '../../errors.ts';
import { VERSION_RANGE } from '../../../rules/bounds.ts';
import { isNotAnExport } from '../../../rules/containers.ts';
import { errorSchema } from '../../schemas.ts';
import { schemaErrorFormatter } from '../../validation.ts';

export interface ManagementPluginOptions {
  services: Services;
}

export interface ManagementErrorBody {
  error: { message: string; problems?: Problem[] };
}

function invalidRuleMessage(err: ValidationError): string {
  // A file that is no rule export is not "an invalid rule": its one message says what it is and what Verdict reads.
  if (isNotAnExport(err.problems)) return `This is ${err.message}`;
  const count = err.problems.length;
  return `The rule is invalid (${count} problem${count === 1 ? '' : 's'}): ${err.message}`;
}

/** Prepares a route group: the error handler of its scope and its JSON body parser. */
export function setUpScope(app: FastifyInstance, services: Services): void {
  const fallback = errorHandler({ bodyLimitBytes: services.config.bodyLimitBytes });
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    let status: number;
    let body: ManagementErrorBody;
    // Failures that list problems keep them in the body; every other failure is answered by the common handler.
    if (err instanceof ServiceError && err.problems !== undefined) {
      status = statusOf(err);
      body = { error: { message: err.message, problems: err.problems } };
    } else if (err instanceof ValidationError) {
      // An invalid rule document: its status from the catalog, the message and problems in management's wording.
      status = statusOf(classify(err)!);
      body = { error: { message: invalidRuleMessage(err), problems: err.problems } };
    } else {
      fallback(err, request, reply);
      return;
    }
    void reply.code(status).header('x-correlation-id', request.id).type('application/json; charset=utf-8').send(body);
  });
  app.setSchemaErrorFormatter((errs, dataVar) => {
    if (dataVar === 'body' && errs.some((e) => e.instancePath === '' && e.keyword === 'type')) {
      return new Error('Request body is missing or not a JSON object');
    }
    return schemaErrorFormatter(errs, dataVar);
  });
  // An empty body with Content-Type: application/json (axios sends that for PUT/PATCH without data) is no body.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    void json(request, body as string, (err, value) => {
      if (!err) done(null, value);
      else done(new HttpError(400, `Request body is not valid JSON: ${err.message}`));
    });
  });
}

/** Authenticates a management request and checks the permission its route declares (`config.permission`). */
export function authenticate(services: Services) {
  return requireManagement(services);
}

/** The space of the management key that authenticated the request. */
export function spaceOf(request: FastifyRequest): string {
  return principalOf(request).space;
}

export function versionOf(params: { version?: string }): number | undefined {
  return parseVersion(params.version);
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request or rule document (every problem listed in error.problems with its JSON path), ambiguous alias',
  401: 'Authentication token missing, or not a management key',
  403: "The caller's role does not allow this (the message names the permission), or a session request without its X-CSRF-Token",
  404: 'No such rule, version or folder in the space of the key',
  409: 'Conflicts with what is stored: alias or id in use, locked version, folder name taken, folder not empty',
  412: 'If-Match does not match the version any more: it was changed since it was read; the ETag header has the current tag',
  413: 'Request body over BODY_LIMIT_BYTES',
  415: 'Content type other than application/json',
  429: 'Over the per-key rate limit (when enabled); see Retry-After',
  500: 'A fault of the service; details only in the server log',
};

const managementErrorSchema = {
  ...errorSchema,
  properties: {
    error: {
      type: 'object',
      properties: {
        message: { type: 'string' },
        problems: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
      },
      required: ['message'],
    },
  },
};

export function errors(statuses: number[]): Record<string, unknown> {
  return Object.fromEntries(statuses.map((s) => [String(s), { ...managementErrorSchema, description: DESCRIPTIONS[s] ?? 'Error' }]));
}

export const STANDARD_ERRORS = [400, 401, 403, 404, 429, 500];

/** The If-Match request header as sent (several headers are one list, RFC 9110 5.3); undefined when absent. */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  const value = request.headers['if-match'];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The rule history's "who": a key's name (null when it has none), a user's name, a token's client. */
function historyName(principal: Principal): string | null {
  return principal.actor.kind === 'key' ? principal.keyName ?? null : principal.actor.name;
}

/** Who writes (for the rule history, the activity log, and what the role may publish) and the If-Match precondition. */
export function writeOptions(request: FastifyRequest): WriteOptions {
  const principal = principalOf(request);
  return { ifMatch: ifMatchOf(request), by: historyName(principal), actor: principal.actor, role: principal.role };
}

export const WARNINGS_HEADER = 'verdict-warnings';

/** Warnings named in the Verdict-Warnings header at most (the count says how many there were). */
const WARNINGS_IN_HEADER = 20;

/**
 * Answers a rule version's document with its ETag header and, after a write that stored something worth a look,
 * the Verdict-Warnings header: `{"count": n, "warnings": [{path, message}, ...]}` (the first 20), JSON with every
 * non-ASCII character escaped so the header stays valid. The body stays the document DecisionRules clients expect
 * (docs/decisions/valid-values.md).
 */
export function withETag(reply: FastifyReply, versioned: VersionedDocument): Record<string, unknown> {
  void reply.header('etag', versioned.etag);
  const warnings = versioned.warnings ?? [];
  if (warnings.length > 0) {
    const json = JSON.stringify({ count: warnings.length, warnings: warnings.slice(0, WARNINGS_IN_HEADER) });
    void reply.header(WARNINGS_HEADER, json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  }
  return versioned.document;
}

/** The If-Match request header of the writes that honour it, for the OpenAPI document and validation. */
export const ifMatchHeaders = {
  type: 'object',
  properties: {
    'if-match': {
      type: 'string',
      description: 'The ETag a GET of this version answered: the write is refused (412) if the version changed since. `*`: any existing version. Absent: no precondition.',
    },
  },
} as const;

export const WRITE_ERRORS = [400, 401, 403, 404, 409, 413, 415, 429, 500];
/** Writes of one version that honour If-Match. */
export const PRECONDITION_WRITE_ERRORS = [...WRITE_ERRORS, 412];

export const ruleDocumentSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'A rule document in the DecisionRules format (spec/rule-format.md §1): decision table, tree, script, lookup table, rule flow or decision flow.',
} as const;

/** A 200 answer carrying a rule version, with its ETag response header documented. */
export const versionedRuleSchema = {
  ...ruleDocumentSchema,
  headers: {
    ETag: { type: 'string', description: 'The entity tag of this version; send it as If-Match to write only if nobody changed it since.' },
    'Verdict-Warnings': {
      type: 'string',
      description: 'Writes only, when the stored version has warnings (cells outside their column\'s valid values): JSON {"count": n, "warnings": [{"path", "message"}]} listing the first 20, non-ASCII characters escaped as \\uXXXX. The write succeeded.',
    },
  },
} as const;

export const anyObjectSchema = { type: 'object', additionalProperties: true } as const;

export const idParam = { type: 'string', minLength: 1, description: "The rule's id (shared by its versions) or its alias." } as const;

export const versionParam = {
  type: 'string',
  pattern: '^(?:[0-9]{1,10}|latest)$',
  'x-message': `The version in the path must be ${VERSION_RANGE} or "latest"`,
  description: 'Version number; `latest` or omitted: the highest version, whatever its status.',
} as const;

export function params(withVersion: boolean, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const properties: Record<string, unknown> = { idOrAlias: idParam, ...extra };
  if (withVersion) properties.version = versionParam;
  return { type: 'object', required: Object.keys(properties), properties };
}

export const securedBy = [{ managementKey: [] }];

/** The content types a DMN file is sent with to an import route: its XML text becomes the body, a string. */
export const XML_CONTENT_TYPES = ['application/xml', 'text/xml', 'application/dmn+xml'];

/** Lets an import route take a DMN file as it is (XML); the import detects it (src/formats/dmn). */
export function acceptXml(app: FastifyInstance): void {
  app.addContentTypeParser(XML_CONTENT_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));
}
