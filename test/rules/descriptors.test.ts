// One descriptor per rule type (src/rules/types/): every list of types derives from them, and every place that asks
// about a type (the validator, the engine's compilers and strategies, the CLI's choice of rule, the service's
// writes, the dependency graph) answers as the descriptor says.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FLOW_RULE_TYPES,
  RULE_TYPES,
  RULE_TYPE_DESCRIPTORS,
  SOLVABLE_RULE_TYPES,
  isFlowType,
  isRuleType,
  isSolvableType,
  ruleTypeDescriptorOf,
  strategiesOf,
} from '../../src/rules/rule-types.ts';
import { STRATEGIES } from '../../src/rules/strategies.ts';
import { RULE_COMPILERS, hasCompiler } from '../../src/engine/rule-types.ts';
import { compileRule, supportedStrategy, ValidationError } from '../../src/engine/index.ts';
import { selectRule } from '../../src/cli/solve-file.ts';
import { problemsOf } from '../../src/service/management/documents.ts';
import { readContainer } from '../../src/rules/containers.ts';
import { fixture, problems } from './helpers.ts';

test('every rule type has exactly one descriptor, and the lists are derived from them', () => {
  assert.deepEqual([...RULE_TYPES], RULE_TYPE_DESCRIPTORS.map((d) => d.type));
  assert.equal(new Set(RULE_TYPES).size, RULE_TYPES.length);
  assert.deepEqual(
    [...RULE_TYPES],
    ['decision-table', 'decision-tree', 'complex-rule', 'lookup-table', 'composition', 'workflow', 'integration-flow', 'decision-graph', 'dmn'],
  );
  for (const type of RULE_TYPES) {
    assert.ok(isRuleType(type));
    assert.equal(ruleTypeDescriptorOf(type)?.type, type);
    assert.ok(ruleTypeDescriptorOf(type)!.label.length > 0, `${type} has a label`);
  }
  assert.equal(isRuleType('spreadsheet'), false);
  assert.equal(ruleTypeDescriptorOf(42), undefined);
  assert.deepEqual([...SOLVABLE_RULE_TYPES], RULE_TYPES.filter((t) => t !== 'integration-flow'));
  assert.deepEqual([...FLOW_RULE_TYPES], ['composition', 'workflow', 'integration-flow', 'decision-graph']);
});

test('the engine has a compiler for each solvable type and none for the others', () => {
  assert.deepEqual(Object.keys(RULE_COMPILERS).sort(), [...SOLVABLE_RULE_TYPES].sort());
  for (const type of RULE_TYPES) assert.equal(hasCompiler(type), isSolvableType(type), type);
  assert.equal(hasCompiler('spreadsheet'), false);
});

test('an integration flow validates like a workflow but cannot be solved', () => {
  const body = { name: 'i', type: 'integration-flow', status: 'published', inputSchema: {}, outputSchema: {} };
  assert.ok(problems(body).some((p) => p.startsWith('workflowData: is required')), problems(body).join('\n'));
  const workflow = JSON.parse(readFileSync(new URL('../fixtures/flows/segmentation/segmentation-flow.json', import.meta.url), 'utf8'));
  assert.deepEqual(problems(workflow), []);
  const integration = { ...workflow, type: 'integration-flow' };
  assert.deepEqual(problems(integration), []);
  assert.throws(() => compileRule(integration), (err: unknown) => err instanceof ValidationError && /"integration-flow" cannot be solved/.test(err.message));
});

test('each type applies the strategies its descriptor names; others fall back to STANDARD', () => {
  assert.deepEqual([...strategiesOf('decision-table')], [...STRATEGIES]);
  for (const type of RULE_TYPES) {
    for (const strategy of STRATEGIES) {
      const expected = ruleTypeDescriptorOf(type)!.strategies.includes(strategy) ? strategy : 'STANDARD';
      assert.equal(supportedStrategy(type, strategy), expected, `${type} ${strategy}`);
    }
  }
  assert.equal(supportedStrategy('decision-tree', 'ARRAY'), 'ARRAY');
  assert.equal(supportedStrategy('workflow', 'ARRAY'), 'STANDARD');
  assert.equal(supportedStrategy('spreadsheet', 'ARRAY'), 'STANDARD');
});

test('the body of a document is checked by its type descriptor', () => {
  const script = { name: 's', type: 'complex-rule', status: 'published', inputSchema: {}, outputSchema: {} };
  assert.ok(problems(script).includes('script: is required for a scripting rule (JavaScript source as a string)'));
  assert.deepEqual(problems(fixture('pricing-table.json')), []);
  assert.deepEqual(problems(fixture('shipping-tree.json')), []);
  assert.deepEqual(problems(fixture('banks-lookup.json')), []);
});

test('flows are the types whose nodes call rules', () => {
  for (const type of RULE_TYPES) {
    const descriptor = ruleTypeDescriptorOf(type)!;
    assert.equal(isFlowType(type), descriptor.flow);
    assert.equal(descriptor.references === 'nodes', descriptor.flow, type);
  }
  assert.equal(isFlowType('decision-table'), false);
});

test('the service stores an unsolvable type without compiling it; a solvable one is compiled', () => {
  let compiled = 0;
  const compile = (doc: Record<string, unknown>) => {
    compiled++;
    return compileRule(doc);
  };
  const flow = { name: 'i', type: 'integration-flow', status: 'published', inputSchema: {}, outputSchema: {}, nodes: [] };
  const flowProblems = problems(flow);
  assert.deepEqual(problemsOf(flow, compile), validateShape(flowProblems));
  assert.equal(compiled, 0);
  assert.deepEqual(problemsOf(fixture('pricing-table.json'), compile), []);
  assert.equal(compiled, 1);
});

function validateShape(lines: string[]): { path: string; message: string }[] {
  return lines.map((line) => {
    const at = line.indexOf(': ');
    return { path: line.slice(0, at), message: line.slice(at + 2) };
  });
}

test('verdict solve picks the only solvable rule of a folder export holding an integration flow too', () => {
  const folder = fixture('regions-folder-export.json');
  const rules = folder.export.data.rules as Record<string, unknown>[];
  const kept = rules.filter((rule) => rule.type === 'decision-table').slice(0, 1);
  assert.equal(kept.length, 1);
  const flow = { name: 'Nightly export', type: 'integration-flow', status: 'published', ruleId: 'flow-1', version: 1, inputSchema: {}, outputSchema: {} };
  folder.export.data.rules = [flow, ...kept];
  const container = readContainer(folder);
  assert.equal(container.kind, 'folder');
  assert.equal(selectRule(container, 'rules.json', undefined).document.type, 'decision-table');
});
