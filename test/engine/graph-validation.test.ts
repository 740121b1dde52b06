// What is wrong with a decision-graph document, each problem with its JSON path: the JDM structure (src/rules),
// expressions that do not parse (src/engine/graph), and what still loads as zen loads it (table cells that do
// not parse are warnings and never match).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError, compileRule, solve } from '../../src/engine/index.ts';
import { validateRuleDocument } from '../../src/rules/validate.ts';
import { ZEN_NOW, chain, graphDocument, jdmNode, tableContent } from './graph-helpers.ts';

const problemsOf = (document: Record<string, unknown>) => validateRuleDocument(document).map((p) => `${p.path}: ${p.message}`);

test('a decision graph needs its decisionGraph with nodes and edges', () => {
  const { decisionGraph: _, ...bare } = graphDocument(chain());
  assert.deepEqual(problemsOf(bare), ['decisionGraph: is required for a decision graph ({"nodes": [...], "edges": [...]})']);
  assert.deepEqual(problemsOf({ ...bare, decisionGraph: { nodes: {}, edges: [] } }), ['decisionGraph.nodes: must be an array (got an object)']);
});

test('node kinds, contents, ids, edge ends and the single input node are checked, with paths', () => {
  const document = graphDocument({
    nodes: [
      jdmNode('inputNode', 'In', {}),
      jdmNode('inputNode', 'In2', {}),
      jdmNode('ruleNode', 'Odd', {}),
      jdmNode('decisionTableNode', 'T', { hitPolicy: 'any', inputs: [{ id: 'a' }], outputs: [{ id: 'b' }], rules: [{ a: 5 }] }),
      jdmNode('expressionNode', 'E', { expressions: [{ id: 'x', key: 'k' }] }),
      jdmNode('switchNode', 'S', { statements: [{ id: 's1', condition: 'true' }, { id: 's1', condition: '' }] }),
      jdmNode('decisionNode', 'D', { key: '' }),
      jdmNode('functionNode', 'F', { code: 'x' }),
      jdmNode('inputNode', 'In', { schema: '"text"' }),
    ],
    edges: [{ id: 'e1', sourceId: 'In', targetId: 'Nowhere' }],
  });
  assert.deepEqual(problemsOf(document), [
    'decisionGraph.nodes[2].type: unknown node type "ruleNode" (expected inputNode, outputNode, decisionTableNode, expressionNode, switchNode, decisionNode, functionNode or customNode)',
    'decisionGraph.nodes[3].content.hitPolicy: unknown hit policy "any" (expected first or collect)',
    'decisionGraph.nodes[3].content.outputs[0].field: is required (a string)',
    'decisionGraph.nodes[3].content.rules[0].a: a cell must be text (got a number)',
    'decisionGraph.nodes[4].content.expressions[0].value: is required (a string)',
    'decisionGraph.nodes[5].content.statements[1].id: duplicate id "s1"',
    'decisionGraph.nodes[6].content.key: must not be empty',
    'decisionGraph.nodes[7].content: must be the function\'s source: a string (v1) or {"source": "..."} (v2) (got an object)',
    'decisionGraph.nodes[8].id: duplicate node id "In"',
    'decisionGraph.nodes[8].content.schema: must be a JSON schema object (got a string)',
    'decisionGraph.nodes: a decision graph needs exactly one inputNode (found 3)',
    'decisionGraph.edges[0].targetId: no node has the id "Nowhere"',
  ]);
});

test('a cycle is a problem naming its nodes', () => {
  const graph = chain({ type: 'expressionNode', name: 'A', content: { expressions: [] } }, { type: 'expressionNode', name: 'B', content: { expressions: [] } });
  graph.edges.push({ id: 'back', sourceId: 'B', targetId: 'A' });
  assert.deepEqual(problemsOf(graphDocument(graph)), ['decisionGraph.edges: the graph has a cycle: "A" -> "B" -> "A"']);
});

test('an expression that does not parse is a ValidationError at its path; a table cell only a warning, never matching', async () => {
  const broken = chain({ type: 'expressionNode', name: 'E', content: { expressions: [{ id: 'x', key: 'k', value: 'a +' }] } });
  assert.throws(() => compileRule(graphDocument(broken)), (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.deepEqual(error.problems.map((p) => p.path), ['decisionGraph.nodes[1].content.expressions[0].value']);
    assert.match(error.problems[0].message, /expression "a \+" does not parse/);
    return true;
  });
  const table = chain({ type: 'decisionTableNode', name: 'T', content: tableContent('first', [null], ['y'], [['"RU", "NK"', '1'], ['', '2']]) });
  const rule = compileRule(graphDocument(table));
  assert.deepEqual(rule.warnings?.map((w) => w.path), ['decisionGraph.nodes[1].content.rules[0]["in0"]']);
  assert.deepEqual((await solve(rule, {}, { now: ZEN_NOW })).result, [{ y: 2 }]);
});

test('a valid graph keeps unknown JDM fields (round trip is the document itself)', () => {
  const graph = chain({ type: 'expressionNode', name: 'E', content: { expressions: [], editorState: { open: true } } });
  const document = graphDocument({ ...graph, settings: { validation: { inputs: { enabled: true } } } });
  assert.deepEqual(validateRuleDocument(document), []);
  const copy = structuredClone(document);
  compileRule(document);
  assert.deepEqual(document, copy, 'compiling leaves the document untouched');
});
