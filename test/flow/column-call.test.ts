// Flow nodes that give a table its column values instead of an input object (flow/column-call.ts): which mappings
// qualify, and a differential test on random tables, mappings and inputs: the untraced solve (column values where
// they qualify, and a decision flow made of rule nodes and Assigns run as a chain: workflow.ts chainOf) answers
// exactly as the traced one, which always builds the node inputs and walks the flow's regions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRule, solve, solveSync } from '../../src/engine/index.ts';
import { createContext } from '../../src/engine/context.ts';
import type { CompiledRule } from '../../src/engine/types.ts';
import { parsePath } from '../../src/engine/path.ts';
import { columnSources } from '../../src/engine/flow/column-call.ts';
import { toVerdictTable } from '../../bench/lib/to-verdict.ts';
import { any, intBetween, lit, pick, seededRandom } from '../../bench/lib/table-spec.ts';
import type { Condition, TableSpec } from '../../bench/lib/table-spec.ts';
import { MapResolver } from './helpers.ts';

const paths = (...texts: string[]) => texts.map(parsePath);

describe('columnSources', () => {
  test('each column path takes the mapping that writes exactly it; unmapped paths are missing (-1)', () => {
    assert.deepEqual(columnSources([['a', 'b'], ['c']], paths('c', 'x.y', 'a.b') as string[][]), [2, 0]);
    assert.deepEqual(columnSources([['a', 'b'], ['z']], paths('a.c') as string[][]), [-1, -1]);
  });
  test('a target above or below a column path, two targets on one path, or an index segment: the input object is needed', () => {
    assert.equal(columnSources([['a', 'b']], paths('a')), undefined);
    assert.equal(columnSources([['a', 'b']], paths('a.b.c')), undefined);
    assert.equal(columnSources([['a', 'b']], paths('a.b', 'a.b')), undefined);
    assert.equal(columnSources([['a']], paths('x[0]')), undefined);
    assert.equal(columnSources([['a']], [[]]), undefined);
  });
});

const COLUMN_PATHS = ['a', 'b.c', 'b.d', 'e.f.g', 'h'];
const TARGET_PATHS = [...COLUMN_PATHS, 'b', 'e.f', 'e.f.g.h', 'z'];
const INPUT_PATHS = ['a', 'b', 'b.c', 'b.d', 'e.f.g', 'h', 'k', 'missing'];
const VALUES = [0, 1, 2, 3, 'p', 'q', null, true, { c: 1, d: 'p' }, [1, 2]];

function randomCondition(random: () => number): Condition {
  switch (intBetween(random, 0, 4)) {
    case 0: return any();
    case 1: return { op: 'eq', value: pick(random, [0, 1, 2, 'p', 'q']) };
    case 2: return { op: 'in', values: [pick(random, [0, 1, 'p']), pick(random, [2, 3, 'q'])] };
    case 3: return { op: 'ge', value: intBetween(random, 0, 3) };
    default: return { op: 'between', lo: 0, hi: intBetween(random, 0, 3) };
  }
}

function randomTable(random: () => number, name: string): TableSpec {
  const inputs = Array.from({ length: intBetween(random, 1, 3) }, () => ({ field: pick(random, COLUMN_PATHS) }));
  return {
    name,
    hitPolicy: random() < 0.5 ? 'first' : 'collect',
    inputs,
    outputs: [{ field: 'x' }, { field: 'y.z' }],
    rows: Array.from({ length: intBetween(random, 1, 5) }, (_, r) => ({
      when: inputs.map(() => randomCondition(random)),
      then: [lit(r), lit(`${name}-${r}`)],
    })),
  };
}

function randomInput(random: () => number): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (let i = intBetween(random, 0, 5); i > 0; i--) {
    const [head, ...rest] = pick(random, INPUT_PATHS).split('.');
    let at = input;
    for (const key of [head!, ...rest].slice(0, -1)) {
      if (at[key] === null || typeof at[key] !== 'object' || Array.isArray(at[key])) at[key] = {};
      at = at[key] as Record<string, unknown>;
    }
    at[[head!, ...rest].at(-1)!] = structuredClone(pick(random, VALUES));
  }
  return input;
}

