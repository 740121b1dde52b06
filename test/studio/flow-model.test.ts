// The flow designer's graph model (studio/src/flow/model): blank flows the server accepts, graph edits (add,
// connect, disconnect, delete, Switch cases), conversion to and from both flow formats, auto layout, problem
// placement and bench traces. Flows built here are validated and solved by the real engine; the DecisionRules
// exports in /work/shared are read in place and must survive a round trip through the graph unchanged.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { validateRuleDocument } from '../../src/rules/validate.ts';
import { readContainer } from '../../src/rules/containers.ts';
import { compileRule, solve } from '../../src/engine/index.ts';
import { addNode, connect, deleteNode, disconnect, nameProblem, renameNode, topologicalOrder, unconnectedNodes, wouldCycle } from '../../studio/src/flow/model/graph.ts';
import type { FlowGraph, GraphNode } from '../../studio/src/flow/model/graph.ts';
import { addSwitchCase, blankWorkflow, expressionTextOf, removeSwitchCase, storedExpression, workflowFormat } from '../../studio/src/flow/model/workflow.ts';
import { blankComposition, compositionFormat } from '../../studio/src/flow/model/composition.ts';
import { autoLayout, needsLayout, withLayout } from '../../studio/src/flow/model/layout.ts';
import { problemsByNode } from '../../studio/src/flow/model/problems.ts';
import { nodeResults } from '../../studio/src/flow/model/trace.ts';
import { diffFlows } from '../../studio/src/flow/model/diff.ts';
import { MapResolver } from '../flow/helpers.ts';
import { pricingTable } from './tables.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The shared DecisionRules exports, read in place when this machine has them (the main checkout's or a worktree's parent). */
const SHARED = [join(root, '../shared/fixtures/decisionrules'), join(root, '../../shared/fixtures/decisionrules')].find(existsSync);

/** Every flow in a directory's JSON files (single rules, rule arrays, folder exports). */
function flowsIn(dir: string): { file: string; doc: Record<string, any> }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).flatMap((file) => {
    const container = readContainer(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    return container.rules.map((r) => r.document as Record<string, any>).filter((d) => d.type === 'workflow' || d.type === 'composition').map((doc) => ({ file, doc }));
  });
}

/** The project's fixture flows (written without positions) and DecisionRules' own flows when they are here. */
const FIXTURE_FLOWS = [...flowsIn(join(root, 'test/fixtures/flows')), ...(SHARED ? flowsIn(SHARED) : [])];

function add(graph: FlowGraph, types: string[], format = workflowFormat): { graph: FlowGraph; nodes: GraphNode[] } {
  const nodes: GraphNode[] = [];
  for (const type of types) {
    const node = format.createNode(graph, type, { x: 0, y: 0 });
    graph = addNode(graph, node);
    nodes.push(node);
  }
  return { graph, nodes };
}

function link(graph: FlowGraph, from: GraphNode, to: GraphNode, portIndex = 0): FlowGraph {
  const out = from.ports.filter((p) => p.direction === 'out')[portIndex]!;
  const result = connect(graph, out.id, to.id);
  if ('error' in result) throw new Error(result.error);
  return result.graph;
}

describe('blank flows', () => {
  test('a new decision flow is its START node alone, valid and solvable', async () => {
    const doc = blankWorkflow('Orders');
    assert.deepEqual(validateRuleDocument(doc), []);
    assert.deepEqual(workflowFormat.fromDocument(doc).nodes.map((n) => n.type), ['START']);
    assert.deepEqual((await solve(compileRule(doc), { a: 1 })).result, [{}]);
  });

  test('a new rule flow is start connected to end, valid and solvable', async () => {
    const doc = blankComposition('Pricing flow');
    assert.deepEqual(validateRuleDocument(doc), []);
    const graph = compositionFormat.fromDocument(doc);
    assert.deepEqual(graph.nodes.map((n) => [n.type, n.name]), [['start', 'start'], ['end', 'end']]);
    assert.equal(graph.edges.length, 1);
    assert.deepEqual((await solve(compileRule(doc), {})).result, [{}]);
  });
});

