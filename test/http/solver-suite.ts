// The black-box HTTP suite (SPEC 3.1, 3.2, 3.3, 3.4, 5.3): a real server on a random port, real HTTP calls.
// Run on SQLite and on PostgreSQL by the two *.test.ts files beside this one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { compileRule } from '../../src/engine/index.ts';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import { backendOf, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import {
  BEGONIA, MARANTA, MONSTERA, PLANT_INPUT, PLANT_LOVERS, bankLookup, deliveryTree, doublingWorkflow, messageTable, plantFlow, plantTable, script,
} from './fixtures.ts';
import { eventually, startTestServer } from './harness.ts';
import type { Reply, TestServer } from './harness.ts';
import { UNHURRIED_MS } from '../support/script-calls.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY = 86_400_000;

function assertError(reply: Reply, status: number, message: string | RegExp): void {
  assert.equal(reply.status, status, `status of ${reply.text}`);
  assert.deepEqual(Object.keys(reply.json ?? {}), ['error'], `error body shape: ${reply.text}`);
  assert.deepEqual(Object.keys(reply.json.error), ['message']);
  if (typeof message === 'string') assert.equal(reply.json.error.message, message);
  else assert.match(reply.json.error.message, message);
  assert.ok(reply.headers.get('x-correlation-id'), 'errors carry X-Correlation-Id');
  assert.doesNotMatch(reply.text, /\n\s+at |stack/i, 'no stack trace');
  assert.match(reply.headers.get('content-type') ?? '', /application\/json/);
}

async function seed(server: TestServer, space: string, docs: Record<string, unknown>[]): Promise<void> {
  await server.running.services.rulesIO.importContainer(space, docs);
}

