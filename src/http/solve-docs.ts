// What the OpenAPI document shows for POST /rule/solve beyond the validation schemas: a "Try it out" example that
// works on a fresh install (the example rule examples/rules/shipping-fee.json, imported by the first start, and
// the answer the README shows), and the header values as enumerations.
//
// Applied as the routes' swaggerTransform, so it changes the document only. The enumerations must not validate:
// an unknown X-Strategy falls back to STANDARD and header values are matched case-insensitively
// (docs/decisions/openapi-solve-examples.md), so a request outside these lists still gets the answer it gets today.
import type { FastifySchema } from 'fastify';
import { solveHeadersSchema } from './schemas.ts';

/** The seeded example rule, an input, and what solving it answers. */
export const SOLVE_EXAMPLE = {
  ruleIdOrAlias: 'shipping-fee',
  version: '1',
  body: { data: { order: { country: 'CZ', total: 120 } } },
  response: [{ shipping: { fee: 0, currency: 'EUR' }, message: 'Free domestic shipping' }],
} as const;

export const SOLVE_HEADER_ENUMS: Record<string, readonly string[]> = {
  'x-strategy': ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'],
  'x-lookup-method': ['LOOKUP_VALUE', 'LOOKUP_EXISTS'],
  'x-audit': ['true', 'false'],
  'x-debug': ['true', 'false'],
};

type Schema = Record<string, unknown>;

function withExample(schema: unknown, example: unknown): Schema {
  // `examples` with one entry becomes the media type's / parameter's `example` in the OpenAPI 3.0 document.
  return { ...(schema as Schema), examples: [example] };
}

function documentedHeaders(): Schema {
  const properties = Object.fromEntries(
    Object.entries(solveHeadersSchema.properties).map(([name, property]) => {
      const values = SOLVE_HEADER_ENUMS[name];
      return [name, values === undefined ? property : { ...property, enum: [...values] }];
    }),
  );
  return { ...solveHeadersSchema, properties };
}

/** A swaggerTransform for the /rule/solve routes. Builds fresh objects: the generator edits what it is given. */
export function solveDocsTransform({ schema, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  const params = schema.params as { properties: Record<string, unknown> } & Schema;
  const paramExamples: Record<string, string> = { ruleIdOrAlias: SOLVE_EXAMPLE.ruleIdOrAlias, version: SOLVE_EXAMPLE.version };
  const response = schema.response as Record<string, unknown>;
  return {
    url,
    schema: {
      ...schema,
      params: {
        ...params,
        properties: Object.fromEntries(Object.entries(params.properties).map(([name, property]) => [name, withExample(property, paramExamples[name])])),
      },
      headers: documentedHeaders(),
      body: withExample(schema.body, SOLVE_EXAMPLE.body),
      response: { ...response, 200: withExample(response['200'], SOLVE_EXAMPLE.response) },
    },
  };
}