describe('graph edits', () => {
  test('a decision flow built node by node validates and solves through the engine', async () => {
    let graph = workflowFormat.fromDocument(blankWorkflow('Discounts'));
    const start = graph.nodes[0]!;
    const added = add(graph, ['BUSINESS_RULE', 'DATA_MANIPULATION', 'END']);
    graph = added.graph;
    const [rule, assign, end] = added.nodes as [GraphNode, GraphNode, GraphNode];
    assert.deepEqual([rule.name, assign.name, end.name], ['rule', 'assign', 'end']);
    graph = link(graph, start, rule);
    graph = link(graph, rule, assign, 1); // "after": the business rule's out-end connector
    graph = link(graph, assign, end);
    graph = {
      ...graph,
      nodes: graph.nodes.map((n) => {
        if (n.id === rule.id) return { ...n, data: { ...n.data, rule: { ruleAlias: 'membership', version: 1, type: 'decision-table' }, strategy: 'FIRST_MATCH', mapping: [{ target: { path: 'customer.tier' }, source: { path: 'input.tier' } }, { target: { path: 'customer.age' }, source: { path: 'input.age' } }] } };
        if (n.id === assign.id) return { ...n, data: { mapping: [{ source: { expression: storedExpression('{rule.output.discount}') }, target: { path: 'output.discount' } }] } };
        return n;
      }),
    };
    const doc = workflowFormat.toDocument(blankWorkflow('Discounts'), graph);
    assert.deepEqual(validateRuleDocument(doc), []);
    assert.equal(doc.workflowData.connections.length, 3);
    const resolver = new MapResolver().add(compileRule({ ...pricingTable(), ruleAlias: 'membership', ruleId: 'membership-id', version: 1 }));
    const solved = await solve(compileRule(doc), { tier: 'gold', age: 40 }, { resolver, trace: true });
    assert.deepEqual(solved.result, [{ discount: 20 }]);

    const results = nodeResults('workflow', graph, solved.trace)!;
    assert.equal(results.get(rule.id)!.status, 'ran');
    assert.deepEqual(results.get(rule.id)!.runs[0]!.input, { customer: { tier: 'gold', age: 40 } });
    assert.deepEqual(results.get(rule.id)!.runs[0]!.output, { discount: 20, note: 'Gold member' });
    assert.equal(results.get(end.id)!.status, 'ran', 'an END after a node that ran ran too');
    assert.equal(results.get(start.id)!.status, 'ran');
  });

  test('connect refuses cycles, self-loops, duplicates and nodes without an input; disconnect and delete drop edges', () => {
    let graph = workflowFormat.fromDocument(blankWorkflow('Edits'));
    const start = graph.nodes[0]!;
    const added = add(graph, ['VARIABLES', 'DATA_MANIPULATION']);
    graph = added.graph;
    const [a, b] = added.nodes as [GraphNode, GraphNode];
    graph = link(graph, start, a);
    graph = link(graph, a, b);
    assert.ok(wouldCycle(graph, b.id, a.id));
    const outOf = (n: GraphNode) => n.ports.find((p) => p.direction === 'out')!.id;
    assert.match((connect(graph, outOf(b), a.id) as { error: string }).error, /cycle/);
    assert.match((connect(graph, outOf(a), a.id) as { error: string }).error, /cycle/);
    assert.match((connect(graph, outOf(a), b.id) as { error: string }).error, /already connected/);
    assert.match((connect(graph, outOf(a), start.id) as { error: string }).error, /no input/);
    assert.deepEqual(topologicalOrder(graph).map((n) => n.id), [start.id, a.id, b.id]);
    assert.deepEqual(unconnectedNodes(graph), []);
    assert.deepEqual(unconnectedNodes(disconnect(graph, graph.edges[0]!.id)).map((n) => n.id), [a.id, b.id], 'cut off from START: never run');
    const edge = graph.edges.find((e) => e.source === a.id)!;
    assert.equal(disconnect(graph, edge.id).edges.length, 1);
    const without = deleteNode(graph, a.id);
    assert.deepEqual(without.nodes.map((n) => n.id), [start.id, b.id]);
    assert.equal(without.edges.length, 0, 'edges touching a deleted node go with it');
  });

  test('node names: unique, identifier-like, not the flow\'s own variables', () => {
    let graph = workflowFormat.fromDocument(blankWorkflow('Names'));
    const added = add(graph, ['BUSINESS_RULE']);
    graph = added.graph;
    const [first] = added.nodes as [GraphNode];
    const second = add(graph, ['BUSINESS_RULE']).nodes[0]!;
    assert.equal(second.name, 'rule_1');
    assert.match(nameProblem(graph, second.id, 'rule')!, /already named/);
    assert.match(nameProblem(graph, first.id, 'two words')!, /letters, digits/);
    assert.match(nameProblem(graph, first.id, 'output', workflowFormat.reservedNames)!, /reserved/);
    assert.equal(nameProblem(graph, first.id, 'pricing'), undefined);
  });

  test('renaming a node rewrites the references to it: paths, expressions, conditions, rule-flow mapping sources', () => {
    const doc = blankWorkflow('Rename');
    let graph = workflowFormat.fromDocument(doc);
    const added = add(graph, ['BUSINESS_RULE', 'DATA_MANIPULATION', 'IF_STATEMENT']);
    graph = added.graph;
    const [rule, assign, sw] = added.nodes as [GraphNode, GraphNode, GraphNode];
    graph = {
      ...graph,
      nodes: graph.nodes.map((n) => {
        if (n.id === assign.id) {
          return { ...n, data: { mapping: [
            { source: { expression: storedExpression('{rule.output.a} + {rules.x} + { rule.output.b}') }, target: { path: 'output.a' } },
            { source: { expression: { type: 1, outputScalarValue: { type: 'function', value: { functionName: 'PLUS_CHAR', parameters: ['{rule.output.a}', '1'] }, stringValue: '{rule.output.a}+1' } } }, target: { path: 'rule_total' } },
          ] } };
        }
        if (n.id === sw.id) return { ...n, data: { ...n.data, cases: [{ ...n.data.cases[0], conditions: [{ variable: 'rule.output.ok', decisionNode: { type: 0, scalarCondition: { type: 'general', operator: '=', value: 'true' } } }] }, n.data.cases[1]] } };
        return n;
      }),
    };
    const renamed = renameNode(graph, rule.id, 'pricing', workflowFormat.renameReferences);
    const byId = (id: string) => renamed.nodes.find((n) => n.id === id)!;
    assert.equal(byId(rule.id).name, 'pricing');
    const mapping = byId(assign.id).data.mapping;
    assert.equal(expressionTextOf(mapping[0].source.expression), '{pricing.output.a} + {rules.x} + {pricing.output.b}');
    assert.equal(mapping[1].source.expression.outputScalarValue.value, '{pricing.output.a}+1', 'the stale AST gives way to the renamed text');
    assert.equal(mapping[1].target.path, 'rule_total', 'a name that merely starts the same is left alone');
    assert.equal(byId(sw.id).data.cases[0].conditions[0].variable, 'pricing.output.ok');
    assert.deepEqual(validateRuleDocument(workflowFormat.toDocument(doc, renamed)).filter((p) => !p.path.includes('data.rule')), []);

    let flow = compositionFormat.fromDocument(blankComposition('Rename'));
    const ruleNode = add(flow, ['rule'], compositionFormat);
    flow = ruleNode.graph;
    flow = { ...flow, nodes: flow.nodes.map((n) => (n.type === 'end' ? { ...n, data: { mapping: [{ key: 'x', source: 'Rule_1', sourceVariable: 'x' }, { key: 'y', source: 'start', sourceVariable: 'y' }] } } : n)) };
    const after = renameNode(flow, ruleNode.nodes[0]!.id, 'Pricing', compositionFormat.renameReferences);
    assert.deepEqual(after.nodes.find((n) => n.type === 'end')!.data.mapping.map((m: any) => m.source), ['Pricing', 'start']);
  });

  test('Switch cases: adding one adds its connector before Default; removing one drops its connections', () => {
    let graph = workflowFormat.fromDocument(blankWorkflow('Switch'));
    const added = add(graph, ['IF_STATEMENT', 'END']);
    graph = added.graph;
    const [sw, end] = added.nodes as [GraphNode, GraphNode];
    graph = addSwitchCase(graph, sw.id);
    const node = graph.nodes.find((n) => n.id === sw.id)!;
    assert.deepEqual(node.data.cases.map((c: any) => c.name), ['Case 1', 'Case 2', 'Default']);
    const caseTwo = node.data.cases[1].connectorId;
    assert.ok(node.ports.some((p) => p.id === caseTwo && p.subType === 'out-inner'));
    assert.equal(workflowFormat.portLabel(node, node.ports.find((p) => p.id === caseTwo)!), 'Case 2');
    const linked = connect(graph, caseTwo, end.id);
    assert.ok('graph' in linked);
    graph = removeSwitchCase(linked.graph, sw.id, caseTwo);
    assert.equal(graph.edges.length, 0);
    assert.equal(graph.nodes.find((n) => n.id === sw.id)!.ports.some((p) => p.id === caseTwo), false);
  });

  test('a rule flow built node by node keeps a node under each parent in the tree and solves', async () => {
    let graph = compositionFormat.fromDocument(blankComposition('Loans'));
    const [start, end] = graph.nodes as [GraphNode, GraphNode];
    graph = disconnect(graph, graph.edges[0]!.id);
    const added = add(graph, ['rule', 'rule'], compositionFormat);
    graph = added.graph;
    const [r1, r2] = added.nodes as [GraphNode, GraphNode];
    assert.deepEqual([r1.name, r2.name], ['Rule_1', 'Rule_2']);
    graph = link(graph, start, r1);
    graph = link(graph, start, r2);
    graph = link(graph, r1, end);
    graph = link(graph, r2, end);
    const mapping = [{ key: 'customer.tier', source: 'start', sourceVariable: 'tier' }, { key: 'customer.age', source: 'start', sourceVariable: 'age' }];
    graph = {
      ...graph,
      nodes: graph.nodes.map((n) => {
        if (n.type === 'rule') return { ...n, data: { baseId: 'membership-id', mapping } };
        if (n.type === 'end') return { ...n, data: { mapping: [{ key: 'first', source: 'Rule_1', sourceVariable: 'discount' }, { key: 'second', source: 'Rule_2', sourceVariable: 'note' }] } };
        return n;
      }),
    };
    const doc = compositionFormat.toDocument(blankComposition('Loans'), graph);
    assert.deepEqual(validateRuleDocument(doc), []);
    assert.deepEqual(doc.dataTree.children.map((c: any) => [c.globalVariable, c.children[0].globalVariable]), [['Rule_1', 'end'], ['Rule_2', 'end']]);
    const resolver = new MapResolver().add(compileRule({ ...pricingTable(), ruleAlias: 'membership', ruleId: 'membership-id', version: 1 }));
    const solved = await solve(compileRule(doc), { tier: 'silver', age: 30 }, { resolver, trace: true });
    assert.deepEqual(solved.result, [{ first: 10, second: 'Member' }]);
    const results = nodeResults('composition', graph, solved.trace)!;
    assert.deepEqual([...results.values()].map((r) => r.status), ['ran', 'ran', 'ran', 'ran']);
    assert.deepEqual(results.get(r2.id)!.runs[0]!.output, { discount: 10, note: 'Member' });

    // Read back from the document: the same nodes, names and edges (the end appears once, with two parents).
    const back = compositionFormat.fromDocument(doc);
    assert.deepEqual(back.nodes.map((n) => [n.id, n.type, n.name]), graph.nodes.map((n) => [n.id, n.type, n.name]));
    assert.deepEqual(back.edges.map((e) => `${e.source}->${e.target}`).sort(), graph.edges.map((e) => `${e.source}->${e.target}`).sort());
  });

  test('rewiring a rule flow through the document never loses a node or a connection outside the tree', () => {
    const doc = blankComposition('Rewire');
    const through = (g: FlowGraph) => compositionFormat.fromDocument(compositionFormat.toDocument(doc, g));
    let graph = compositionFormat.fromDocument(doc);
    const [start, end] = graph.nodes as [GraphNode, GraphNode];
    const added = add(graph, ['rule'], compositionFormat);
    const rule = added.nodes[0]!;
    graph = through(added.graph);
    graph = through(link(graph, rule, end));
    assert.deepEqual(graph.edges.map((e) => `${e.source}->${e.target}`).sort(), [`${rule.id}->${end.id}`, `${start.id}->${end.id}`].sort());
    graph = through(disconnect(graph, graph.edges.find((e) => e.source === start.id)!.id));
    assert.deepEqual(graph.nodes.map((n) => n.type), ['start', 'end', 'rule'], 'the end, cut off from the start, is still there');
    assert.deepEqual(unconnectedNodes(graph).map((n) => n.type).sort(), ['end', 'rule']);
    graph = through(link(graph, start, graph.nodes.find((n) => n.type === 'rule')!));
    assert.equal(graph.edges.length, 2);
    assert.deepEqual(unconnectedNodes(graph), []);
    const final = compositionFormat.toDocument(doc, graph);
    assert.deepEqual(final.dataTree.children.map((c: any) => [c.globalVariable, c.children[0].globalVariable]), [['Rule_1', 'end']]);
  });

  test('a rule node not connected to the start is kept in the layout, reported, and comes back', () => {
    let graph = compositionFormat.fromDocument(blankComposition('Loose'));
    const added = add(graph, ['rule'], compositionFormat);
    graph = added.graph;
    const [loose] = added.nodes as [GraphNode];
    graph = { ...graph, nodes: graph.nodes.map((n) => (n.id === loose.id ? { ...n, data: { baseId: 'x', version: 2, mapping: [{ key: 'a', source: 'start', sourceVariable: 'a' }] } } : n)) };
    assert.deepEqual(unconnectedNodes(graph).map((n) => n.id), [loose.id]);
    const doc = compositionFormat.toDocument(blankComposition('Loose'), graph);
    assert.deepEqual(validateRuleDocument(doc), []);
    const back = compositionFormat.fromDocument(doc).nodes.find((n) => n.name === loose.name)!;
    assert.deepEqual(back.data, { baseId: 'x', version: 2, mapping: [{ key: 'a', source: 'start', sourceVariable: 'a' }] });
  });
});

