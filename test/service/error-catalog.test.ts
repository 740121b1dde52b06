// The error catalog: one classification of anything thrown, and one table per channel from kind to its code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LimitError, RuleError, TimeoutError, UnresolvedRuleError, ValidationError } from '../../src/engine/errors.ts';
import { HTTP_STATUS, statusOf } from '../../src/http/errors.ts';
import { KAFKA_CHANNEL, KAFKA_CODE } from '../../src/kafka/handler.ts';
import { classify, ERROR_CATALOG, prefixed, ServiceError } from '../../src/service/errors.ts';
import type { ErrorCode } from '../../src/service/errors.ts';
import { DIRECT_CHANNEL } from '../../src/service/solve.ts';

test('engine errors are classified by what they mean; anything else is a fault of ours', () => {
  const kinds = (err: unknown) => {
    const failure = classify(err);
    return failure && [failure.code, failure.kind, failure.message];
  };
  assert.deepEqual(kinds(new ValidationError([{ path: 'type', message: 'is missing' }])), ['rule-error', 'invalid-input', 'type: is missing']);
  assert.deepEqual(kinds(new RuleError('boom', 'rows[1]')), ['rule-error', 'invalid-input', 'rows[1]: boom']);
  assert.deepEqual(kinds(new LimitError('more than 32 nested calls')), ['limit-exceeded', 'limit', 'more than 32 nested calls']);
  assert.deepEqual(kinds(new TimeoutError(5)), ['timeout', 'limit', 'Rule evaluation exceeded the time limit of 5 ms']);
  assert.deepEqual(kinds(new UnresolvedRuleError('x', undefined)), ['rule-error', 'invalid-input', 'rule x could not be loaded']);
  const own = new ServiceError('space-exists', 'space "s" already exists');
  assert.equal(classify(own), own);
  assert.equal(classify(new TypeError('x is undefined')), undefined);
  assert.equal(classify('a string'), undefined);
});

test('prefixed names where a failure happened and keeps its code and retry time', () => {
  const failure = prefixed(new ServiceError('rate-limited', 'slow down', { retryAfter: 2 }), 'data[3]') as ServiceError;
  assert.deepEqual([failure.code, failure.kind, failure.message, failure.retryAfter], ['rate-limited', 'rate-limited', 'data[3]: slow down', 2]);
  assert.equal((prefixed(new LimitError('too deep'), 'data[0]') as ServiceError).message, 'data[0]: too deep');
  const fault = new TypeError('x');
  assert.equal(prefixed(fault, 'data[0]'), fault, 'a fault of ours passes unchanged');
});

test('HTTP: every code gets the status its kind maps to, except an unknown rule (400, DecisionRules) and a stale version (412, If-Match)', () => {
  const expected: Record<ErrorCode, number> = {
    unauthenticated: 401,
    'invalid-key': 401,
    'invalid-token': 401,
    'token-issuer-unavailable': 502,
    'sso-unknown-provider': 404,
    'sso-failed': 401,
    'sso-no-role': 403,
    'sso-unavailable': 502,
    forbidden: 403,
    csrf: 403,
    'unknown-rule': 400,
    'not-published': 400,
    'ambiguous-alias': 400,
    'bad-request': 400,
    'rule-error': 400,
    'limit-exceeded': 400,
    timeout: 400,
    'rate-limited': 429,
    'not-found': 404,
    conflict: 409,
    'stale-version': 412,
    'id-alias-clash': 409,
    'invalid-rule-id': 400,
    'space-not-found': 404,
    'space-exists': 409,
    'invalid-space-name': 400,
    'invalid-key-name': 400,
    'key-not-found': 404,
    'own-key': 409,
    'kafka-not-configured': 400,
    'invalid-kafka-binding': 400,
    'kafka-unavailable': 502,
    'tests-failed': 409,
    'live-edits-forbidden': 409,
    'invalid-spreadsheet': 400,
    'not-a-decision-table': 400,
    'not-convertible': 400,
    'approval-required': 409,
    'own-approval': 409,
    'wrong-credentials': 401,
    'sign-in-throttled': 429,
    'key-sign-in-disabled': 403,
    'user-not-found': 404,
    'user-exists': 409,
    'member-exists': 409,
    'invalid-username': 400,
    'invalid-role': 400,
    'invalid-password': 400,
    'last-admin': 409,
    internal: 500,
  };
  for (const code of Object.keys(ERROR_CATALOG) as ErrorCode[]) {
    assert.equal(statusOf(new ServiceError(code, 'm')), expected[code], code);
  }
  assert.equal(HTTP_STATUS.limit, 400, 'a rule over a limit is answered like any rule error');
});

test('Kafka: kinds map to the codes of the wire contract; solves are recorded with them', () => {
  assert.deepEqual(KAFKA_CODE, {
    unauthorized: 401,
    forbidden: 401,
    'not-found': 500,
    'invalid-input': 400,
    conflict: 400,
    limit: 400,
    'rate-limited': 400,
    unavailable: 500,
    internal: 500,
  });
  assert.equal(KAFKA_CHANNEL.codeOf(undefined), 200);
  assert.equal(KAFKA_CHANNEL.codeOf(new ServiceError('unknown-rule', 'Unknown rule or rule version')), 500);
  assert.equal(KAFKA_CHANNEL.codeOf(new ServiceError('timeout', 'too slow')), 400);
  assert.deepEqual([DIRECT_CHANNEL.codeOf(undefined), DIRECT_CHANNEL.codeOf(new ServiceError('timeout', 't'))], [0, 1]);
});
