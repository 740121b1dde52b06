// The Studio's pure pieces of issue 32: what a membership allows and the reason it gives, the activity query, the
// time range both log filters share, and how an actor is named.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grantsOf } from '../../studio/src/app/permissions.ts';
import { activityQuery } from '../../studio/src/activity/api.ts';
import { actorText } from '../../studio/src/review/api.ts';
import { timeRange } from '../../studio/src/space/audit-filter.ts';

test('grants: the permissions the server answered decide; the reason names the role and the action', () => {
  const viewer = grantsOf({ space: 'acme', role: 'viewer', permissions: ['rules:solve', 'rules:read', 'rules:run', 'audit:read'] });
  assert.equal(viewer.can('rules:read'), true);
  assert.equal(viewer.can('rules:publish'), false);
  assert.equal(viewer.reason('rules:publish', 'publish'), 'Your role viewer cannot publish');
  assert.equal(viewer.reason('rules:run', 'run tests'), undefined);
  assert.deepEqual([viewer.role, viewer.space], ['viewer', 'acme']);
});

test('activity query: only the filters that are set, the cursor when paging, and the page size', () => {
  assert.equal(activityQuery({}), 'limit=50');
  assert.equal(activityQuery({ actor: ' eddie ', rule: '', type: 'rule.published', from: '2026-11-27T10:00:00.000Z' }, 'c2'),
    'actor=eddie&type=rule.published&from=2026-11-27T10%3A00%3A00.000Z&cursor=c2&limit=50');
});

test('time range: local date-times become instants; a bad one or from after to is named', () => {
  assert.deepEqual(timeRange('', ''), { from: undefined, to: undefined });
  assert.deepEqual(timeRange('2026-03-01T10:00', ''), { from: new Date('2026-03-01T10:00').toISOString(), to: undefined });
  assert.match(timeRange('', 'later').error ?? '', /To is not a date and time: "later"/);
  assert.match(timeRange('2026-03-02T00:00', '2026-03-01T00:00').error ?? '', /From is after To/);
});

test('actors in words: a user by name, a key or token named as such', () => {
  assert.equal(actorText({ kind: 'user', id: 'u1', name: 'eddie' }), 'eddie');
  assert.equal(actorText({ kind: 'key', id: 'k1', name: 'ci' }), 'key ci');
  assert.equal(actorText(null), 'someone');
});
