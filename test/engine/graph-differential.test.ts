// Differential property test: randomly generated decision graphs (seeded, reproducible) solved by
// @gorules/zen-engine and by Verdict must answer the same. Graphs: decision tables (first / collect, `field[]`
// collect columns, unary cells with comparisons, ranges and lists, full-expression cells, output expressions),
// switch nodes (first / collect) choosing expression branches, and chains of expression nodes reading `$`. Some
// tables are large and mostly literal, so that the column index answers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ZenEngine } from '@gorules/zen-engine';
import { solve } from '../../src/engine/index.ts';
import { ZEN_NOW, compileGraph } from './graph-helpers.ts';
import type { JdmFile } from './graph-helpers.ts';

const SEED = 30_2026;
const GRAPHS = 200;
const INPUTS_PER_GRAPH = 4;

/** mulberry32: small, seeded, good enough to pick shapes. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)];

const WORDS = ['GB', 'US', 'FR', 'DE'];
const NUMBER_FIELDS = ['a', 'b', 'customer.age'];

function numberCell(r: Rand): string {
  const n = int(r, 0, 20);
  const m = n + int(r, 0, 10);
  return pick(r, [
    '',
    `> ${n}`,
    `< ${n}`,
    `>= ${n}`,
    `<= ${n}`,
    `${n}`,
    `[${n}..${m}]`,
    `(${n}..${m})`,
    `[${n}..${m})`,
    `${n}, ${m}`,
    `> ${n} and < ${m}`,
    `$ * 2 > ${m}`,
  ]);
}

function wordCell(r: Rand): string {
  return pick(r, ['', `'${pick(r, WORDS)}'`, `'${pick(r, WORDS)}', '${pick(r, WORDS)}'`, `not('${pick(r, WORDS)}')`, `startsWith($, '${pick(r, WORDS)[0]}')`]);
}

function outputCell(r: Rand): string {
  return pick(r, ['', `${int(r, 0, 100)}`, `'${pick(r, WORDS)}'`, 'a + 1', 'b * 2', `a > b`, `country + '-x'`, `[a, b]`, `{ "n": a }`, `customer.age - ${int(r, 0, 5)}`, 'true']);
}

let nextId = 0;
const id = (prefix: string): string => `${prefix}-${nextId++}`;

interface Node {
  id: string;
  name: string;
  type: string;
  content?: unknown;
  position: { x: number; y: number };
}

function node(type: string, content: unknown, name = id(type)): Node {
  return { id: id('n'), name, type, content, position: { x: 0, y: 0 } };
}

/** A literal cell, as large tables mostly hold (the column index of src/engine/graph/nodes/table-index.ts). */
function literalCell(r: Rand, kind: 'number' | 'word'): string {
  if (r() < 0.15) return '';
  if (kind === 'word') return r() < 0.7 ? `'${pick(r, WORDS)}'` : `'${pick(r, WORDS)}', '${pick(r, WORDS)}'`;
  return r() < 0.8 ? `${int(r, 0, 25)}` : numberCell(r);
}

function table(r: Rand, large = r() < 0.15): Node {
  const columns = Array.from({ length: int(r, 1, 3) }, () => {
    const kind = r();
    if (kind < 0.2) return { id: id('i'), name: 'expr', kind: 'expression' as const };
    if (kind < 0.45) return { id: id('i'), name: 'country', field: 'country', kind: 'word' as const };
    return { id: id('i'), name: 'n', field: pick(r, NUMBER_FIELDS), kind: 'number' as const };
  });
  // No `field[]` collect columns: zen-engine 0.54 on npm predates them (it writes a key named "hits[]"); the
  // conformance kit and test/engine/graph-table.test.ts cover them.
  const outputs = Array.from({ length: int(r, 1, 3) }, (_, i) => ({ id: id('o'), name: `out${i}`, field: pick(r, [`out${i}`, `result.out${i}`]) }));
  const rules = Array.from({ length: large ? int(r, 32, 80) : int(r, 1, 6) }, () => {
    const row: Record<string, string> = { _id: id('r') };
    for (const column of columns) {
      if (large && column.kind !== 'expression') row[column.id] = literalCell(r, column.kind);
      else row[column.id] = column.kind === 'number' ? numberCell(r) : column.kind === 'word' ? wordCell(r) : pick(r, ['', `a > ${int(r, 0, 20)}`, `country == '${pick(r, WORDS)}'`, 'b < a']);
    }
    for (const output of outputs) row[output.id] = outputCell(r);
    return row;
  });
  return node('decisionTableNode', {
    hitPolicy: pick(r, ['first', 'collect']),
    inputs: columns.map(({ id, name, field }) => (field ? { id, name, field } : { id, name })),
    outputs,
    rules,
    passThrough: r() < 0.3,
    inputField: null,
    outputPath: r() < 0.2 ? 'table' : null,
    executionMode: 'single',
  });
}

