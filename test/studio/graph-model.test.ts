// The Studio's decision graph model (studio/src/graph/model): JDM graphs as the flow canvas's graph and back
// unchanged (zen's conformance graphs too, when they are in the checkout), switch statements as ports, a table
// node's content in the grid and back, problems and bench traces placed on nodes, rows and cells, and the ZEN
// mode of the expression editor finding syntax errors. Pure TypeScript: no browser, no server.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { addNode, connect, renameNode, unconnectedNodes } from '../../studio/src/flow/model/graph.ts';
import { problemsByNode, pathInNode } from '../../studio/src/flow/model/problems.ts';
import { nodeResults, portTaken } from '../../studio/src/flow/model/trace.ts';
import { diffFlows } from '../../studio/src/flow/model/diff.ts';
import { addStatement, blankDecisionGraph, decisionGraphFormat, removeStatement, tableInputPaths } from '../../studio/src/graph/model/jdm.ts';
import { blockText, gridToTable, matchedRows, tableProblems, tableToGrid, writeBlock } from '../../studio/src/graph/model/table.ts';
import { zenFunctionNames, zenMethodNames, zenProblems, zenTokens } from '../../studio/src/graph/model/zen.ts';
import { addColumn, deleteColumn, insertRows, setCellValue, tableOf } from '../../studio/src/designer/model/table.ts';
import { shippingGraph } from './graphs.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ZEN_GRAPHS = join(root, 'test/conformance/zen/graphs');

const format = decisionGraphFormat;

