// The Kafka wire contract without a broker: header reading, request validation, response shape, error mapping,
// machine tokens in the api-key header.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServiceError } from '../../src/service/errors.ts';
import { MachineTokenService } from '../../src/service/machine-tokens.ts';
import type { Principal, SolveRequest, SolveResponse } from '../../src/service/index.ts';
import { answer, codeOf, KAFKA_CHANNEL } from '../../src/kafka/handler.ts';
import type { ChannelLogger, RequestMessage, SolveDeps } from '../../src/kafka/handler.ts';
import { parseSolveCall, readHeaders, responseBody, RULE_NOT_FOUND_MESSAGE } from '../../src/kafka/protocol.ts';
import { checkCompany, topicPair } from '../../src/kafka/topics.ts';
import { nowSeconds, startLocalIssuer, unsignedToken } from '../support/local-issuer.ts';
import type { LocalIssuer } from '../support/local-issuer.ts';

const headers = (entries: Record<string, string>) => readHeaders(Object.entries(entries).map(([k, v]) => [Buffer.from(k), Buffer.from(v)] as const));
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('readHeaders', () => {
  test('names are case-insensitive, the first of a repeated header wins, a null value reads as empty', () => {
    const read = readHeaders([
      [Buffer.from('API-Key'), Buffer.from('k1')],
      [Buffer.from('api-key'), Buffer.from('k2')],
      [Buffer.from('x-correlation-id'), null],
      [null, Buffer.from('ignored')],
    ]);
    assert.deepEqual([...read], [['api-key', 'k1'], ['x-correlation-id', '']]);
  });
});