function expressions(r: Rand, passThrough = r() < 0.5): Node {
  const all = [
    { key: 'sum', value: 'a + b' },
    { key: 'double', value: '$.sum * 2' },
    { key: 'label', value: `country + '/' + string(a)` },
    { key: 'big', value: `a > ${int(r, 0, 20)} ? 'yes' : 'no'` },
    { key: 'nested.value', value: 'max([a, b, customer.age])' },
    { key: 'list', value: 'map([a, b], # + 1)' },
    { key: 'some', value: `some([a, b], # > ${int(r, 0, 20)})` },
    { key: 'ratio', value: `b / ${int(r, 1, 8)}` },
    { key: 'upperCountry', value: 'upper(country)' },
  ];
  const chosen = all.filter(() => r() < 0.5);
  const list = chosen.length > 0 ? chosen : [all[0]];
  return node('expressionNode', { expressions: list.map((e) => ({ id: id('e'), ...e })), passThrough, inputField: null, outputPath: null, executionMode: 'single' });
}

/** input -> (table | expressions | switch to branches) -> output. */
function graph(r: Rand): JdmFile {
  const input = node('inputNode', {}, 'Request');
  const output = node('outputNode', {}, 'Response');
  const nodes: Node[] = [input, output];
  const edges: { id: string; sourceId: string; targetId: string; sourceHandle?: string }[] = [];
  const link = (from: Node, to: Node, sourceHandle?: string): void => {
    edges.push(sourceHandle === undefined ? { id: id('e'), sourceId: from.id, targetId: to.id } : { id: id('e'), sourceId: from.id, targetId: to.id, sourceHandle });
  };
  const shape = r();
  if (shape < 0.45) {
    const t = table(r);
    nodes.push(t);
    link(input, t);
    link(t, output);
  } else if (shape < 0.7) {
    const first = expressions(r, r() < 0.8);
    const second = expressions(r);
    nodes.push(first, second);
    link(input, first);
    link(first, second);
    link(second, output);
  } else {
    const statements = Array.from({ length: int(r, 1, 3) }, () => ({
      id: id('s'),
      condition: pick(r, ['', `a > ${int(r, 0, 20)}`, `country == '${pick(r, WORDS)}'`, `b <= ${int(r, 0, 20)}`]),
    }));
    const sw = node('switchNode', { hitPolicy: pick(r, ['first', 'collect']), statements });
    nodes.push(sw);
    link(input, sw);
    for (const statement of statements) {
      const branch = r() < 0.5 ? expressions(r) : table(r);
      nodes.push(branch);
      link(sw, branch, statement.id);
      link(branch, output);
    }
  }
  return { nodes, edges };
}

function input(r: Rand): Record<string, unknown> {
  return { a: int(r, 0, 25), b: int(r, 0, 25), country: pick(r, WORDS), customer: { age: int(r, 0, 30) } };
}

/**
 * A node's input without its top-level nulls: zen-engine 0.54 merges a node's incoming outputs into an empty
 * object (dropping nulls), zen at 6c0fbab (which Verdict follows) starts from the first incoming output as it is.
 * Expressions read a null and a missing key alike, so only the trace shows the difference.
 */