export function solverSuite(kind: 'sqlite' | 'postgres'): void {
  describe(`solver HTTP API on ${kind}`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    let backend: Backend;
    let server: TestServer;
    let key: string;
    let other: CreatedSpace;

    before(async () => {
      if (skip) return;
      backend = await backendOf(kind);
      server = await startTestServer({
        backend,
        // An unhurried time limit: a scripting rule's first solve starts a worker process, which alone can take
        // seconds on a loaded machine. The limit itself is tested on a server of its own.
        env: { RULE_TIMEOUT_MS: String(UNHURRIED_MS), BULK_LIMIT: '5', BODY_LIMIT_BYTES: '20000' },
        services: {
          // A rule named "Explode" stands for a fault inside the service (not the rule): it must become a 500.
          compile: (document) => {
            if (document.name === 'Explode') throw new TypeError('secret internal detail');
            return compileRule(document);
          },
        },
      });
      key = server.space.solverKey;
      const space = server.space.space;
      await seed(server, space, [
        plantTable(),
        messageTable('rule-versions', 'versioned', 1, 'v1'),
        messageTable('rule-versions', 'versioned', 2, 'v2'),
        messageTable('rule-versions', 'versioned', 3, 'v3', 'pending'),
        messageTable('rule-draft', 'draft-only', 1, 'draft', 'pending'),
        messageTable('rule-dup-1', 'dup', 1, 'first'),
        messageTable('rule-dup-2', 'dup', 1, 'second'),
        { ...messageTable('rule-explode', 'explode', 1, 'x'), name: 'Explode' },
        deliveryTree(),
        bankLookup(),
        script('rule-multiply', 'multiply', 'output.result = input.value1 * input.value2;\nreturn output;'),
        script('rule-thrower', 'thrower', 'throw new Error("value1 is required");'),
        plantFlow(),
        doublingWorkflow(),
      ]);
      other = await server.running.services.spaces.create('other-space');
      await seed(server, other.space, [messageTable('rule-secret', 'secret', 1, 'secret')]);
    });
    after(async () => {
      if (skip) return;
      await server.close();
      await backend.cleanup();
    });

    describe('POST /rule/solve (SPEC 3.1)', () => {
      test('solves by alias and by id; no version means the latest published', { skip }, async () => {
        for (const id of ['plant-items', 'rule-plants']) {
          const reply = await server.solve(`/rule/solve/${id}`, { data: PLANT_INPUT });
          assert.equal(reply.status, 200, reply.text);
          assert.deepEqual(reply.json, [MONSTERA, BEGONIA]);
        }
        assert.deepEqual((await server.solve('/rule/solve/versioned', { data: {} })).json, [{ message: 'v2' }]);
      });

      test('a version in the path selects it; a trailing slash is accepted', { skip }, async () => {
        assert.deepEqual((await server.solve('/rule/solve/versioned/1', { data: {} })).json, [{ message: 'v1' }]);
        assert.deepEqual((await server.solve('/rule/solve/versioned/1/', { data: {} })).json, [{ message: 'v1' }]);
        assert.deepEqual((await server.solve('/rule/solve/versioned/', { data: {} })).json, [{ message: 'v2' }]);
      });

      test('strategies on a decision table: STANDARD, FIRST_MATCH, ARRAY, EVALUATE_ALL', { skip }, async () => {
        const solve = (strategy: string | undefined) =>
          server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, strategy === undefined ? {} : { 'X-Strategy': strategy });
        assert.deepEqual((await solve('STANDARD')).json, [MONSTERA, BEGONIA]);
        assert.deepEqual((await solve('FIRST_MATCH')).json, [MONSTERA]);
        assert.deepEqual((await solve('ARRAY')).json, [{ name: ['Monstera', 'Begonia'], price: [460, 590] }]);
        assert.deepEqual((await solve('EVALUATE_ALL')).json, [
          { ...MONSTERA, _match: true },
          { ...BEGONIA, _match: true },
          { ...PLANT_LOVERS, _match: false },
          { ...MARANTA, _match: false },
        ]);
        assert.deepEqual((await server.solve('/rule/solve/plant-items', { data: { group: 'fish' } }, { 'X-Strategy': 'FIRST_MATCH' })).json, []);
        assert.deepEqual((await server.solve('/rule/solve/plant-items', { data: { group: 'fish' } }, { 'X-Strategy': 'ARRAY' })).json, [{}]);
      });

      test('a missing or unknown strategy falls back to STANDARD', { skip }, async () => {
        assert.deepEqual((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT })).json, [MONSTERA, BEGONIA]);
        assert.deepEqual((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Strategy': 'BEST_GUESS' })).json, [MONSTERA, BEGONIA]);
      });

      test('a strategy the rule type does not support falls back to STANDARD (decision tree)', { skip }, async () => {
        const standard = await server.solve('/rule/solve/delivery-tree', { data: { weight: 4 } });
        assert.deepEqual(standard.json, [{ price: 5, hours: 24 }]);
        for (const strategy of ['FIRST_MATCH', 'EVALUATE_ALL']) {
          const reply = await server.solve('/rule/solve/delivery-tree', { data: { weight: 4 } }, { 'X-Strategy': strategy });
          assert.deepEqual(reply.json, standard.json, strategy);
        }
        assert.deepEqual((await server.solve('/rule/solve/delivery-tree', { data: { weight: 40 } })).json, [{ price: 20, hours: 72 }]);
      });

      test('tree, script and rule flow: FIRST_MATCH and EVALUATE_ALL answer as STANDARD, ARRAY turns leaves into arrays', { skip }, async () => {
        const cases: Array<[string, unknown, unknown, unknown]> = [
          ['delivery-tree', { weight: 4 }, { price: 5, hours: 24 }, { price: [5], hours: [24] }],
          ['multiply', { value1: 2, value2: 3 }, { result: 6 }, { result: [6] }],
          ['plant-flow', { group: 'plant' }, { first: 'Monstera' }, { first: ['Monstera'] }],
        ];
        for (const [alias, data, standard, array] of cases) {
          for (const strategy of ['STANDARD', 'FIRST_MATCH', 'EVALUATE_ALL']) {
            assert.deepEqual((await server.solve(`/rule/solve/${alias}`, { data }, { 'X-Strategy': strategy })).json, [standard], `${alias} ${strategy}`);
          }
          assert.deepEqual((await server.solve(`/rule/solve/${alias}`, { data }, { 'X-Strategy': 'ARRAY' })).json, [array], `${alias} ARRAY`);
        }
      });

      test('decision flows solve; every strategy answers as STANDARD', { skip }, async () => {
        for (const strategy of ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL']) {
          assert.deepEqual((await server.solve('/rule/solve/doubling-flow', { data: { value: 21 } }, { 'X-Strategy': strategy })).json, [{ double: 42 }], strategy);
        }
      });

      test('lookup tables follow X-Lookup-Method', { skip }, async () => {
        const value = await server.solve('/rule/solve/bank-lookup', { data: { primaryKey: 'BBB2', outputColumn: 'Bank' } });
        assert.deepEqual(value.json, [{ output: 'Second Bank' }]);
        const exists = await server.solve('/rule/solve/bank-lookup', { data: { primaryKey: 'ZZZ9' } }, { 'X-Lookup-Method': 'LOOKUP_EXISTS' });
        assert.deepEqual(exists.json, [{ output: false }]);
      });

      test('scripting rules solve; a script that throws is a 400 with its message', { skip }, async () => {
        assert.deepEqual((await server.solve('/rule/solve/multiply', { data: { value1: 6, value2: 7 } })).json, [{ result: 42 }]);
        assertError(await server.solve('/rule/solve/thrower', { data: {} }), 400, /value1 is required/);
      });

      test('evaluation over RULE_TIMEOUT_MS is a 400 naming the limit', { skip }, async () => {
        // A server with a short limit, on the same database (it makes a space of its own).
        const limited = await startTestServer({ backend, env: { RULE_TIMEOUT_MS: '1000' } });
        try {
          await seed(limited, limited.space.space, [script('rule-spin', 'spin', 'while (true) {}')]);
          assertError(await limited.solve('/rule/solve/spin', { data: {} }), 400, /1000 ms/);
        } finally {
          await limited.close();
        }
      });

      test('rule flows solve on /rule/solve and on the deprecated /composition/solve', { skip }, async () => {
        const viaRule = await server.solve('/rule/solve/plant-flow', { data: { group: 'plant' } });
        assert.deepEqual(viaRule.json, [{ first: 'Monstera' }]);
        assert.equal(viaRule.headers.get('deprecation'), null);
        const viaComposition = await server.solve('/composition/solve/plant-flow/1/', { data: { group: 'plant' } });
        assert.deepEqual(viaComposition.json, [{ first: 'Monstera' }]);
        assert.equal(viaComposition.headers.get('deprecation'), 'true');
      });

      test('/composition/solve solves rule flows only: anything else is "Unknown ruleFlow or version"', { skip }, async () => {
        const reply = await server.solve('/composition/solve/plant-items', { data: PLANT_INPUT });
        assertError(reply, 400, 'Unknown ruleFlow or version');
        assert.equal(reply.headers.get('deprecation'), 'true');
        assertError(await server.solve('/composition/solve/nothing-here', { data: {} }), 400, 'Unknown ruleFlow or version');
      });

      test('options: includedConditionCols / excludedConditionCols by path or alias; included wins', { skip }, async () => {
        const solve = (options: unknown) => server.solve('/rule/solve/plant-items', { data: PLANT_INPUT, options });
        assert.deepEqual((await solve({ excludedConditionCols: ['inStock'] })).json, [MONSTERA, BEGONIA, MARANTA]);
        assert.deepEqual((await solve({ excludedConditionCols: ['col-stock'] })).json, [MONSTERA, BEGONIA, MARANTA]);
        assert.deepEqual((await solve({ includedConditionCols: ['inStock'] })).json, [MONSTERA, BEGONIA, PLANT_LOVERS]);
        assert.deepEqual((await solve({ includedConditionCols: ['col-group'], excludedConditionCols: ['col-group'] })).json, [MONSTERA, BEGONIA, MARANTA]);
      });

      test('bulk: one result array per input, in input order, each solved independently', { skip }, async () => {
        const reply = await server.solve('/rule/solve/plant-items', {
          data: [{ group: 'book' }, PLANT_INPUT, { group: 'fish' }, { group: 'plant', inStock: true }],
        }, { 'X-Strategy': 'FIRST_MATCH' });
        assert.equal(reply.status, 200);
        assert.deepEqual(reply.json, [[PLANT_LOVERS], [MONSTERA], [], [MONSTERA]]);
        assert.deepEqual((await server.solve('/rule/solve/plant-items', { data: [] })).json, []);
        const tree = await server.solve('/rule/solve/delivery-tree', { data: [{ weight: 40 }, { weight: 1 }] });
        assert.deepEqual(tree.json, [[{ price: 20, hours: 72 }], [{ price: 5, hours: 24 }]]);
      });

      test('bulk: more inputs than BULK_LIMIT is a 400 naming the limit', { skip }, async () => {
        assertError(await server.solve('/rule/solve/plant-items', { data: Array(6).fill({}) }), 400, /more than 5 inputs \(BULK_LIMIT\)/);
        assert.equal((await server.solve('/rule/solve/plant-items', { data: Array(5).fill({}) })).status, 200);
      });

      test('bulk: a rule error names the failing input', { skip }, async () => {
        assertError(await server.solve('/rule/solve/thrower', { data: [{}, {}] }), 400, /^data\[0\]: .*value1 is required/);
      });

      test('a request without Content-Type is read as JSON', { skip }, async () => {
        const reply = await server.call('POST', '/rule/solve/plant-items', { key, raw: new TextEncoder().encode(JSON.stringify({ data: PLANT_INPUT })) });
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(reply.json, [MONSTERA, BEGONIA]);
      });

      test('Content-Type with a charset is JSON too', { skip }, async () => {
        const reply = await server.call('POST', '/rule/solve/plant-items', {
          key, raw: JSON.stringify({ data: PLANT_INPUT }), headers: { 'content-type': 'application/json; charset=utf-8' },
        });
        assert.deepEqual(reply.json, [MONSTERA, BEGONIA]);
      });

      test('a write invalidates the compiled rule: the next solve uses the new published version', { skip }, async () => {
        await seed(server, server.space.space, [messageTable('rule-live', 'live', 1, 'old')]);
        assert.deepEqual((await server.solve('/rule/solve/live', { data: {} })).json, [{ message: 'old' }]);
        await server.running.store.rules.put(server.space.space, [messageTable('rule-live', 'live', 2, 'new')]);
        assert.deepEqual((await server.solve('/rule/solve/live', { data: {} })).json, [{ message: 'new' }]);
        await server.running.store.rules.put(server.space.space, [messageTable('rule-live', 'live', 1, 'changed')]);
        assert.deepEqual((await server.solve('/rule/solve/live/1', { data: {} })).json, [{ message: 'changed' }]);
      });
    });

    describe('errors (SPEC 3.2)', () => {
      test('400 Unknown rule or rule version: unknown id, unknown version, version 0', { skip }, async () => {
        assertError(await server.solve('/rule/solve/no-such-rule', { data: {} }), 400, 'Unknown rule or rule version');
        assertError(await server.solve('/rule/solve/versioned/9', { data: {} }), 400, 'Unknown rule or rule version');
        assertError(await server.solve('/rule/solve/versioned/0', { data: {} }), 400, 'Unknown rule or rule version');
      });

      test("a rule of another space answers exactly like a missing one", { skip }, async () => {
        const foreign = await server.solve('/rule/solve/secret', { data: {} });
        const missing = await server.solve('/rule/solve/missing-rule', { data: {} });
        assertError(foreign, 400, 'Unknown rule or rule version');
        assert.equal(foreign.text, missing.text);
        assertError(await server.solve('/rule/solve/rule-secret/1', { data: {} }), 400, 'Unknown rule or rule version');
        assert.deepEqual((await server.solve('/rule/solve/secret', { data: {} }, {}, other.solverKey)).json, [{ message: 'secret' }]);
      });

      test('400 Rule state is not published: a pending version, or no published version', { skip }, async () => {
        assertError(await server.solve('/rule/solve/versioned/3', { data: {} }), 400, 'Rule state is not published');
        assertError(await server.solve('/rule/solve/draft-only', { data: {} }), 400, 'Rule state is not published');
      });

      test('400 for an alias that is not unique, naming it; the ids still solve', { skip }, async () => {
        assertError(await server.solve('/rule/solve/dup', { data: {} }), 400, /alias "dup" is ambiguous/);
        assert.deepEqual((await server.solve('/rule/solve/rule-dup-2', { data: {} })).json, [{ message: 'second' }]);
      });

      test('400 for a body that is not JSON, says why', { skip }, async () => {
        const reply = await server.call('POST', '/rule/solve/plant-items', { key, raw: '{"data": {', headers: { 'content-type': 'application/json' } });
        assertError(reply, 400, /^Request body is not valid JSON: /);
        assertError(
          await server.call('POST', '/rule/solve/plant-items', { key, raw: '', headers: { 'content-type': 'application/json' } }),
          400,
          /Request body is empty/,
        );
        assertError(
          await server.call('POST', '/rule/solve/plant-items', { key, raw: '{"data":{},"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } }),
          400,
          /__proto__/,
        );
      });

      test('400 for data missing or of the wrong type, naming the field', { skip }, async () => {
        assertError(await server.solve('/rule/solve/plant-items', {}), 400, 'Request body must contain "data"');
        assertError(await server.call('POST', '/rule/solve/plant-items', { key }), 400, /Request body is missing/);
        assertError(await server.solve('/rule/solve/plant-items', [1, 2]), 400, /Request body is missing or not a JSON object/);
        for (const data of ['text', 42, null, true]) {
          assertError(await server.solve('/rule/solve/plant-items', { data }), 400, 'body.data must be a JSON object (one input) or an array of JSON objects (bulk)');
        }
        assertError(await server.solve('/rule/solve/plant-items', { data: [{}, 'x'] }), 400, 'body.data[1] must be a JSON object');
        assertError(await server.solve('/rule/solve/plant-items', { data: {}, options: { includedConditionCols: 'group' } }), 400, 'body.options.includedConditionCols must be an array');
      });

      test('400 for a bad header value, naming the header', { skip }, async () => {
        assertError(await server.solve('/rule/solve/plant-items', { data: {} }, { 'X-Audit': 'yes' }), 400, 'Header X-Audit must be "true" or "false"');
        assertError(await server.solve('/rule/solve/plant-items', { data: {} }, { 'X-Debug': '1' }), 400, 'Header X-Debug must be "true" or "false"');
        for (const ttl of ['0', '-1', 'abc', '0.0', '1.5', '3651', '99999999', '1e3']) {
          assertError(await server.solve('/rule/solve/plant-items', { data: {} }, { 'X-Audit': 'true', 'X-Audit-Ttl': ttl }), 400, 'Header X-Audit-Ttl must be a whole number of days from 1 to 3650');
        }
        assertError(await server.solve('/rule/solve/plant-items/abc', { data: {} }), 400, 'The version in the path must be an integer from 1 to 2147483647');
      });

      test('401 Authentication token missing: no header, or Bearer with no key', { skip }, async () => {
        assertError(await server.call('POST', '/rule/solve/plant-items', { body: { data: {} } }), 401, 'Authentication token missing');
        assertError(await server.call('POST', '/rule/solve/plant-items', { body: { data: {} }, headers: { authorization: 'Bearer' } }), 401, 'Authentication token missing');
      });

      test('401 naming the Bearer scheme: a bare key, or another scheme', { skip }, async () => {
        const scheme = 'Authorization header must use the Bearer scheme: "Authorization: Bearer <key>"';
        assertError(await server.call('POST', '/rule/solve/plant-items', { body: { data: {} }, headers: { authorization: key } }), 401, scheme);
        assertError(await server.call('POST', '/rule/solve/plant-items', { body: { data: {} }, headers: { authorization: `Basic ${key}` } }), 401, scheme);
        assertError(await server.call('GET', '/api/audit', { headers: { authorization: server.space.managementKey } }), 401, scheme);
      });

      test('401 Invalid API key: unknown, of the wrong type, or revoked', { skip }, async () => {
        assertError(await server.solve('/rule/solve/plant-items', { data: {} }, {}, 'vsk_not-a-real-key'), 401, 'Invalid API key');
        assertError(await server.solve('/rule/solve/plant-items', { data: {} }, {}, server.space.managementKey), 401, 'Invalid API key');
        const extra = await server.running.services.keys.create(server.space.space, 'solver');
        assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, extra.key)).status, 200);
        assert.equal(await server.running.services.keys.revoke(extra.id), true);
        assertError(await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, extra.key), 401, 'Invalid API key');
      });

      test('401 comes before body checks', { skip }, async () => {
        assertError(await server.call('POST', '/rule/solve/plant-items', { raw: 'not json', headers: { 'content-type': 'text/plain' } }), 401, 'Authentication token missing');
      });

      test('413 for a body over BODY_LIMIT_BYTES, naming the limit', { skip }, async () => {
        const big = { data: { blob: 'x'.repeat(30_000) } };
        assertError(await server.solve('/rule/solve/plant-items', big), 413, /20000 bytes/);
      });

      test('415 for a content type other than JSON, naming the accepted type', { skip }, async () => {
        const reply = await server.call('POST', '/rule/solve/plant-items', { key, raw: JSON.stringify({ data: {} }), headers: { 'content-type': 'text/plain' } });
        assertError(reply, 415, /"text\/plain".*application\/json/);
      });

      test('500 for a fault of the service: generic text with the correlation id, details only in the log', { skip }, async () => {
        const reply = await server.solve('/rule/solve/explode', { data: {} }, { 'X-Correlation-Id': 'fault-1' });
        assertError(reply, 500, /^Internal server error \(correlation id fault-1\)/);
        assert.doesNotMatch(reply.text, /secret internal detail|TypeError/);
        const logged = server.logs.find((l) => l.correlationId === 'fault-1' && l.level === 50);
        assert.ok(logged, 'the fault is logged under its correlation id');
        assert.match(JSON.stringify(logged), /secret internal detail/);
      });

      test('404 for an unknown route, same error shape', { skip }, async () => {
        assertError(await server.call('GET', '/rule/solve/plant-items'), 404, /No route GET/);
        assertError(await server.call('POST', '/nothing'), 404, /No route POST \/nothing/);
      });
    });

    describe('correlation ids', () => {
      test('X-Correlation-Id is echoed, or a UUID is generated', { skip }, async () => {
        const echoed = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Correlation-Id': 'order-42' });
        assert.equal(echoed.headers.get('x-correlation-id'), 'order-42');
        const generated = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT });
        assert.match(generated.headers.get('x-correlation-id') ?? '', UUID);
        const other = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT });
        assert.notEqual(other.headers.get('x-correlation-id'), generated.headers.get('x-correlation-id'));
      });

      test('errors echo it too', { skip }, async () => {
        for (const reply of [
          await server.call('POST', '/rule/solve/plant-items', { body: { data: {} }, headers: { 'x-correlation-id': 'c-401' } }),
          await server.solve('/rule/solve/missing', { data: {} }, { 'X-Correlation-Id': 'c-401' }),
          await server.call('POST', '/rule/solve/plant-items', { key, raw: 'x', headers: { 'content-type': 'text/plain', 'x-correlation-id': 'c-401' } }),
        ]) {
          assert.equal(reply.headers.get('x-correlation-id'), 'c-401', reply.text);
        }
      });

      test('an over-long correlation id is refused with a fresh id on the response', { skip }, async () => {
        const reply = await server.solve('/rule/solve/plant-items', { data: {} }, { 'X-Correlation-Id': 'x'.repeat(300) });
        assertError(reply, 400, 'Header X-Correlation-Id must be at most 256 characters');
        assert.match(reply.headers.get('x-correlation-id') ?? '', UUID);
      });

      test('the request log line carries the correlation id', { skip }, async () => {
        await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Correlation-Id': 'log-me' });
        const line = await eventually(async () => server.logs.find((l) => l.correlationId === 'log-me' && l.msg === 'request'));
        assert.equal(line.statusCode, 200);
        assert.equal(line.url, '/rule/solve/plant-items');
      });
    });

    describe('audit (SPEC 5.3, GET /api/audit)', () => {
      const listAudit = (query: string, mkey = server.space.managementKey) => server.call('GET', `/api/audit${query}`, { key: mkey });

      test('X-Audit: true stores a record listed for the management key', { skip }, async () => {
        await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Audit': 'true', 'X-Correlation-Id': 'audit-1', 'X-Strategy': 'FIRST_MATCH' });
        const record = await eventually(async () => (await listAudit('?correlationId=audit-1')).json.items[0]);
        assert.equal(record.correlationId, 'audit-1');
        assert.equal(record.ruleId, 'rule-plants');
        assert.equal(record.ruleAlias, 'plant-items');
        assert.equal(record.version, 1);
        assert.equal(record.ruleType, 'decision-table');
        assert.equal(record.strategy, 'FIRST_MATCH');
        assert.deepEqual(record.input, PLANT_INPUT);
        assert.deepEqual(record.output, [MONSTERA]);
        assert.equal(record.statusCode, 200);
        assert.equal(record.errorMessage, null);
        assert.equal(record.errorKind, null);
        assert.equal(record.debug, null);
        assert.equal(typeof record.executionTimeMs, 'number');
        const ttlMs = Date.parse(record.expiresAt) - Date.parse(record.createdAt);
        assert.equal(ttlMs, 14 * DAY, 'default TTL 14 days');
      });

      test('X-Audit-Ttl sets the expiry; X-Audit false or absent stores nothing', { skip }, async () => {
        await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Audit': 'true', 'X-Audit-Ttl': '3', 'X-Correlation-Id': 'audit-ttl' });
        await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Audit': 'false', 'X-Correlation-Id': 'audit-none' });
        await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Correlation-Id': 'audit-none' });
        const record = await eventually(async () => (await listAudit('?correlationId=audit-ttl')).json.items[0]);
        assert.equal(Date.parse(record.expiresAt) - Date.parse(record.createdAt), 3 * DAY);
        await server.running.services.audit.flush();
        assert.deepEqual((await listAudit('?correlationId=audit-none')).json.items, []);
      });

      test('X-Debug: true stores the trace (and audits); the response body does not change', { skip }, async () => {
        const plain = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT });
        const debugged = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Debug': 'true', 'X-Correlation-Id': 'audit-debug' });
        assert.equal(debugged.text, plain.text);
        const record = await eventually(async () => (await listAudit('?correlationId=audit-debug')).json.items[0]);
        assert.ok(Array.isArray(record.debug) && record.debug.length > 0, JSON.stringify(record.debug));
      });

      test('a failed solve with X-Audit stores its status, message and error kind', { skip }, async () => {
        await server.solve('/rule/solve/versioned/3', { data: {} }, { 'X-Audit': 'true', 'X-Correlation-Id': 'audit-fail' });
        const record = await eventually(async () => (await listAudit('?correlationId=audit-fail')).json.items[0]);
        assert.equal(record.statusCode, 400);
        assert.equal(record.errorMessage, 'Rule state is not published');
        assert.equal(record.errorKind, 'invalid-input');
        assert.equal(record.output, null);
        const byStatus = await listAudit('?status=400');
        assert.ok(byStatus.json.items.every((r: { statusCode: number }) => r.statusCode === 400));
      });

      test('bulk solves are one record with the whole input and output', { skip }, async () => {
        await server.solve('/rule/solve/plant-items', { data: [PLANT_INPUT, { group: 'book' }] }, { 'X-Audit': 'true', 'X-Correlation-Id': 'audit-bulk' });
        const record = await eventually(async () => (await listAudit('?correlationId=audit-bulk')).json.items[0]);
        assert.deepEqual(record.input, [PLANT_INPUT, { group: 'book' }]);
        assert.deepEqual(record.output, [[MONSTERA, BEGONIA], [PLANT_LOVERS]]);
      });

      test('newest first, cursor pagination without overlap, ruleId filter', { skip }, async () => {
        for (let i = 0; i < 3; i++) {
          await server.solve('/rule/solve/multiply', { data: { value1: i, value2: 1 } }, { 'X-Audit': 'true', 'X-Correlation-Id': `page-${i}` });
        }
        await eventually(async () => ((await listAudit('?ruleId=multiply')).json.items.length === 3 ? true : undefined));
        const first = await listAudit('?ruleId=multiply&limit=2');
        assert.equal(first.status, 200);
        assert.deepEqual(first.json.items.map((r: { correlationId: string }) => r.correlationId), ['page-2', 'page-1']);
        assert.ok(first.json.nextCursor);
        const second = await listAudit(`?ruleId=rule-multiply&limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`);
        assert.deepEqual(second.json.items.map((r: { correlationId: string }) => r.correlationId), ['page-0']);
        assert.equal(second.json.nextCursor, null);
      });

      test('the audit API needs a management key and sees only its space', { skip }, async () => {
        assertError(await listAudit('', key), 401, 'This is a solver key; the management API needs a management key');
        assertError(await server.call('GET', '/api/audit'), 401, 'Authentication token missing');
        await eventually(async () => ((await listAudit('?correlationId=audit-1')).json.items.length > 0 ? true : undefined));
        assert.deepEqual((await listAudit('?correlationId=audit-1', other.managementKey)).json.items, []);
      });

      test('bad audit query parameters are 400s that say which', { skip }, async () => {
        assertError(await listAudit('?limit=0'), 400, /limit must be an integer from 1 to 1000/);
        assertError(await listAudit('?limit=abc'), 400, /limit must be an integer/);
        assertError(await listAudit('?from=yesterday'), 400, /from must be an ISO-8601/);
        assertError(await listAudit('?cursor=garbage'), 400, /cursor is invalid/);
        assertError(await listAudit('?status=ok'), 400, /status must be an HTTP status code/);
      });
    });

    describe('documentation, health, metrics (SPEC 3.4)', () => {
      test('GET /api/solver/docs serves the UI and /api/solver/docs/json a valid OpenAPI 3 document', { skip }, async () => {
        const ui = await server.call('GET', '/api/solver/docs');
        assert.equal(ui.status, 200);
        assert.match(ui.text, /swagger/i);
        const doc = await server.call('GET', '/api/solver/docs/json');
        assert.equal(doc.status, 200);
        assert.match(doc.json.openapi, /^3\./);
        await SwaggerParser.validate(structuredClone(doc.json));
        const paths = Object.keys(doc.json.paths);
        for (const path of ['/rule/solve/{ruleIdOrAlias}', '/rule/solve/{ruleIdOrAlias}/{version}', '/composition/solve/{ruleIdOrAlias}']) {
          assert.ok(paths.includes(path), `${path} in ${paths.join(', ')}`);
        }
        assert.ok(!paths.some((p) => p.startsWith('/api/audit')), 'the solver document lists solver routes only');
        const operation = doc.json.paths['/rule/solve/{ruleIdOrAlias}'].post;
        const headers = operation.parameters.filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name);
        for (const h of ['x-strategy', 'x-correlation-id', 'x-audit', 'x-audit-ttl', 'x-debug']) assert.ok(headers.includes(h), h);
        assert.equal(doc.json.paths['/composition/solve/{ruleIdOrAlias}'].post.deprecated, true);
      });

      test('GET /api/docs/json documents the management API (audit)', { skip }, async () => {
        const doc = await server.call('GET', '/api/docs/json');
        assert.equal(doc.status, 200);
        await SwaggerParser.validate(structuredClone(doc.json));
        assert.ok(doc.json.paths['/api/audit']);
        assert.equal((await server.call('GET', '/api/docs')).status, 200);
      });

      test('/health-check and /health/ready answer 200', { skip }, async () => {
        assert.equal((await server.call('GET', '/health-check')).status, 200);
        const ready = await server.call('GET', '/health/ready');
        assert.equal(ready.status, 200);
        assert.deepEqual(ready.json, { status: 'ready', checks: { store: 'ok' } });
      });

      test('/metrics counts solves by rule type, strategy, status and error kind, with a latency histogram', { skip }, async () => {
        await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Strategy': 'ARRAY' });
        await server.solve('/rule/solve/no-such-rule', { data: {} });
        const metrics = await server.call('GET', '/metrics');
        assert.equal(metrics.status, 200);
        assert.match(metrics.text, /verdict_solves_total\{rule_type="decision-table",strategy="ARRAY",status="200",channel="http",kind=""\} [1-9]/);
        assert.match(metrics.text, /verdict_solves_total\{rule_type="unknown",strategy="STANDARD",status="400",channel="http",kind="not-found"\} [1-9]/);
        assert.match(metrics.text, /verdict_solve_duration_seconds_bucket\{le="0.005",rule_type="decision-table",channel="http"\}/);
      });
    });
  });

  describe(`audit expiry and rate limiting on ${kind} (controlled clock)`, async () => {
    const skip = kind === 'postgres' ? await postgresSkip() : false;
    let backend: Backend;
    let server: TestServer;
    let now = Date.parse('2026-03-01T10:00:00.123Z');

    before(async () => {
      if (skip) return;
      backend = await backendOf(kind);
      server = await startTestServer({ backend, clock: () => now, env: { RATE_LIMIT_PER_SECOND: '3' } });
      await seed(server, server.space.space, [plantTable()]);
    });
    after(async () => {
      if (skip) return;
      await server.close();
      await backend.cleanup();
    });

    test('an audit record expires after its TTL: hidden at once, deleted by the retention task', { skip }, async () => {
      await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Audit': 'true', 'X-Audit-Ttl': '1', 'X-Correlation-Id': 'short' });
      now += 1000;
      await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, { 'X-Audit': 'true', 'X-Audit-Ttl': '30', 'X-Correlation-Id': 'long' });
      await server.running.services.audit.flush();
      const list = () => server.call('GET', '/api/audit', { key: server.space.managementKey }).then((r) => r.json.items.map((i: { correlationId: string }) => i.correlationId));
      assert.deepEqual(await list(), ['long', 'short']);
      now += 2 * DAY;
      assert.deepEqual(await list(), ['long'], 'expired records are not listed');
      assert.equal(await server.running.services.retention.runOnce(), 1, 'the retention task deletes the expired one');
      assert.equal(await server.running.services.retention.runOnce(), 0);
      now += 30 * DAY;
      assert.equal(await server.running.services.retention.runOnce(), 1);
    });

    test('429 over RATE_LIMIT_PER_SECOND per key, with Retry-After', { skip }, async () => {
      now = Math.floor(now / 1000) * 1000 + 100;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT })).status);
      assert.deepEqual(statuses, [200, 200, 200]);
      const limited = await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT });
      assertError(limited, 429, /Rate limit of 3 requests per second.*retry after 1 s/);
      assert.equal(limited.headers.get('retry-after'), '1');
      const otherKey = await server.running.services.keys.create(server.space.space, 'solver');
      assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT }, {}, otherKey.key)).status, 200, 'limits are per key');
      now += 1000;
      assert.equal((await server.solve('/rule/solve/plant-items', { data: PLANT_INPUT })).status, 200, 'the next second is allowed again');
    });
  });
}
