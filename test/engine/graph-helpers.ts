// Test helpers for decision graphs: a JDM graph (as GoRules writes it) wrapped in Verdict's rule document, and a
// resolver over a map of compiled rules.
import { compileRule } from '../../src/engine/index.ts';
import type { CompiledRule, RuleResolver } from '../../src/engine/index.ts';

/** zen's graph harness fixes the clock here (issue 30). */
export const ZEN_NOW = Date.parse('2025-08-19T16:55:02.078Z');

export interface JdmFile {
  nodes: unknown[];
  edges: unknown[];
  settings?: Record<string, unknown>;
  tests?: { input: unknown; output: unknown }[];
  [key: string]: unknown;
}

/** The `decision-graph` rule document of a JDM graph. */
export function graphDocument(jdm: JdmFile, name = 'graph', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { nodes, edges, settings } = jdm;
  return {
    type: 'decision-graph',
    name,
    status: 'published',
    inputSchema: {},
    outputSchema: {},
    decisionGraph: settings === undefined ? { nodes, edges } : { nodes, edges, settings },
    ...extra,
  };
}

export function compileGraph(jdm: JdmFile, name = 'graph', extra: Record<string, unknown> = {}): CompiledRule {
  return compileRule(graphDocument(jdm, name, extra));
}

/** A resolver over rules by alias (and id). */
export function mapResolver(rules: readonly CompiledRule[]): RuleResolver {
  return {
    resolve(idOrAlias) {
      return rules.find((r) => r.ruleAlias === idOrAlias || r.ruleId === idOrAlias);
    },
  };
}

type NodeSpec = { id?: string; name?: string; type: string; content?: unknown };

/** A JDM node with a readable id (its name unless given). */
export function jdmNode(type: string, name: string, content?: unknown): Record<string, unknown> {
  return { id: name, name, type, content, position: { x: 0, y: 0 } };
}

/** A graph whose nodes run one after the other: input -> ...nodes -> output. */
export function chain(...nodes: NodeSpec[]): JdmFile {
  const all = [jdmNode('inputNode', 'Request', {}), ...nodes.map((n) => ({ position: { x: 0, y: 0 }, id: n.id ?? n.name, ...n })), jdmNode('outputNode', 'Response', {})];
  const edges = all.slice(1).map((n, i) => ({ id: `e${i}`, sourceId: all[i].id, targetId: n.id }));
  return { nodes: all, edges };
}

/** A decision table node's content from rows written as [cells of the inputs..., cells of the outputs...]. */
export function tableContent(
  hitPolicy: 'first' | 'collect',
  inputs: (string | null)[],
  outputs: string[],
  rows: string[][],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const inputColumns = inputs.map((field, i) => (field === null ? { id: `in${i}`, name: `in${i}` } : { id: `in${i}`, name: field, field }));
  const outputColumns = outputs.map((field, i) => ({ id: `out${i}`, name: field, field }));
  return {
    hitPolicy,
    inputs: inputColumns,
    outputs: outputColumns,
    rules: rows.map((cells, r) => {
      const row: Record<string, string> = { _id: `row${r}` };
      inputColumns.forEach((c, i) => (row[c.id] = cells[i]));
      outputColumns.forEach((c, i) => (row[c.id] = cells[inputs.length + i]));
      return row;
    }),
    ...extra,
  };
}
