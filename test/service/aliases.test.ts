// Generated aliases (docs/decisions/aliases-chosen-by-users.md): the name's slug, suffixed -2, -3 only on a clash;
// an import gives each rule without an alias one alias for all its versions, and keeps the alias a rule has.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aliasSlug } from '../../src/rules/envelope.ts';
import { chooseMissingAliases, uniqueAlias } from '../../src/service/rules-io.ts';
import type { RuleHead } from '../../src/store/ports.ts';

const head = (ruleId: string, alias: string): RuleHead => ({ ruleId, alias }) as RuleHead;

describe('generated aliases', () => {
  test('the slug keeps lowercase letters, digits and hyphens, within 80 characters; "rule" when nothing is left', () => {
    assert.equal(aliasSlug('Discount tier'), 'discount-tier');
    assert.equal(aliasSlug('  Sample Rule_Flow (v2)!  '), 'sample-rule-flow-v2');
    assert.equal(aliasSlug('Émile’s  rule -- EU'), 'emiles-rule-eu');
    assert.equal(aliasSlug('***'), 'rule');
    assert.equal(aliasSlug(undefined), 'rule');
    const long = aliasSlug(`${'a'.repeat(79)} b`);
    assert.equal(long, 'a'.repeat(79), 'no trailing hyphen after the cut');
  });

  test('a suffix only when the slug is taken: the first free -2, -3, ...', () => {
    assert.equal(uniqueAlias('Discount tier', new Set()), 'discount-tier');
    assert.equal(uniqueAlias('Discount tier', new Set(['discount-tier'])), 'discount-tier-2');
    assert.equal(uniqueAlias('Discount tier', new Set(['discount-tier', 'discount-tier-2', 'discount-tier-4'])), 'discount-tier-3');
  });

  test('an import without aliases: one alias per rule, a rule of the space keeps its own, clashes get -2', () => {
    const documents: Record<string, unknown>[] = [
      { ruleId: 'a', version: 1, name: 'Sample Rule Flow', ruleAlias: '' },
      { ruleId: 'a', version: 2, name: 'Sample Rule Flow', ruleAlias: '' },
      { ruleId: 'b', version: 1, name: 'Sample Rule Flow', ruleAlias: '' },
      { ruleId: 'kept', version: 3, name: 'Renamed since', ruleAlias: '' },
      { ruleId: 'given', version: 1, name: 'Shipping', ruleAlias: 'shipping' },
      { ruleId: 'c', version: 1, name: 'Shipping', ruleAlias: '' },
    ];
    chooseMissingAliases([head('kept', 'old-alias'), head('x', 'sample-rule-flow')], documents);
    assert.deepEqual(documents.map((d) => d.ruleAlias), ['sample-rule-flow-2', 'sample-rule-flow-2', 'sample-rule-flow-3', 'old-alias', 'shipping', 'shipping-2']);
  });
});