/** Mapping target -> source path (in the flow input, or `x` of the first node's output for the second node). */
function randomMappings(random: () => number, second: boolean): { target: string; source: string; fromFirst: boolean }[] {
  return Array.from({ length: intBetween(random, 0, 4) }, () => {
    const fromFirst = second && random() < 0.3;
    return { target: pick(random, TARGET_PATHS), source: fromFirst ? 'x' : pick(random, INPUT_PATHS), fromFirst };
  });
}

/** Some output cells of `y.z` become JSON objects (a simple value holding JSON is cast on output). */
function withObjectOutputs(doc: Record<string, unknown>, random: () => number): Record<string, unknown> {
  const rows = (doc.decisionTable as { rows: { cells: { column: string; outputScalarValue?: { value: string } }[] }[] }).rows;
  rows.forEach((row, r) => {
    const cell = row.cells.find((c) => c.column === 'out-1');
    if (cell?.outputScalarValue && random() < 0.4) cell.outputScalarValue.value = JSON.stringify({ k: [r, { m: r }] });
  });
  return doc;
}

/** Changes every value inside `value` in place (objects and arrays at every depth). */
function scribble(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== null && typeof inner === 'object') scribble(inner);
    else (value as Record<string, unknown>)[key] = 'changed';
  }
  if (Array.isArray(value)) value.push('added');
  else (value as Record<string, unknown>).added = true;
}

function decisionFlow(maps: ReturnType<typeof randomMappings>[], strategies: string[]): CompiledRule {
  const connector = (id: string, type: string, subType = 'none') => ({ id, type, subType });
  const nodes: Record<string, unknown>[] = [{ id: 'start', type: 'START', connectors: [connector('start-out', 'out')] }];
  const connections: Record<string, unknown>[] = [];
  let previous = 'start-out';
  maps.forEach((mapping, i) => {
    nodes.push({
      id: `n${i}`, type: 'BUSINESS_RULE', name: `rule${i}`,
      connectors: [connector(`n${i}-in`, 'in'), connector(`n${i}-loop`, 'out', 'outgoing-loop'), connector(`n${i}-end`, 'out', 'out-end')],
      data: {
        rule: { ruleAlias: `t${i}` }, strategy: strategies[i], evaluationType: 'STATIC',
        mapping: mapping.map((m) => ({ target: { path: m.target }, source: { path: m.fromFirst ? `rule0.output.${m.source}` : `input.${m.source}` } })),
      },
    });
    connections.push({ source: previous, target: `n${i}-in` });
    previous = `n${i}-end`;
  });
  const expression = (text: string) => ({ type: 1, outputScalarValue: { type: 'function', value: text, stringValue: text } });
  nodes.push({
    id: 'assign', type: 'DATA_MANIPULATION', name: 'assign', connectors: [connector('assign-in', 'in'), connector('assign-out', 'out')],
    // The whole node object too: its output and the state its loop left (length, currentItem, index).
    data: { mapping: maps.flatMap((_, i) => [
      { source: { expression: expression(`{rule${i}.output}`) }, target: { path: `output.r${i}` } },
      { source: { expression: expression(`{rule${i}}`) }, target: { path: `output.n${i}` } },
    ]) },
  });
  nodes.push({ id: 'end', type: 'END', connectors: [connector('end-in', 'in')] });
  connections.push({ source: previous, target: 'assign-in' }, { source: 'assign-out', target: 'end-in' });
  return compileRule({ type: 'workflow', name: 'Differential', status: 'published', inputSchema: {}, outputSchema: {}, workflowData: { nodes, connections } });
}

function ruleFlow(maps: ReturnType<typeof randomMappings>[]): CompiledRule {
  const end = { globalVariable: 'end', mapping: maps.flatMap((_, i) => [{ key: `r${i}x`, source: `rule${i}`, sourceVariable: 'x' }, { key: `r${i}y`, source: `rule${i}`, sourceVariable: 'y' }]), children: [null] };
  let child: Record<string, unknown> = end;
  for (let i = maps.length - 1; i >= 0; i--) {
    child = {
      baseId: `t${i}`, globalVariable: `rule${i}`, children: [child],
      mapping: maps[i]!.map((m) => ({ key: m.target, source: m.fromFirst ? 'rule0' : 'start', sourceVariable: m.source })),
    };
  }
  return compileRule({ type: 'composition', name: 'Differential', status: 'published', inputSchema: {}, outputSchema: {}, dataTree: { globalVariable: 'start', mapping: [], children: [child] } });
}

