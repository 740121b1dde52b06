// Turns JSON-schema validation failures into one sentence that names the field and the reason. Schemas may carry
// `x-message` (also a valid OpenAPI extension) with the sentence to use when that schema fails.
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

const LOCATION: Record<string, string> = { body: 'body', querystring: 'query parameter', params: 'path parameter', headers: 'header' };

/** `/data/3/name` -> `data[3].name` */
function pathOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`), '');
}

function customMessage(error: FastifySchemaValidationError): string | undefined {
  const parent = (error as { parentSchema?: Record<string, unknown> }).parentSchema;
  const message = parent?.['x-message'];
  return typeof message === 'string' ? message : undefined;
}

function describe(error: FastifySchemaValidationError, dataVar: string): string {
  const custom = customMessage(error);
  if (custom) return custom;
  const path = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (dataVar === 'body') {
    const where = path === '' ? 'Request body' : `body.${path}`;
    if (error.keyword === 'required') {
      return path === '' ? `Request body must contain "${String(params.missingProperty)}"` : `${where} must contain "${String(params.missingProperty)}"`;
    }
    if (error.keyword === 'type') {
      const type = String(params.type);
      return `${where} must be ${type === 'object' ? 'a JSON object' : type === 'array' ? 'an array' : `of type ${type}`}`;
    }
    return `${where} ${error.message ?? 'is invalid'}`;
  }
  const name = dataVar === 'headers' ? path.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash}${c.toUpperCase()}`) : path;
  return `${LOCATION[dataVar] ?? dataVar} ${name} ${error.message ?? 'is invalid'}`.trim();
}

/** The most helpful error of the list ajv gives for anyOf: a branch's deeper error beats "must match anyOf". */
function pick(errors: FastifySchemaValidationError[]): FastifySchemaValidationError {
  const anyOf = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (!anyOf) return errors[0]!;
  const better = errors.filter(
    (e) => e !== anyOf && e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && !(e.instancePath === anyOf.instancePath && e.keyword === 'type'),
  );
  better.sort((a, b) => b.instancePath.length - a.instancePath.length);
  return better[0] ?? anyOf;
}

export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  if (dataVar === 'body' && errors.some((e) => e.instancePath === '' && e.keyword === 'type')) {
    return new Error('Request body is missing or not a JSON object: send {"data": {...}}');
  }
  return new Error(describe(pick(errors), dataVar));
}

/** ajv settings: no type coercion (a string is never silently turned into an array), `x-message` allowed. */
export const AJV_OPTIONS = {
  coerceTypes: false as const,
  removeAdditional: false as const,
  useDefaults: true,
  allErrors: false,
  verbose: true,
  allowUnionTypes: true,
  keywords: ['x-message'],
};
