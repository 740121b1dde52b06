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
