// The transitive dependency walk the service and the CLI run before solving a rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectDependencies } from '../../src/engine/dependencies.ts';
import { RuleError, UnresolvedRuleError } from '../../src/engine/errors.ts';
import type { CompiledRule, RuleRef } from '../../src/engine/types.ts';
import { MapResolver, fakeRule, fixtureResolver, ruleByAlias } from './helpers.ts';

function rule(alias: string, dependencies: RuleRef[] = [], version = 1): CompiledRule {
  return fakeRule({ alias, version, dependencies }, () => []);
}

test('lists every rule reachable from the root once, callees first', () => {
  const resolver = new MapResolver().add(rule('root', [{ idOrAlias: 'a' }, { idOrAlias: 'b' }]), rule('a', [{ idOrAlias: 'c' }]), rule('b', [{ idOrAlias: 'c' }]), rule('c'));
  const walk = collectDependencies(ruleByAlias(resolver, 'root'), resolver);
  assert.deepEqual(walk.rules.map((r) => r.ruleAlias), ['c', 'a', 'b']);
  assert.deepEqual(walk.missing, []);
});

test('reports references the resolver does not know, once each, with the rule that makes them', () => {
  const resolver = new MapResolver().add(rule('root', [{ idOrAlias: 'gone', version: 3 }, { idOrAlias: 'gone', version: 3 }]));
  const root = ruleByAlias(resolver, 'root');
  assert.deepEqual(collectDependencies(root, resolver).missing, [{ idOrAlias: 'gone', version: 3, from: root }]);
});

test('a cycle is a RuleError naming the rules in order', () => {
  const resolver = new MapResolver().add(rule('a', [{ idOrAlias: 'b' }]), rule('b', [{ idOrAlias: 'c' }]), rule('c', [{ idOrAlias: 'a' }]));
  assert.throws(() => collectDependencies(ruleByAlias(resolver, 'a'), resolver), (error: unknown) => {
    assert.ok(error instanceof RuleError);
    assert.equal(error.message, 'rule cycle: a -> b -> c -> a');
    return true;
  });
  const self = new MapResolver().add(rule('self', [{ idOrAlias: 'self' }]));
  assert.throws(() => collectDependencies(ruleByAlias(self, 'self'), self), { message: 'rule cycle: self -> self' });
});

test('a new version calling an older version of the same rule is not a cycle', () => {
  const resolver = new MapResolver().add(rule('pricing', [{ idOrAlias: 'pricing', version: 1 }], 2), rule('pricing', [], 1));
  const walk = collectDependencies(resolver.resolve('pricing', 2)!, resolver);
  assert.deepEqual(walk.rules.map((r) => r.version), [1]);
});

test('a rule the resolver still has to load stops the walk with UnresolvedRuleError', () => {
  const resolver = {
    resolve: (idOrAlias: string, version: number | undefined) => {
      throw new UnresolvedRuleError(idOrAlias, version);
    },
  };
  assert.throws(() => collectDependencies(rule('root', [{ idOrAlias: 'later' }]), resolver), UnresolvedRuleError);
});

test('the fixture flows depend on the rules of their folders', () => {
  const order = fixtureResolver('order');
  const walk = collectDependencies(ruleByAlias(order, 'order-evaluation'), order);
  assert.deepEqual(walk.rules.map((r) => r.ruleAlias).sort(), ['loyalty-discount', 'product-catalogue']);
  const loan = fixtureResolver('loan');
  assert.deepEqual(collectDependencies(ruleByAlias(loan, 'loan-flow'), loan).rules.map((r) => r.ruleAlias).sort(), ['bank-solver', 'loan-clients', 'loan-type']);
});
