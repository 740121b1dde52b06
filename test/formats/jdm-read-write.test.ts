// Reading and writing JDM files (src/formats/jdm): detection, the document a file becomes, problems with paths,
// what Verdict cannot run, and the round trip of every graph of zen's kit (unknown fields included).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { detectFormat, readJdm, writeJdm } from '../../src/formats/jdm/index.ts';

const KIT = new URL('../conformance/zen/graphs/', import.meta.url);

test('detectFormat: nodes and edges without a type is JDM; rules, flows and other files are DecisionRules', () => {
  assert.equal(detectFormat({ nodes: [], edges: [] }), 'jdm');
  assert.equal(detectFormat({ contentType: 'application/vnd.gorules.decision', nodes: 'broken', edges: [] }), 'jdm');
  assert.equal(detectFormat({ type: 'workflow', nodes: [], edges: [] }), 'decisionrules');
  assert.equal(detectFormat({ type: 'decision-table' }), 'decisionrules');
  assert.equal(detectFormat([{ nodes: [], edges: [] }]), 'decisionrules');
  assert.equal(detectFormat({ nodes: [] }), 'decisionrules');
  assert.equal(detectFormat(null), 'decisionrules');
});

test('readJdm: the graph kept as written, the envelope from the file, the models from the schemas, the tests apart', () => {
  const file = {
    contentType: 'application/vnd.gorules.decision',
    nodes: [
      { id: 'i', type: 'inputNode', name: 'in', content: { schema: JSON.stringify({ type: 'object', properties: { customer: { type: 'object', properties: { age: { type: 'number' } } }, amount: { type: 'number' } } }) } },
      { id: 'c', type: 'customNode', name: 'webhook', content: { kind: 'http' } },
      { id: 'o', type: 'outputNode', name: 'out', content: { schema: '' } },
    ],
    edges: [{ id: 'e', sourceId: 'i', targetId: 'o', vendorField: 1 }],
    settings: { validation: { inputs: true } },
    extra: 'kept',
    tests: [{ input: { amount: 1 }, output: { ok: true } }],
  };
  const read = readJdm(file, { fileName: 'pricing/loan-approval.json' });
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.tests, [{ input: { amount: 1 }, output: { ok: true } }]);
  assert.deepEqual(read.unsupported, [{ path: 'decisionGraph.nodes[1]', reason: 'custom node "webhook" needs a handler of the GoRules host; solving the graph fails at this node' }]);
  assert.equal(read.document.type, 'decision-graph');
  assert.equal(read.document.name, 'loan-approval');
  assert.equal(read.document.ruleAlias, 'loan-approval');
  assert.equal(read.document.status, undefined);
  assert.deepEqual(read.document.inputSchema, { customer: { age: {} }, amount: {} });
  assert.deepEqual(read.document.outputSchema, {});
  assert.deepEqual(read.document.decisionGraph, { nodes: file.nodes, edges: file.edges, settings: file.settings, extra: 'kept' });
  assert.equal(readJdm(file, { name: 'Loans', fileName: 'x.json' }).document.ruleAlias, undefined, 'a given name makes no alias: the importer chooses it');
  const { tests: _tests, ...graphFile } = file;
  assert.deepEqual(writeJdm(read.document, read.tests), { ...graphFile, tests: file.tests });
});

test('readJdm: every problem with its path, nothing thrown', () => {
  assert.deepEqual(readJdm('x').problems.map((p) => p.path), ['']);
  const read = readJdm({ nodes: {}, edges: 3, contentType: 'text/plain', tests: [{ input: 1 }, 'x'] });
  assert.deepEqual(read.problems.map((p) => p.path), ['nodes', 'edges', 'contentType', 'tests[0]', 'tests[1]']);
  assert.deepEqual(readJdm({ nodes: [], edges: [], tests: {} }).problems.map((p) => p.path), ['tests']);
});

test('every graph of zen\'s kit reads without problems and writes back to the same file', () => {
  const files = readdirSync(KIT).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 80);
  for (const name of files) {
    const file = JSON.parse(readFileSync(new URL(name, KIT), 'utf8')) as Record<string, unknown>;
    const read = readJdm(file, { fileName: name });
    assert.deepEqual(read.problems, [], name);
    const { tests: _tests, contentType: _type, ...graph } = file;
    const written = writeJdm(read.document, read.tests);
    assert.deepEqual({ ...written, contentType: undefined, tests: undefined }, { ...graph, contentType: undefined, tests: undefined, nodes: graph.nodes, edges: graph.edges }, name);
    assert.deepEqual(written.tests ?? [], file.tests ?? [], name);
  }
});

test('writeJdm refuses what is not a decision graph, naming why', () => {
  assert.throws(() => writeJdm({ type: 'decision-tree' }), /type: a decision-tree is not a decision graph/);
});