describe('decision graphs in the flow canvas', () => {
  test('a graph reads into nodes, ports and edges and writes back unchanged, unknown fields included', () => {
    const doc = shippingGraph();
    doc.decisionGraph.nodes[1].extraField = { kept: true };
    doc.decisionGraph.edges[0].label = 'kept';
    const graph = format.fromDocument(doc);
    assert.equal(graph.nodes.length, 5);
    assert.equal(graph.edges.length, 5);
    const fork = graph.nodes.find((n) => n.type === 'switchNode')!;
    assert.deepEqual(fork.ports.map((p) => format.portLabel(fork, p)), ['in', 'case 1', 'case 2 (else)']);
    assert.equal(graph.nodes.find((n) => n.type === 'inputNode')!.ports.some((p) => p.direction === 'in'), false);
    assert.equal(graph.nodes.find((n) => n.type === 'outputNode')!.ports.some((p) => p.direction === 'out'), false);
    assert.deepEqual(format.toDocument(doc, graph), doc);
  });

  test("zen's conformance graphs (and their tables in the grid) round-trip unchanged", { skip: !existsSync(ZEN_GRAPHS) && 'no vendored zen graphs in this checkout' }, () => {
    const files = readdirSync(ZEN_GRAPHS).filter((f) => f.endsWith('.json'));
    assert.ok(files.length > 50);
    for (const file of files) {
      const jdm = JSON.parse(readFileSync(join(ZEN_GRAPHS, file), 'utf8'));
      const doc = { type: 'decision-graph', name: file, decisionGraph: { nodes: jdm.nodes, edges: jdm.edges } };
      const graph = format.fromDocument(doc);
      assert.equal(graph.unplaced, undefined, `${file}: every edge is placed`);
      assert.deepEqual(format.toDocument(doc, graph), doc, file);
      for (const node of jdm.nodes.filter((n: any) => n.type === 'decisionTableNode')) {
        assert.deepEqual(gridToTable(node.content, tableToGrid(node.content)), node.content, `${file}: table ${node.name}`);
      }
    }
  });

  test('a blank graph connects request to response; nodes added are named as GoRules names them and connect', () => {
    const doc = blankDecisionGraph('New graph');
    assert.equal(doc.type, 'decision-graph');
    let graph = format.fromDocument(doc);
    assert.deepEqual(graph.nodes.map((n) => n.name), ['request', 'response']);
    assert.deepEqual(unconnectedNodes(graph, format.startType), []);
    const table = format.createNode(graph, 'decisionTableNode', { x: 240, y: 0 });
    graph = addNode(graph, table);
    assert.equal(table.name, 'decisionTable1');
    assert.deepEqual(unconnectedNodes(graph, format.startType).map((n) => n.name), ['decisionTable1']);
    const linked = connect(graph, `${graph.nodes[0]!.id}:out`, table.id);
    assert.ok('graph' in linked);
    const written = format.toDocument(doc, linked.graph);
    assert.deepEqual(written.decisionGraph.edges.at(-1), { type: 'edge', id: linked.edge.id, sourceId: graph.nodes[0]!.id, targetId: table.id });
    assert.equal(format.createNode(addNode(graph, format.createNode(graph, 'expressionNode', { x: 0, y: 0 })), 'expressionNode', { x: 0, y: 0 }).name, 'expression2');
  });

  test('switch statements are ports: an added one goes before the else; a removed one takes its edges', () => {
    const doc = shippingGraph();
    let graph = format.fromDocument(doc);
    const fork = graph.nodes.find((n) => n.type === 'switchNode')!;
    graph = addStatement(graph, fork.id);
    const statements = graph.nodes.find((n) => n.id === fork.id)!.data.statements;
    assert.equal(statements.length, 3);
    assert.equal(statements[2].isDefault, true, 'the else stays last');
    const written = format.toDocument(doc, graph);
    assert.equal(written.decisionGraph.edges.filter((e: any) => e.sourceId === fork.id).length, 2);
    const first = statements[0].id;
    graph = removeStatement(graph, fork.id, first);
    const after = format.toDocument(doc, graph);
    assert.equal(after.decisionGraph.edges.some((e: any) => e.sourceHandle === first), false);
    assert.equal(after.decisionGraph.nodes.find((n: any) => n.id === fork.id).content.statements.length, 2);
  });

  test('renaming a node rewrites $nodes references to it; names are labels, not identifiers', () => {
    const doc = shippingGraph();
    let graph = format.fromDocument(doc);
    const table = graph.nodes.find((n) => n.type === 'decisionTableNode')!;
    const expression = graph.nodes.find((n) => n.type === 'expressionNode')!;
    graph = { ...graph, nodes: graph.nodes.map((n) => (n.id === expression.id ? { ...n, data: { expressions: [{ id: 'x', key: 'fee', value: '$nodes.fees.fee * 2' }] } } : n)) };
    graph = renameNode(graph, table.id, 'shipping fees', format.renameReferences);
    assert.equal(graph.nodes.find((n) => n.id === expression.id)!.data.expressions[0].value, '$nodes["shipping fees"].fee * 2');
    assert.equal(format.nameSyntax!('shipping fees'), undefined);
    assert.match(format.nameSyntax!(' ')!, /needs a name/);
  });

  test('problems land on their node; a bench trace (array or zen object) marks the nodes that ran', () => {
    const doc = shippingGraph();
    const graph = format.fromDocument(doc);
    const table = doc.decisionGraph.nodes[1];
    const byNode = problemsByNode(format, doc, [{ path: 'decisionGraph.nodes[1].content.rules[0].country', message: 'bad' }, { path: 'name', message: 'x' }]);
    assert.deepEqual([...byNode.keys()], [table.id]);
    assert.equal(pathInNode('decisionGraph.nodes[1].content.rules[0].country'), 'content.rules[0].country');
    const trace = [
      { id: doc.decisionGraph.nodes[0].id, name: 'request', type: 'inputNode', input: null, output: { country: 'CZ' } },
      { id: table.id, name: 'fees', type: 'decisionTableNode', input: { country: 'CZ' }, output: { fee: 5 }, performance: '0.1ms', traceData: { index: 0, rule: { _id: 'r1' } } },
    ];
    for (const shape of [trace, Object.fromEntries(trace.map((t) => [t.id, t])), [trace]]) {
      const results = nodeResults('decision-graph', graph, shape)!;
      assert.deepEqual(graph.nodes.map((n) => results.get(n.id)!.status), ['ran', 'ran', 'not-run', 'not-run', 'not-run']);
      assert.deepEqual(results.get(table.id)!.runs[0]!.traceData, { index: 0, rule: { _id: 'r1' } });
    }
    // A switch's trace names the statements it took: only their ports carried the run on.
    const fork = graph.nodes.find((n) => n.type === 'switchNode')!;
    const took = nodeResults('decision-graph', graph, [{ id: 'fork', name: 'fork', type: 'switchNode', input: {}, output: {}, traceData: { statements: [{ id: 's1' }] } }])!;
    assert.deepEqual(fork.ports.filter((p) => p.direction === 'out').map((p) => portTaken(fork, p.id, took.get('fork'))), [true, false]);
  });

  test('versions compare node by node: a changed cell, an added node', () => {
    const left = shippingGraph();
    const right = shippingGraph();
    right.decisionGraph.nodes[1].content.rules[0].fee = '7';
    const graph = format.fromDocument(right);
    const added = format.toDocument(right, addNode(graph, format.createNode(graph, 'functionNode', { x: 0, y: 400 })));
    const differences = diffFlows(format, left, added);
    assert.deepEqual(differences.map((d) => `${d.kind} ${d.subject} ${d.details.join(',')}`), ['changed Decision table fees data.rules', 'added Function function1 ']);
  });
});

