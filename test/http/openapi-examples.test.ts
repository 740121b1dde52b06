// The solver OpenAPI document as "Try it out" uses it: the solve operation's example body, solved against the
// example rule the first start seeds, gives the example response; the headers list their values; and the
// enumerations are documentation only (values outside them are still accepted, as before).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
  schema: { enum?: string[] };
}

describe('solver OpenAPI examples and header enumerations', () => {
  let backend: Backend;
  let server: TestServer;
  let operation: {
    parameters: Parameter[];
    requestBody: { content: Record<string, { example?: unknown }> };
    responses: Record<string, { content: Record<string, { example?: unknown }> }>;
  };
  const parameter = (name: string): Parameter => {
    const found = operation.parameters.find((p) => p.name.toLowerCase() === name);
    assert.ok(found, `parameter ${name} is documented`);
    return found;
  };

  before(async () => {
    backend = sqliteBackend();
    // As a first start: the default space with the example rule examples/rules/shipping-fee.json.
    server = await startTestServer({ backend, env: { VERDICT_SEED_EXAMPLES: 'true' } });
    const doc = await server.call('GET', '/api/solver/docs/json');
    assert.equal(doc.status, 200);
    operation = doc.json.paths['/rule/solve/{ruleIdOrAlias}/{version}'].post;
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
  });

  test('the example request, sent as documented, answers the example response', async () => {
    const body = operation.requestBody.content['application/json']!.example;
    const expected = operation.responses['200']!.content['application/json']!.example;
    assert.deepEqual(body, { data: { order: { country: 'CZ', total: 120 } } });
    assert.deepEqual(expected, [{ shipping: { fee: 0, currency: 'EUR' }, message: 'Free domestic shipping' }]);
    const path = `/rule/solve/${String(parameter('ruleidoralias').example)}/${String(parameter('version').example)}`;
    assert.equal(path, '/rule/solve/shipping-fee/1');
    const reply = await server.solve(path, body);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json, expected);
  });

  test('the example body has no placeholder options (they would change the answer)', () => {
    assert.equal(JSON.stringify(operation.requestBody.content['application/json']!.example).includes('"string"'), false);
  });

  test('X-Strategy, X-Lookup-Method, X-Audit and X-Debug list their values', () => {
    assert.deepEqual(parameter('x-strategy').schema.enum, ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL']);
    assert.deepEqual(parameter('x-lookup-method').schema.enum, ['LOOKUP_VALUE', 'LOOKUP_EXISTS']);
    assert.deepEqual(parameter('x-audit').schema.enum, ['true', 'false']);
    assert.deepEqual(parameter('x-debug').schema.enum, ['true', 'false']);
  });

  test('the enumerations do not validate: other spellings and unknown strategies answer as before', async () => {
    const body = { data: { order: { country: 'CZ', total: 120 } } };
    const expected = [{ shipping: { fee: 0, currency: 'EUR' }, message: 'Free domestic shipping' }];
    const variants: Array<Record<string, string>> = [{ 'X-Strategy': 'first_match' }, { 'X-Strategy': 'NO_SUCH_STRATEGY' }, { 'X-Lookup-Method': 'whatever' }, { 'X-Audit': 'TRUE', 'X-Debug': 'False' }];
    for (const headers of variants) {
      const reply = await server.solve('/rule/solve/shipping-fee', body, headers);
      assert.equal(reply.status, 200, `${JSON.stringify(headers)}: ${reply.text}`);
      assert.deepEqual(reply.json, expected);
    }
  });

  test('the deprecated rule-flow endpoint carries no decision-table example', async () => {
    const doc = await server.call('GET', '/api/solver/docs/json');
    const flow = doc.json.paths['/composition/solve/{ruleIdOrAlias}/{version}'].post;
    assert.equal(flow.requestBody.content['application/json'].example, undefined);
  });
});
