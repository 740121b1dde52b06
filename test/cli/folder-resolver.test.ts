import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RuleError } from '../../src/engine/errors.ts';
import { solveSync } from '../../src/engine/index.ts';
import type { CompiledRule } from '../../src/engine/types.ts';
import { InputError } from '../../src/cli/errors.ts';
import { FolderResolver, loadRulesDirectory } from '../../src/cli/folder-resolver.ts';
import { readContainer } from '../../src/rules/containers.ts';
import { readFixture, removeTempDirs, tempDir } from './helpers.ts';

after(removeTempDirs);

const BANKS_ID = '5c0d9e7a-1b2c-4d3e-8f90-a1b2c3d4e503';

/** A bank directory whose ALPSATWW row says `country`, so tests can tell versions apart by their answer. */
function bankVersion(version: number, status: 'published' | 'pending', country: string): any {
  const doc = readFixture('banks-lookup.json');
  doc.version = version;
  doc.status = status;
  doc.data.ALPSATWW.country = country;
  return doc;
}

function country(rule: CompiledRule | undefined): unknown {
  assert.ok(rule, 'rule resolved');
  return (solveSync(rule, { primaryKey: 'ALPSATWW', outputColumn: 'Country' }, { now: 0 }).result[0] as { output: unknown }).output;
}

function resolverWith(...docs: any[]): FolderResolver {
  const resolver = new FolderResolver();
  docs.forEach((doc, i) => resolver.add(doc, `doc${i}.json`));
  return resolver;
}

test('resolves by ruleId, baseId or alias; without a version, the latest published version', () => {
  const resolver = resolverWith(bankVersion(1, 'published', 'v1'), bankVersion(3, 'pending', 'v3'), bankVersion(2, 'published', 'v2'));
  assert.equal(country(resolver.resolve(BANKS_ID, undefined)), 'v2');
  assert.equal(country(resolver.resolve('bank-directory', undefined)), 'v2');
  assert.equal(country(resolver.resolve('bank-directory', 3)), 'v3');
  assert.equal(country(resolver.resolve(BANKS_ID, 1)), 'v1');
});

test('unknown rules, unknown versions and rules with no published version resolve to undefined', () => {
  const resolver = resolverWith(bankVersion(1, 'pending', 'v1'));
  assert.equal(resolver.resolve('no-such-rule', undefined), undefined);
  assert.equal(resolver.resolve(BANKS_ID, 7), undefined);
  assert.equal(resolver.resolve(BANKS_ID, undefined), undefined);
  assert.equal(country(resolver.resolve(BANKS_ID, 1)), 'v1');
});

test('a rule known only by ruleId is found by that id (rule-flow exports carry no baseId)', () => {
  const doc = bankVersion(1, 'published', 'AT');
  delete doc.baseId;
  delete doc.ruleAlias;
  assert.equal(country(resolverWith(doc).resolve(BANKS_ID, undefined)), 'AT');
});

test('an alias used by two different rules is ambiguous: a RuleError naming both files', () => {
  const other = { ...bankVersion(1, 'published', 'x'), ruleId: 'other-id', baseId: 'other-id' };
  const resolver = resolverWith(bankVersion(1, 'published', 'AT'), other);
  assert.throws(() => resolver.resolve('bank-directory', undefined), (error: unknown) => {
    assert.ok(error instanceof RuleError);
    assert.equal(error.message, 'alias "bank-directory" is not unique: 2 rules use it (doc0.json, doc1.json)');
    return true;
  });
  assert.equal(country(resolver.resolve('other-id', undefined)), 'x');
});

test('the first copy of a rule version wins; compiled rules are cached', () => {
  const resolver = resolverWith(bankVersion(1, 'published', 'first'), bankVersion(1, 'published', 'second'));
  const rule = resolver.resolve(BANKS_ID, 1);
  assert.equal(country(rule), 'first');
  assert.equal(resolver.resolve('bank-directory', undefined), rule);
});

test('a dependency that does not compile is a RuleError naming the rule and its file', () => {
  const broken = bankVersion(1, 'published', 'AT');
  broken.primaryKeyColumn = 'swift';
  const resolver = new FolderResolver();
  resolver.add(broken, 'rules/banks.json');
  assert.throws(() => resolver.resolve('bank-directory', undefined), (error: unknown) => {
    assert.ok(error instanceof RuleError);
    assert.equal(
      error.message,
      'rule "Bank Directory" (alias bank-directory, version 1) from rules/banks.json cannot be compiled: primaryKeyColumn: names no column: "swift" is not the alias of any column',
    );
    return true;
  });
});

test('containers add every rule they hold, and types() lists their types', () => {
  const resolver = new FolderResolver();
  resolver.addContainer(readContainer(readFixture('regions-folder-export.json')), 'regions.json');
  assert.deepEqual([...resolver.types()].sort(), ['decision-table', 'lookup-table', 'workflow']);
  assert.equal(country(resolver.resolve('bank-directory', undefined)), 'AT');
});

test('loadRulesDirectory reads every .json file below the directory, in any container form', async () => {
  const dir = tempDir({
    'banks.json': bankVersion(2, 'published', 'v2'),
    'nested/deeper/flow.json': readFixture('pricing-flow-export.json'),
    'nested/regions.json': readFixture('regions-folder-export.json'),
    'notes.txt': 'not a rule',
  });
  const resolver = new FolderResolver();
  assert.equal(await loadRulesDirectory(dir, resolver), 3);
  assert.equal(country(resolver.resolve('bank-directory', undefined)), 'v2');
  assert.deepEqual([...resolver.types()].sort(), ['composition', 'decision-table', 'lookup-table', 'workflow']);
});

test('loadRulesDirectory failures are InputErrors naming the directory or file', async () => {
  const resolver = new FolderResolver();
  await assert.rejects(loadRulesDirectory(join(tempDir(), 'missing'), resolver), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.match(error.message, /^cannot read rules directory .*missing: no such file or directory$/);
    return true;
  });
  const dir = tempDir({ 'a.json': '{"name": ' });
  await assert.rejects(loadRulesDirectory(dir, resolver), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.match(error.message, /a\.json is not valid JSON: /);
    return true;
  });
});
