import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuleCatalog } from '../../src/service/rule-catalog.ts';
import type { RuleHead } from '../../src/store/ports.ts';

function head(ruleId: string, version: number, alias: string, status: 'published' | 'pending' = 'published'): RuleHead {
  return { space: 's', ruleId, version, alias, name: ruleId, type: 'decision-table', status, locked: false, tags: [], createdAt: '', updatedAt: '' };
}

const catalog = new RuleCatalog('s', [
  head('r1', 2, 'one'),
  head('r1', 1, 'one'),
  head('r1', 3, 'one', 'pending'),
  head('r2', 1, 'two', 'pending'),
  head('r3', 1, 'same'),
  head('r4', 1, 'same'),
  head('r5', 1, 'r1'),
]);

test('latest published by id or alias; an explicit version must be published', () => {
  const version = (r: ReturnType<RuleCatalog['resolve']>) => (r.ok ? r.head.version : r.reason);
  assert.equal(version(catalog.resolve('r1', undefined)), 2);
  assert.equal(version(catalog.resolve('one', undefined)), 2);
  assert.equal(version(catalog.resolve('one', 1)), 1);
  assert.equal(version(catalog.resolve('one', 3)), 'not-published');
  assert.equal(version(catalog.resolve('one', 4)), 'unknown');
  assert.equal(version(catalog.resolve('two', undefined)), 'not-published');
  assert.equal(version(catalog.resolve('nope', undefined)), 'unknown');
});

test('an alias shared by two rules is ambiguous; an id wins over an alias', () => {
  assert.deepEqual(catalog.resolve('same', undefined), { ok: false, reason: 'ambiguous', count: 2 });
  const byId = catalog.resolve('r1', 1);
  assert.ok(byId.ok && byId.head.ruleId === 'r1');
});