function withoutNulls(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/** zen-engine's trace (an object by node id, with `order`) as Verdict's: an array in execution order. */
function zenTrace(trace: unknown): unknown[] {
  return (Object.values(trace as Record<string, { order: number }>) as { order: number; id: string; name: string; input: unknown; output: unknown; traceData?: unknown }[])
    .sort((a, b) => a.order - b.order)
    .map(({ id, name, input, output, traceData }) => ({ id, name, input: withoutNulls(input), output, traceData: traceData ?? undefined }));
}

function verdictTrace(trace: unknown[] | undefined): unknown[] {
  return (trace as { id: string; name: string; input: unknown; output: unknown; traceData?: unknown }[]).map(({ id, name, input, output, traceData }) => ({ id, name, input: withoutNulls(input), output, traceData }));
}

test('differential: random tables, switches and expressions answer and trace as @gorules/zen-engine does', async (t) => {
  const zen = new ZenEngine();
  t.after(() => zen.dispose());
  const r = random(SEED);
  let cases = 0;
  let errors = 0;
  const differences: string[] = [];
  for (let g = 0; g < GRAPHS; g++) {
    const jdm = graph(r);
    const verdict = compileGraph(jdm, `g${g}`);
    const decision = zen.createDecision(jdm);
    for (let i = 0; i < INPUTS_PER_GRAPH; i++) {
      const data = input(r);
      // A node error (an expression node adding null) must be an error on both sides. The trace too must be
      // zen's: the same nodes in the same order, with the same inputs, outputs and trace data.
      const expected = await decision.evaluate(data, { trace: true }).then((answer) => [answer.result, zenTrace(answer.trace)], () => 'error');
      const actual = await solve(verdict, data, { now: ZEN_NOW, trace: true }).then((answer) => [answer.result[0], verdictTrace(answer.trace)], () => 'error');
      // Without a trace the walk may merge passThrough answers in place: the answer must not change.
      const before = JSON.stringify(data);
      const plain = await solve(verdict, data, { now: ZEN_NOW }).then((answer) => answer.result[0], () => 'error');
      assert.equal(JSON.stringify(data), before, 'a solve leaves its input as it was');
      cases++;
      if (expected === 'error') errors++;
      try {
        assert.deepStrictEqual(actual, expected);
        assert.deepStrictEqual(plain, expected === 'error' ? expected : expected[0]);
      } catch {
        differences.push(`graph ${g} input ${JSON.stringify(data)}: zen ${JSON.stringify(expected)}, Verdict ${JSON.stringify(actual)}\n${JSON.stringify(jdm)}`);
      }
    }
  }
  console.log(`differential: ${cases} cases on ${GRAPHS} graphs, ${cases - differences.length} equal (${errors} errors on both sides)`);
  assert.ok(cases > 0);
  assert.ok(errors < cases / 4, 'most cases answer rather than fail');
  assert.deepEqual(differences.slice(0, 3), [], `${differences.length} of ${cases} answers differ`);
});

/**
 * A large table whose columns repeat a few cells in every row, as zen's 8k table does: each column's cells come
 * from a pool of at most six texts (comparisons, ranges, lists, function cells, empty), so the group index of
 * src/engine/graph/nodes/table-index.ts answers for them.
 */
function repeatedTable(r: Rand): Node {
  const columns = Array.from({ length: int(r, 1, 4) }, () =>
    r() < 0.35 ? { id: id('i'), name: 'country', field: 'country', kind: 'word' as const } : { id: id('i'), name: 'n', field: pick(r, NUMBER_FIELDS), kind: 'number' as const },
  );
  const pools = columns.map((column) => Array.from({ length: int(r, 1, 6) }, () => (column.kind === 'number' ? numberCell(r) : wordCell(r))));
  const outputs = Array.from({ length: int(r, 1, 2) }, (_, i) => ({ id: id('o'), name: `out${i}`, field: `out${i}` }));
  const rules = Array.from({ length: int(r, 32, 100) }, () => {
    const row: Record<string, string> = { _id: id('r') };
    columns.forEach((column, c) => (row[column.id] = pick(r, pools[c])));
    for (const output of outputs) row[output.id] = outputCell(r);
    return row;
  });
  return node('decisionTableNode', {
    hitPolicy: pick(r, ['first', 'collect']),
    inputs: columns.map(({ id, name, field }) => ({ id, name, field })),
    outputs,
    rules,
    passThrough: r() < 0.3,
    inputField: null,
    outputPath: null,
    executionMode: 'single',
  });
}

test('differential: large tables repeating a few cells per column answer and trace as @gorules/zen-engine does', async (t) => {
  const zen = new ZenEngine();
  t.after(() => zen.dispose());
  const r = random(SEED + 1);
  let cases = 0;
  let matched = 0;
  const differences: string[] = [];
  for (let g = 0; g < 60; g++) {
    const input0 = node('inputNode', {}, 'Request');
    const output = node('outputNode', {}, 'Response');
    const t0 = repeatedTable(r);
    const jdm: JdmFile = { nodes: [input0, t0, output], edges: [{ id: id('e'), sourceId: input0.id, targetId: t0.id }, { id: id('e'), sourceId: t0.id, targetId: output.id }] };
    const verdict = compileGraph(jdm, `repeated${g}`);
    const decision = zen.createDecision(jdm);
    for (let i = 0; i < 6; i++) {
      const data = input(r);
      const expected = await decision.evaluate(data, { trace: true }).then((answer) => [answer.result, zenTrace(answer.trace)], () => 'error');
      const actual = await solve(verdict, data, { now: ZEN_NOW, trace: true }).then((answer) => [answer.result[0], verdictTrace(answer.trace)], () => 'error');
      const plain = await solve(verdict, data, { now: ZEN_NOW }).then((answer) => answer.result[0], () => 'error');
      cases++;
      if (Array.isArray(expected) && (expected[1] as { traceData?: unknown }[]).some((n) => n.traceData)) matched++;
      try {
        assert.deepStrictEqual(actual, expected);
        assert.deepStrictEqual(plain, Array.isArray(expected) ? expected[0] : expected);
      } catch {
        differences.push(`graph ${g} input ${JSON.stringify(data)}: zen ${JSON.stringify(expected)}, Verdict ${JSON.stringify(actual)}\n${JSON.stringify(jdm)}`);
      }
    }
  }
  console.log(`differential (repeated cells): ${cases} cases, ${cases - differences.length} equal, ${matched} with a matching row`);
  assert.ok(matched > cases / 4, 'many inputs match a row');
  assert.deepEqual(differences.slice(0, 3), [], `${differences.length} of ${cases} answers differ`);
});