describe("a table node's content in the grid", () => {
  test("the bench's form offers the paths the tables test", () => {
    const doc = shippingGraph();
    doc.decisionGraph.nodes[1].content.inputs.push({ id: 'x', name: 'Expr', field: 'len(items)' }, { id: 'y', name: 'Tier', field: 'customer.tier' }, { id: 'z', name: 'Whole' });
    assert.deepEqual(tableInputPaths(doc), ['country', 'customer.tier']);
  });

  test('reads inputs and outputs as columns and rules as rows, and writes back unchanged', () => {
    const content = shippingGraph().decisionGraph.nodes[1].content;
    const grid = tableToGrid(content);
    const { columns, rows } = tableOf(grid);
    assert.deepEqual(columns.map((c: any) => c.type), ['input', 'output']);
    assert.deepEqual(blockText(grid, { top: 0, bottom: 1, left: 0, right: 1 }), [['"CZ"', '5'], ['', '12']]);
    assert.equal(rows.length, 2);
    assert.deepEqual(gridToTable(content, grid), content);
  });

  test('cell edits, new rows and columns, a deleted column: the content follows, _id and unknown fields kept', () => {
    const content = { ...shippingGraph().decisionGraph.nodes[1].content, passThrough: true };
    content.rules[0]._description = 'Czech';
    let grid = tableToGrid(content);
    grid = setCellValue(grid, 1, 0, '"SK", "PL"');
    grid = insertRows(grid, 2, 1);
    grid = writeBlock(grid, { row: 2, col: 0 }, [['"DE"', '9']]);
    const added = addColumn(grid, 'output', { name: 'Days', binding: 'days' });
    grid = setCellValue(added.rule, 0, added.index, '2');
    const written = gridToTable(content, grid);
    assert.equal(written.passThrough, true);
    assert.equal(written.rules[0]._description, 'Czech');
    assert.equal(written.rules[1].country, '"SK", "PL"');
    assert.equal(typeof written.rules[2]._id, 'string');
    assert.equal(written.rules[2].country, '"DE"');
    const days = written.outputs[1];
    assert.deepEqual({ name: days.name, field: days.field }, { name: 'Days', field: 'days' });
    assert.equal(written.rules[0][days.id], '2');
    const dropped = gridToTable(content, deleteColumn(grid, 0));
    assert.deepEqual(dropped.inputs, []);
    assert.equal('country' in dropped.rules[0], false);
  });

  test("the server's problems land on cells, rows and columns; a trace's hit marks its row", () => {
    const content = shippingGraph().decisionGraph.nodes[1].content;
    const index = tableProblems(content, [
      { path: 'decisionGraph.nodes[1].content.rules[1].fee', message: 'not a number' },
      { path: 'decisionGraph.nodes[1].content.rules[0]', message: 'row' },
      { path: 'decisionGraph.nodes[1].content.outputs[0].field', message: 'no field' },
      { path: 'decisionGraph.nodes[1].content.hitPolicy', message: 'policy' },
    ], pathInNode);
    assert.deepEqual([...index.cells], [['1:1', ['not a number']]]);
    assert.deepEqual([...index.rows], [[0, ['row']]]);
    assert.deepEqual([...index.columns], [[1, ['no field']]]);
    assert.equal(index.other.length, 1);
    assert.deepEqual([...matchedRows(content, { index: 0, rule: { _id: 'r2' } }).matched], [1], 'by _id first');
    assert.deepEqual([...matchedRows(content, [{ index: 0 }, { index: 1 }]).matched], [0, 1], 'collect: every hit');
  });
});

describe('ZEN in the expression editor', () => {
  test('syntax errors are found with their place; valid unary tests and expressions pass', () => {
    assert.deepEqual(zenProblems('> 5', true), []);
    assert.deepEqual(zenProblems('"gold", "silver"', true), []);
    assert.deepEqual(zenProblems('[1..10]', true), []);
    assert.deepEqual(zenProblems('', true), []);
    assert.deepEqual(zenProblems('map(items, # * 2)', false), []);
    const [problem] = zenProblems('price * (2 +', false);
    assert.ok(problem, 'an unclosed bracket is a problem');
    assert.doesNotMatch(problem.message, /of 'price/);
    assert.equal(zenProblems("'open", false).length, 1);
    assert.deepEqual(zenTokens('price > 5 and tier == "gold"').map((t) => t.type), ['variable', 'operator', 'number', 'keyword', 'variable', 'operator', 'string']);
    for (const name of ['len', 'map', 'filter', 'd', 'sum']) assert.ok(zenFunctionNames().includes(name), `${name} is completed`);
    assert.ok(zenMethodNames().includes('add'));
  });
});