describe('expressions, problems and layout', () => {
  test('flow expressions read and write the stored form', () => {
    assert.equal(expressionTextOf(storedExpression('{a} + 1')), '{a} + 1');
    assert.equal(expressionTextOf({ type: 1, outputScalarValue: { type: 'function', value: { functionName: 'PLUS_CHAR', parameters: ['{a}', '1'] } } }), '{a}+1');
  });

  test('server problems land on the node their path names', () => {
    let graph = workflowFormat.fromDocument(blankWorkflow('Problems'));
    const added = add(graph, ['FOREACH']);
    graph = added.graph;
    const [each] = added.nodes as [GraphNode];
    graph = link(graph, graph.nodes[0]!, each);
    const doc = workflowFormat.toDocument(blankWorkflow('Problems'), graph);
    const problems = validateRuleDocument(doc);
    assert.deepEqual(problems.map((p) => p.path), ['workflowData.nodes[1].data.listPath']);
    const placed = problemsByNode(workflowFormat, doc, [...problems, { path: 'workflowData.connections[0].target', message: 'x' }, { path: 'name', message: 'y' }]);
    assert.deepEqual([...placed.keys()], [each.id, graph.nodes[0]!.id]);

    const flow = blankComposition('Tree problems');
    flow.dataTree.children[0].mapping = [{ key: 'a', source: 'nowhere' }];
    const treeProblems = validateRuleDocument(flow);
    assert.equal(treeProblems[0]!.path, 'dataTree.children[0].mapping[0].source');
    const end = compositionFormat.fromDocument(flow).nodes.find((n) => n.type === 'end')!;
    assert.deepEqual([...problemsByNode(compositionFormat, flow, [...treeProblems, { path: 'dataTree', message: 'the rule flow has no end node' }]).keys()], [end.id]);
  });

  test('two versions of a flow compare node by node and connection by connection', () => {
    const v1doc = blankWorkflow('Compare');
    let graph = workflowFormat.fromDocument(v1doc);
    const added = add(graph, ['BUSINESS_RULE', 'DATA_MANIPULATION']);
    graph = link(added.graph, graph.nodes[0]!, added.nodes[0]!);
    const v1 = workflowFormat.toDocument(v1doc, graph);
    const [rule, assign] = added.nodes as [GraphNode, GraphNode];
    let next = renameNode(graph, rule.id, 'pricing', workflowFormat.renameReferences);
    next = link(next, next.nodes.find((n) => n.id === rule.id)!, assign, 1);
    next = deleteNode(next, next.nodes[0]!.id);
    next = { ...next, nodes: next.nodes.map((n) => (n.id === assign.id ? { ...n, position: { x: 999, y: 1 } } : n)) };
    const v2 = { ...workflowFormat.toDocument(v1, next), inputSchema: { a: {} } };
    const found = diffFlows(workflowFormat, v1, v2).map((d) => `${d.kind} ${d.what} ${d.subject}${d.details.length ? `: ${d.details.join(', ')}` : ''}`);
    assert.deepEqual(found, [
      'changed model Input model: a',
      'changed node Business rule pricing: name: rule → pricing',
      'moved node Assign assign',
      'removed node Start',
      'added connection pricing (after) → assign',
      'removed connection Start → rule',
    ]);
    assert.deepEqual(diffFlows(workflowFormat, v1, v1), []);
  });

  test('auto layout places every node left to right in run order without overlaps', () => {
    let graph = workflowFormat.fromDocument(blankWorkflow('Layout'));
    const nodes: GraphNode[] = [graph.nodes[0]!];
    for (const type of ['BUSINESS_RULE', 'DATA_MANIPULATION', 'END']) {
      const added = add(graph, [type]);
      graph = added.graph;
      const node = added.nodes[0]!;
      graph = link(graph, nodes[nodes.length - 1]!, node, type === 'DATA_MANIPULATION' ? 1 : 0);
      nodes.push(node);
    }
    graph = { ...graph, nodes: graph.nodes.map((n) => ({ ...n, position: undefined })) };
    assert.ok(needsLayout(graph));
    const laid = withLayout(graph);
    const xs = nodes.map((n) => laid.nodes.find((m) => m.id === n.id)!.position!.x);
    assert.deepEqual([...xs].sort((a, b) => a - b), xs, 'each node right of the one before it');
    assert.equal(new Set(xs).size, xs.length);
    assert.equal(withLayout(laid), laid, 'a flow with positions is left as it is');
    assert.notEqual(autoLayout(laid), laid);
  });
});

