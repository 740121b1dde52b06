// GoRules JDM files on the command line (issue 30): `verdict solve`, `test`, `lint`, `import` take a JDM file as
// they take a DecisionRules file (format detected), a decision node finds another file by its file name in
// --rules DIR, and `verdict convert` goes table <-> JDM exactly or refuses with the reason.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withServices } from '../../src/server/one-shot.ts';
import { toVerdictTable } from '../../src/formats/decisionrules/table.ts';
import { sqliteBackend } from '../store/backends.ts';
import { removeTempDirs, runCli, runInProcess, tempDir } from './helpers.ts';

const DISCOUNTS = fileURLToPath(new URL('../conformance/zen/graphs/decision-table-discounts.json', import.meta.url));
const KIT = JSON.parse(readFileSync(DISCOUNTS, 'utf8')) as { tests: { input: unknown; output: unknown }[] };

after(() => removeTempDirs());

/** A graph whose decision node calls `child.json`, and the child: an expression doubling `n`. */
const CHILD = {
  contentType: 'application/vnd.gorules.decision',
  nodes: [
    { id: 'i', type: 'inputNode', name: 'in', position: { x: 0, y: 0 } },
    { id: 'e', type: 'expressionNode', name: 'double', position: { x: 1, y: 0 }, content: { expressions: [{ id: 'x', key: 'doubled', value: 'n * 2' }] } },
    { id: 'o', type: 'outputNode', name: 'out', position: { x: 2, y: 0 } },
  ],
  edges: [{ id: 'a', sourceId: 'i', targetId: 'e' }, { id: 'b', sourceId: 'e', targetId: 'o' }],
  tests: [{ input: { n: 4 }, output: { doubled: 8 } }, { input: { n: 1 }, output: { doubled: 3 } }],
};
const PARENT = {
  nodes: [
    { id: 'i', type: 'inputNode', name: 'in', position: { x: 0, y: 0 } },
    { id: 'd', type: 'decisionNode', name: 'call child', position: { x: 1, y: 0 }, content: { key: 'graphs/child.json' } },
    { id: 'o', type: 'outputNode', name: 'out', position: { x: 2, y: 0 } },
  ],
  edges: [{ id: 'a', sourceId: 'i', targetId: 'd' }, { id: 'b', sourceId: 'd', targetId: 'o' }],
};

test('verdict solve GRAPH.json INPUT.json answers [output]; a decision node finds child.json in --rules DIR', async () => {
  const dir = tempDir({ 'in.json': KIT.tests[0]!.input, 'n.json': { n: 21 }, 'parent.json': PARENT, 'graphs/child.json': CHILD });
  const solved = await runInProcess(['solve', DISCOUNTS, join(dir, 'in.json')]);
  assert.equal(solved.code, 0, solved.stderr);
  assert.deepEqual(JSON.parse(solved.stdout), [KIT.tests[0]!.output]);
  const called = await runInProcess(['solve', join(dir, 'parent.json'), join(dir, 'n.json'), '--rules', join(dir, 'graphs')]);
  assert.equal(called.code, 0, called.stderr);
  assert.deepEqual(JSON.parse(called.stdout), [{ doubled: 42 }]);
});

test('verdict test GRAPH.json runs the tests embedded in the JDM file', async () => {
  const kit = await runInProcess(['test', DISCOUNTS]);
  assert.equal(kit.code, 0, kit.stdout + kit.stderr);
  assert.match(kit.stdout, /JDM tests/);
  assert.match(kit.stdout, new RegExp(`${KIT.tests.length} passed, 0 failed`));
  const dir = tempDir({ 'child.json': CHILD });
  const failing = await runInProcess(['test', join(dir, 'child.json')]);
  assert.equal(failing.code, 1, failing.stdout);
  assert.match(failing.stdout, /1 passed, 1 failed/);
});