describe('parseSolveCall', () => {
  const rule = { 'rule-id': 'pricing' };

  test('reads rule-id, version and x-strategy; the value is the input object', () => {
    const parsed = parseSolveCall(headers({ ...rule, version: '7', 'x-strategy': 'FIRST_MATCH' }), json({ a: 1 }), 1000);
    assert.deepEqual(parsed, { ok: true, value: { idOrAlias: 'pricing', ruleFlowsOnly: false, version: 7, strategy: 'FIRST_MATCH', dmnOptions: undefined, input: { a: 1 } } });
  });

  test('ruleflow-id solves rule flows only; blank optional headers count as absent', () => {
    const parsed = parseSolveCall(headers({ 'ruleflow-id': 'flow', version: ' ', 'x-strategy': '' }), json({}), 1000);
    assert.deepEqual(parsed, { ok: true, value: { idOrAlias: 'flow', ruleFlowsOnly: true, version: undefined, strategy: undefined, dmnOptions: undefined, input: {} } });
  });

  const bad = (h: Record<string, string>, value: Buffer | undefined, max = 1000) => {
    const parsed = parseSolveCall(headers(h), value, max);
    assert.equal(parsed.ok, false);
    return (parsed as { error: { code: number; message: string } }).error;
  };

  test('every malformed value is a 400 that says what is wrong', () => {
    assert.deepEqual(bad(rule, Buffer.from('x'.repeat(11)), 10), { code: 400, message: 'Message value is 11 bytes, over the limit of 10 bytes' });
    assert.deepEqual(bad(rule, undefined), { code: 400, message: 'Message value is empty; it must be the input JSON object' });
    assert.deepEqual(bad(rule, Buffer.alloc(0)), { code: 400, message: 'Message value is empty; it must be the input JSON object' });
    assert.match(bad(rule, Buffer.from('{"a":')).message, /^Message value is not valid JSON: /);
    assert.equal(bad(rule, json([1])).message, 'Message value must be a JSON object (the input data), got an array');
    assert.equal(bad(rule, json(null)).message, 'Message value must be a JSON object (the input data), got null');
    assert.equal(bad(rule, json('text')).message, 'Message value must be a JSON object (the input data), got a string');
    assert.equal(bad(rule, json(true)).message, 'Message value must be a JSON object (the input data), got a boolean');
  });

  test('rule headers: one of rule-id and ruleflow-id, and a positive integer version', () => {
    assert.equal(bad({}, json({})).message, 'Header rule-id (or ruleflow-id) is missing; it names the rule to solve');
    assert.equal(bad({ 'rule-id': '  ' }, json({})).message, 'Header rule-id (or ruleflow-id) is missing; it names the rule to solve');
    assert.equal(bad({ 'rule-id': 'a', 'ruleflow-id': 'b' }, json({})).message, 'Headers rule-id and ruleflow-id are exclusive; send one of them');
    for (const version of ['0', '-1', '1.5', 'abc', '1e3', '12345678901', '2147483648', '9007199254740993', '1e300']) {
      assert.equal(bad({ ...rule, version }, json({})).message, `Header version must be an integer from 1 to 2147483647, got "${version}"`, version);
    }
    const top = parseSolveCall(headers({ ...rule, version: '2147483647' }), json({}), 1000);
    assert.equal(top.ok && top.value.version, 2147483647, 'the highest version is reachable');
  });

  test('DMN headers: decisions comma-separated or one decision service, null-on-error true or false', () => {
    const options = (h: Record<string, string>) => {
      const parsed = parseSolveCall(headers({ ...rule, ...h }), json({}), 1000);
      return parsed.ok ? parsed.value.dmnOptions : parsed.error;
    };
    assert.deepEqual(options({ 'x-dmn-decisions': 'Risk, Approval,' }), { decisions: ['Risk', 'Approval'] });
    assert.deepEqual(options({ 'X-Dmn-Decision-Service': 'Approval Service', 'x-dmn-null-on-error': 'TRUE' }), { decisionService: 'Approval Service', nullOnError: true });
    assert.deepEqual(options({ 'x-dmn-null-on-error': 'false' }), {});
    assert.deepEqual(options({ 'x-dmn-decisions': 'Risk', 'x-dmn-decision-service': 'S' }), {
      code: 400, message: 'Headers x-dmn-decisions and x-dmn-decision-service are exclusive; send one of them',
    });
    assert.deepEqual(options({ 'x-dmn-null-on-error': 'yes' }), { code: 400, message: 'Header x-dmn-null-on-error must be true or false, got "yes"' });
  });

  test('a number that overflows to Infinity (1e400) is a 400 naming where it is; ordinary exponents pass', () => {
    const infinite = 'is a number too large to represent (it reads as Infinity); send a smaller number, or a string';
    assert.deepEqual(bad(rule, Buffer.from('{"total": 1e400}')), { code: 400, message: `Message value.total ${infinite}` });
    assert.deepEqual(bad(rule, Buffer.from('{"items": [{"price": -1E+999}]}')), { code: 400, message: `Message value.items[0].price ${infinite}` });
    assert.deepEqual(bad(rule, Buffer.from(`{"n": ${'9'.repeat(400)}}`)), { code: 400, message: `Message value.n ${infinite}` });
    const fine = parseSolveCall(headers(rule), Buffer.from('{"total": 1e300, "note": "1e400"}'), 1000);
    assert.deepEqual(fine.ok && fine.value.input, { total: 1e300, note: '1e400' });
  });
});

describe('responseBody', () => {
  test('data only on success; correlationId only when the request had one', () => {
    assert.equal(responseBody({ data: [{ a: 1 }] }, undefined), '{"data":[{"a":1}]}');
    assert.equal(responseBody({ data: [] }, 'c1'), '{"data":[],"correlationId":"c1"}');
    assert.equal(
      responseBody({ error: { code: 401, message: 'Invalid API key' } }, 'c2'),
      '{"data":[],"errors":[{"code":401,"message":"Invalid API key"}],"correlationId":"c2"}',
    );
  });
});