describe('flows: column values against the built node input (differential)', () => {
  test('random tables, mappings and inputs: untraced and traced solves answer the same', async () => {
    const random = seededRandom(2024);
    let columnCalls = 0;
    let objectAnswers = 0;
    for (let flow = 0; flow < 150; flow++) {
      const tables = [randomTable(random, 't0'), randomTable(random, 't1')].map((spec, i) => compileRule(withObjectOutputs(toVerdictTable(spec, { ruleId: `t${i}`, ruleAlias: `t${i}` }), random)));
      const resolver = new MapResolver().add(...tables);
      const maps = [randomMappings(random, false), randomMappings(random, true)];
      const compiled = [decisionFlow(maps, [pick(random, ['FIRST_MATCH', 'STANDARD']), pick(random, ['FIRST_MATCH', 'STANDARD'])]), ruleFlow(maps)];
      for (const [i, table] of tables.entries()) {
        if (table.columnInput && columnSources(table.columnInput.paths, maps[i]!.map((m) => parsePath(m.target)))) columnCalls++;
      }
      for (let k = 0; k < 8; k++) {
        const input = randomInput(random);
        for (const rule of compiled) {
          const fast = await solve(rule, input, { resolver, now: 0 });
          const general = await solve(rule, input, { resolver, now: 0, trace: true });
          assert.deepEqual(fast.result, general.result, `${rule.type} ${JSON.stringify({ maps, input })}`);
          if (JSON.stringify(fast.result).includes('"k":')) objectAnswers++;
          // The answer is the caller's: changing it in place changes nothing the next solve gives (a first-match
          // table's row output is shared between solves inside the flow, never handed out).
          scribble(fast.result);
          assert.deepEqual((await solve(rule, input, { resolver, now: 0 })).result, general.result, `${rule.type} after changing an answer`);
        }
      }
    }
    // The column path was taken for most nodes (the rest build their input).
    assert.ok(columnCalls > 100, `column values used by ${columnCalls} nodes`);
    assert.ok(objectAnswers > 100, `answers holding a table's object output: ${objectAnswers}`);
  });
});

describe('ColumnInput.firstMatch (differential)', () => {
  test('random tables, small and indexed: the first match of the column values is the FIRST_MATCH answer, frozen and shared', () => {
    const random = seededRandom(77);
    let indexed = 0;
    for (let t = 0; t < 60; t++) {
      const spec = randomTable(random, `f${t}`);
      spec.rows = Array.from({ length: intBetween(random, 1, t % 2 === 0 ? 6 : 48) }, (_, r) => ({
        when: spec.inputs.map(() => randomCondition(random)),
        then: [lit(r), lit(`f-${r}`)],
      }));
      const table = compileRule(withObjectOutputs(toVerdictTable(spec, { ruleId: 'f', ruleAlias: 'f' }), random)) as CompiledRule & { indexed?: boolean };
      if (table.indexed) indexed++;
      const columns = table.columnInput!;
      for (let k = 0; k < 20; k++) {
        const input = randomInput(random);
        const values = columns.paths.map((path) => path.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), input));
        const expected = solveSync(table, input, { strategy: 'FIRST_MATCH', now: 0 }).result[0];
        const ctx = createContext({ now: 0 });
        const first = columns.firstMatch(values, ctx);
        assert.deepEqual(first, expected, JSON.stringify({ spec, input }));
        if (first !== undefined) {
          assert.ok(Object.isFrozen(first));
          assert.equal(columns.firstMatch(values, ctx), first, 'the same row gives the same shared object');
        }
      }
    }
    assert.ok(indexed > 10, `indexed tables: ${indexed}`);
  });
});