describe('real flows: the project\'s fixtures and, when present, the DecisionRules exports in /work/shared', () => {
  test('there are decision flows and rule flows to read', () => {
    assert.ok(FIXTURE_FLOWS.some((f) => f.doc.type === 'workflow'));
    assert.ok(FIXTURE_FLOWS.some((f) => f.doc.type === 'composition'));
  });
  for (const { file, doc } of FIXTURE_FLOWS) {
    const format = doc.type === 'workflow' ? workflowFormat : compositionFormat;
    test(`${file} (${doc.name}) survives the graph unchanged`, () => {
      const graph = format.fromDocument(doc);
      assert.ok(graph.nodes.length >= 3);
      const back = format.toDocument(doc, graph);
      if (doc.type === 'workflow' || doc.visualEditorData) {
        assert.deepEqual(back, doc);
      } else {
        // A rule flow without a layout gains one; the tree the engine solves is the same.
        assert.deepEqual({ ...back, visualEditorData: undefined }, { ...doc, visualEditorData: undefined });
        assert.equal(Object.keys(back.visualEditorData.drawflow.Home.data).length, graph.nodes.length);
      }
    });
    test(`${file} (${doc.name}) laid out is still the same flow, drawn in run order`, () => {
      const graph = format.fromDocument(doc);
      const bare = { ...graph, nodes: graph.nodes.map((n) => ({ ...n, position: undefined })) };
      const laid = withLayout(bare);
      assert.ok(laid.nodes.every((n) => n.position !== undefined));
      const again = format.toDocument(doc, laid);
      assert.deepEqual(again.dataTree ?? again.workflowData.connections, doc.dataTree ?? doc.workflowData.connections);
      assert.deepEqual(validateRuleDocument(again), validateRuleDocument(doc));
      assert.deepEqual(format.fromDocument(again).edges.map((e) => e.id).sort(), graph.edges.map((e) => e.id).sort());
      for (const e of laid.edges) {
        const from = laid.nodes.find((n) => n.id === e.source)!.position!;
        const to = laid.nodes.find((n) => n.id === e.target)!.position!;
        assert.ok(from.x < to.x, `${e.source} left of ${e.target}`);
      }
    });
  }
});
