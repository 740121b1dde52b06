// Expression, switch, input/output and custom nodes of decision graphs, the walk (merge of several incoming
// nodes, `$nodes`, the first output node) and what a failing node reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RuleError, solve } from '../../src/engine/index.ts';
import { ZEN_NOW, chain, compileGraph, jdmNode } from './graph-helpers.ts';
import type { JdmFile } from './graph-helpers.ts';

const run = async (graph: JdmFile, input: unknown, trace = false) => solve(compileGraph(graph), input, { now: ZEN_NOW, trace });
const answer = async (graph: JdmFile, input: unknown): Promise<unknown> => (await run(graph, input)).result[0];

const expressionNode = (name: string, expressions: [string, string][], extra: Record<string, unknown> = {}) => ({
  type: 'expressionNode',
  name,
  content: { expressions: expressions.map(([key, value], i) => ({ id: `${name}-${i}`, key, value })), ...extra },
});

test('expressions run in order, each reading the earlier answers as $, written at dotted keys', async () => {
  const graph = chain(expressionNode('Calc', [['net', 'price * qty'], ['tax.rate', '0.2'], ['gross', '$.net * (1 + $.tax.rate)'], ['', 'ignored'], ['label', "`${qty} x ${price}`"]]));
  assert.deepEqual(await answer(graph, { price: 10, qty: 3 }), { net: 30, tax: { rate: 0.2 }, gross: 36, label: '3 x 10' });
});

test('an expression that fails stops the solve with a RuleError naming the node and the expression', async () => {
  const graph = chain(expressionNode('Calc', [['n', 'price * 2']]));
  await assert.rejects(run(graph, { price: 'ten' }), (error: unknown) => {
    assert.ok(error instanceof RuleError);
    assert.match(error.message, /node "Calc" \(expressionNode\): Failed to evaluate expression "price \* 2"/);
    return true;
  });
});

test('passThrough keeps the input; several incoming nodes merge, and $nodes reads any earlier node by name', async () => {
  const graph: JdmFile = {
    nodes: [
      jdmNode('inputNode', 'Request', {}),
      jdmNode('expressionNode', 'A', { expressions: [{ id: 'a', key: 'a', value: 'x + 1' }], passThrough: true }),
      jdmNode('expressionNode', 'B', { expressions: [{ id: 'b', key: 'b', value: 'x + 2' }] }),
      jdmNode('expressionNode', 'C', { expressions: [{ id: 'c', key: 'sum', value: 'a + b + $nodes.Request.x' }] }),
      jdmNode('outputNode', 'Response', {}),
    ],
    edges: [
      { id: '1', sourceId: 'Request', targetId: 'A' },
      { id: '2', sourceId: 'Request', targetId: 'B' },
      { id: '3', sourceId: 'A', targetId: 'C' },
      { id: '4', sourceId: 'B', targetId: 'C' },
      { id: '5', sourceId: 'C', targetId: 'Response' },
    ],
  };
  assert.deepEqual(await answer(graph, { x: 10 }), { sum: 33 });
});

const branching = (hitPolicy: 'first' | 'collect'): JdmFile => ({
  nodes: [
    jdmNode('inputNode', 'Request', {}),
    jdmNode('switchNode', 'Route', {
      hitPolicy,
      statements: [
        { id: 'big', condition: 'amount > 100' },
        { id: 'gb', condition: "country == 'GB'" },
        { id: 'else', condition: '' },
      ],
    }),
    jdmNode('expressionNode', 'Big', { expressions: [{ id: '1', key: 'big', value: 'true' }] }),
    jdmNode('expressionNode', 'Uk', { expressions: [{ id: '2', key: 'uk', value: 'true' }] }),
    jdmNode('expressionNode', 'Other', { expressions: [{ id: '3', key: 'other', value: 'true' }] }),
    jdmNode('outputNode', 'Response', {}),
  ],
  edges: [
    { id: '1', sourceId: 'Request', targetId: 'Route' },
    { id: '2', sourceId: 'Route', targetId: 'Big', sourceHandle: 'big' },
    { id: '3', sourceId: 'Route', targetId: 'Uk', sourceHandle: 'gb' },
    { id: '4', sourceId: 'Route', targetId: 'Other', sourceHandle: 'else' },
    { id: '5', sourceId: 'Big', targetId: 'Response' },
    { id: '6', sourceId: 'Uk', targetId: 'Response' },
    { id: '7', sourceId: 'Other', targetId: 'Response' },
  ],
});

test('a first switch follows the first true statement only; collect follows every true one', async () => {
  assert.deepEqual(await answer(branching('first'), { amount: 500, country: 'GB' }), { big: true });
  assert.deepEqual(await answer(branching('first'), { amount: 5, country: 'FR' }), { other: true });
  assert.deepEqual(await answer(branching('collect'), { amount: 500, country: 'GB' }), { big: true, uk: true, other: true });
  assert.deepEqual(await answer(branching('collect'), { amount: 5, country: 'GB' }), { uk: true, other: true });
});

test('the trace lists the switch with the statements it chose, and only the branches that ran', async () => {
  const { trace } = await run(branching('first'), { amount: 500 }, true);
  const entries = trace as { name: string; traceData?: unknown }[];
  assert.deepEqual(entries.map((t) => t.name), ['Request', 'Route', 'Big', 'Response']);
  assert.deepEqual(entries[1].traceData, { statements: [{ id: 'big' }] });
});

test("input and output nodes check their JSON schema (JSON text, as GoRules writes it): a mismatch names the node", async () => {
  const schema = JSON.stringify({ type: 'object', required: ['age'], properties: { age: { type: 'number', minimum: 0 } } });
  const graph = chain(expressionNode('Calc', [['adult', 'age >= 18']]));
  (graph.nodes[0] as { content: unknown }).content = { schema };
  (graph.nodes[2] as { content: unknown }).content = { schema: JSON.stringify({ type: 'object', required: ['adult'] }) };
  assert.deepEqual(await answer(graph, { age: 20 }), { adult: true });
  await assert.rejects(run(graph, { age: -1 }), /node "Request" \(inputNode\): the input does not match the node's JSON schema: \/age must be >= 0/);
  await assert.rejects(run(graph, {}), /must have required property 'age'/);
});

test('a custom node is a clear error naming it when reached; the graph still loads', async () => {
  const graph = chain({ type: 'customNode', name: 'Pricing', content: { kind: 'pricing-service', config: {} } });
  await assert.rejects(run(graph, {}), /node "Pricing" \(customNode\): custom nodes \(kind "pricing-service"\) are not supported/);
});

test('the walk stops at the first output node it reaches', async () => {
  const graph: JdmFile = {
    nodes: [
      jdmNode('inputNode', 'Request', {}),
      jdmNode('outputNode', 'Early', {}),
      jdmNode('expressionNode', 'Late', { expressions: [{ id: '1', key: 'late', value: 'true' }] }),
      jdmNode('outputNode', 'Final', {}),
    ],
    edges: [
      { id: '1', sourceId: 'Request', targetId: 'Early' },
      { id: '2', sourceId: 'Request', targetId: 'Late' },
      { id: '3', sourceId: 'Late', targetId: 'Final' },
    ],
  };
  const { result, trace } = await run(graph, { x: 1 }, true);
  assert.deepEqual(result, [{ x: 1 }]);
  assert.deepEqual((trace as { name: string }[]).map((t) => t.name), ['Request', 'Early']);
});