describe('answer (request -> response, over a fake service)', () => {
  const principal: Principal = { keyId: 'key_1', space: 'shop', type: 'solver', role: 'solver' as const, actor: { kind: 'key' as const, id: 'k', name: 'k' } };
  const logged: Array<{ obj: object; msg: string }> = [];
  const log: ChannelLogger = { error: (obj, msg) => logged.push({ obj, msg }), warn: () => undefined, info: () => undefined };
  const calls: SolveRequest[] = [];
  let outcome: (request: SolveRequest) => SolveResponse = () => ({ body: [{ ok: true }], ruleId: 'r', version: 1, ruleType: 'decision-table', strategy: 'STANDARD' });
  const deps = {
    keys: {
      authenticateKey: (token: string) => {
        if (token === 'good') return Promise.resolve(principal);
        if (token === 'foreign') return Promise.resolve({ ...principal, space: 'elsewhere' });
        return Promise.reject(new ServiceError('invalid-key', 'Invalid API key'));
      },
    },
    solver: {
      solve: (_p: Principal, request: SolveRequest) => {
        calls.push(request);
        return Promise.resolve().then(() => outcome(request));
      },
    },
  };
  const message = (h: Record<string, string>, value: unknown = { a: 1 }): RequestMessage => ({
    topic: 't',
    partition: 0,
    offset: 5n,
    headers: Object.entries(h).map(([k, v]) => [Buffer.from(k), Buffer.from(v)] as const),
    value: value === undefined ? undefined : json(value),
  });
  const run = (h: Record<string, string>, value?: unknown) => answer(deps, log, 'shop', message(h, value), 1000);

  test('a solve passes rule, version, strategy, input and correlation id to the service, on the kafka channel', async () => {
    const result = await run({ 'api-key': 'good', 'ruleflow-id': 'flow', version: '2', 'x-strategy': 'ARRAY', 'x-correlation-id': 'c9' }, { q: 1 });
    assert.deepEqual(result, { value: '{"data":[{"ok":true}],"correlationId":"c9"}', correlationId: 'c9', code: 200 });
    assert.deepEqual(calls.at(-1), {
      idOrAlias: 'flow', version: 2, data: { q: 1 }, strategy: 'ARRAY', correlationId: 'c9', ruleFlowsOnly: true, channel: KAFKA_CHANNEL,
    });
  });

  test('without x-correlation-id the service still gets a fresh one for its audit, the response none', async () => {
    const result = await run({ 'api-key': 'good', 'rule-id': 'r' });
    assert.equal(result.correlationId, undefined);
    assert.equal(result.value, '{"data":[{"ok":true}]}');
    assert.match(calls.at(-1)!.correlationId, /^[0-9a-f-]{36}$/);
  });

  test('the api-key is checked before anything else, and must belong to the topic\'s space', async () => {
    const before = calls.length;
    assert.equal((await run({ 'rule-id': 'r' }, 'not an object')).value, '{"data":[],"errors":[{"code":401,"message":"Authentication token missing: header api-key is missing"}]}');
    assert.equal((await run({ 'api-key': 'nope' }, undefined)).value, '{"data":[],"errors":[{"code":401,"message":"Invalid API key"}]}');
    assert.equal((await run({ 'api-key': 'foreign', 'rule-id': 'r' })).value, '{"data":[],"errors":[{"code":401,"message":"Invalid API key"}]}');
    assert.equal(calls.length, before, 'nothing was solved');
  });

  test('service failures map to SPEC 4 codes; not found uses DecisionRules\' message', async () => {
    const failWith = async (error: ServiceError) => {
      outcome = () => {
        throw error;
      };
      return JSON.parse((await run({ 'api-key': 'good', 'rule-id': 'r' })).value) as unknown;
    };
    assert.deepEqual(await failWith(new ServiceError('unknown-rule', 'Unknown rule or rule version')), { data: [], errors: [{ code: 500, message: RULE_NOT_FOUND_MESSAGE }] });
    assert.deepEqual(await failWith(new ServiceError('not-published', 'Rule state is not published')), { data: [], errors: [{ code: 400, message: 'Rule state is not published' }] });
    assert.deepEqual(await failWith(new ServiceError('timeout', 'Rule evaluation exceeded the time limit of 5 ms')), { data: [], errors: [{ code: 400, message: 'Rule evaluation exceeded the time limit of 5 ms' }] });
    assert.equal(codeOf('rule-error'), 400);
    assert.equal(codeOf('ambiguous-alias'), 400);
    assert.equal(codeOf('unauthenticated'), 401);
  });

  test('a fault of the service is a 500 without details; the log has them under the correlation id', async () => {
    outcome = () => {
      throw new TypeError('secret internal detail');
    };
    const result = await run({ 'api-key': 'good', 'rule-id': 'r', 'x-correlation-id': 'c-fault' });
    assert.equal(result.code, 500);
    assert.doesNotMatch(result.value, /secret/);
    assert.deepEqual(JSON.parse(result.value), {
      data: [],
      errors: [{ code: 500, message: 'Internal error; the service log has the details under this correlation id' }],
      correlationId: 'c-fault',
    });
    assert.equal((logged.at(-1)!.obj as { correlationId: string }).correlationId, 'c-fault');
  });
});