test('convert: table -> JDM -> table, exact; a cell without an exact counterpart exits 1 naming it', async () => {
  const table = toVerdictTable({
    name: 'Tier', hitPolicy: 'first', inputs: [{ field: 'amount' }], outputs: [{ field: 'tier' }],
    rows: [{ when: [{ op: 'ge', value: 100 }], then: [{ kind: 'lit', value: 'gold' }] }, { when: [{ op: 'between', lo: 0, hi: 99 }], then: [{ kind: 'ref', path: 'label' }] }],
  }, { ruleId: 'tier-id', ruleAlias: 'tier' });
  const inexact = { ...table, decisionTable: { ...(table.decisionTable as object), rows: [{ active: true, cells: [{ column: 'in-0', type: 'input', scalarCondition: { operator: 'containsText', value: 'x', type: 'general' } }, { column: 'out-0', type: 'output', outputScalarValue: { type: 'common', value: 'a' } }] }] } };
  const dir = tempDir({ 'tier.json': table, 'inexact.json': inexact });
  const jdmFile = join(dir, 'tier-graph.json');
  const toJdm = await runCli(['convert', join(dir, 'tier.json'), '--to', 'jdm', '--output', jdmFile]);
  assert.equal(toJdm.code, 0, toJdm.stderr);
  const jdm = JSON.parse(readFileSync(jdmFile, 'utf8'));
  assert.equal(jdm.contentType, 'application/vnd.gorules.decision');
  assert.deepEqual(jdm.nodes[1].content.rules.map((r: Record<string, string>) => [r['table-in-0'], r['table-out-0']]), [['>= 100', "'gold'"], ['[0..99]', 'label']]);
  const back = await runCli(['convert', jdmFile, '--to', 'decisionrules']);
  assert.equal(back.code, 0, back.stderr);
  assert.match(back.stderr, /hit policy is first: solve the table with X-Strategy FIRST_MATCH/);
  const table2 = JSON.parse(back.stdout);
  assert.equal(table2.type, 'decision-table');
  assert.deepEqual(table2.decisionTable.rows, (table.decisionTable as { rows: unknown }).rows);
  const refused = await runCli(['convert', join(dir, 'inexact.json'), '--to', 'jdm']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /cannot be converted to jdm exactly: decisionTable\.rows\[0\]\.cells\[0\]\.scalarCondition: operator "containsText" has no exact ZEN unary test/);
});

test('verdict lint analyses the tables of a graph; verdict import detects JDM and keeps its tests', async () => {
  const overlapping = toVerdictTable({
    name: 'Overlap', hitPolicy: 'collect', inputs: [{ field: 'n' }], outputs: [{ field: 'x' }],
    rows: [{ when: [{ op: 'between', lo: 1, hi: 5 }], then: [{ kind: 'lit', value: 1 }] }, { when: [{ op: 'ge', value: 3 }], then: [{ kind: 'lit', value: 2 }] }],
  });
  const dir = tempDir({ 'overlap.json': overlapping });
  const graphFile = join(dir, 'overlap-graph.json');
  assert.equal((await runCli(['convert', join(dir, 'overlap.json'), '--to', 'jdm', '--hit-policy', 'collect', '--output', graphFile])).code, 0);
  const lint = await runCli(['lint', graphFile, '--json']);
  assert.equal(lint.code, 0, lint.stderr);
  const report = JSON.parse(lint.stdout);
  assert.ok(report.findings.some((f: { kind: string; message: string }) => f.kind === 'overlap' && f.message.startsWith('table "Overlap" (hit policy collect): ')), lint.stdout);

  const backend = sqliteBackend();
  try {
    const childDir = tempDir({ 'child.json': CHILD });
    await withServices((services) => services.spaces.create('acme'), { DATABASE_URL: backend.url });
    const imported = await runCli(['import', join(childDir, 'child.json'), '--space', 'acme'], { env: { DATABASE_URL: backend.url } });
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^imported decision-graph child \(id [^)]+\) version 1: pending/);
    const suites = await withServices(async (services) => {
      const rule = await services.management.rules.get('acme', 'child', 1);
      return { type: rule.document.type, suites: (await services.ruleTests.listForRule('acme', 'child')).suites };
    }, { DATABASE_URL: backend.url });
    assert.equal(suites.type, 'decision-graph');
    assert.deepEqual(suites.suites.map((s) => [s.name, s.tests.map((t) => t.expected)]), [['JDM tests', [[{ doubled: 8 }], [{ doubled: 3 }]]]]);
  } finally {
    await backend.cleanup();
  }
});