describe('topic names', () => {
  test('{company}-{random}-request and -response share the random number', () => {
    assert.deepEqual(topicPair('acme', 12345678), { requestTopic: 'acme-12345678-request', responseTopic: 'acme-12345678-response' });
    const drawn = topicPair('acme');
    assert.match(drawn.requestTopic, /^acme-\d{8}-request$/);
    assert.equal(drawn.responseTopic, drawn.requestTopic.replace('-request', '-response'));
  });

  test('a company name must be usable in a topic name', () => {
    assert.equal(checkCompany('Acme_Corp.eu-1'), undefined);
    for (const company of ['', 'a b', 'a/b', 'x'.repeat(201), 'ünï']) assert.match(checkCompany(company)!, /must be 1-200 characters/, company);
  });
});

describe('answer: a JWT access token in the api-key header (a real verifier, a JWKS served here)', () => {
  const log: ChannelLogger = { error: () => undefined, warn: () => undefined, info: () => undefined };
  const solved: Principal[] = [];
  let issuer: LocalIssuer;
  let deps: SolveDeps;
  before(async () => {
    issuer = await startLocalIssuer();
    const machineTokens = new MachineTokenService([{ issuer: issuer.issuer, audience: 'verdict-api', jwksUri: issuer.jwksUri, spaceClaim: 'verdict_space', roleClaim: 'verdict_role', clockSkewSeconds: 5 }], log);
    deps = {
      keys: { authenticateKey: () => Promise.reject(new ServiceError('invalid-key', 'Invalid API key')) },
      machineTokens,
      solver: {
        solve: (principal: Principal) => {
          solved.push(principal);
          return Promise.resolve({ body: [{ ok: true }], ruleId: 'r', version: 1, ruleType: 'decision-table', strategy: 'STANDARD' });
        },
      },
    };
  });
  after(() => issuer.close());
  const claims = (space: string, exp = nowSeconds() + 60) => ({ iss: issuer.issuer, aud: 'verdict-api', sub: 'robot', azp: 'batch', exp, verdict_space: space, verdict_role: 'solver' });
  const run = async (token: string) => (await answer(deps, log, 'shop', { topic: 't', partition: 0, offset: 1n, headers: [[Buffer.from('api-key'), Buffer.from(token)], [Buffer.from('rule-id'), Buffer.from('r')]], value: json({}) }, 1000)).value;

  test('a valid token of the topic space solves as its client; another space, expired or unsigned is a 401 saying why', async () => {
    assert.equal(await run(await issuer.sign(claims('shop'))), '{"data":[{"ok":true}]}');
    assert.deepEqual(solved.map((p) => [p.space, p.keyName]), [['shop', 'batch']]);
    assert.equal(await run(await issuer.sign(claims('elsewhere'))), '{"data":[],"errors":[{"code":401,"message":"This token is for space \\"elsewhere\\", not this topic\'s"}]}');
    const expired = nowSeconds() - 600;
    assert.equal(await run(await issuer.sign(claims('shop', expired))), `{"data":[],"errors":[{"code":401,"message":"Token expired at ${new Date(expired * 1000).toISOString()}"}]}`);
    assert.equal(await run(unsignedToken(claims('shop'))), '{"data":[],"errors":[{"code":401,"message":"Token is not signed (alg \\"none\\"); tokens must be signed by their issuer"}]}');
    assert.equal(solved.length, 1, 'only the valid token solved');
  });
});
