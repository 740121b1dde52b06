// The dependency graph as data: nodes (the rule looked at, every rule it uses, references that resolve to
// nothing) and edges (who uses whom, and how: a flow node, LOOKUP, SOLVE) from GET /api/tools/dependencies, laid
// out top-down by dagre (callers above the rules they call). DependenciesPage hands the result to React Flow.
import { Graph, layout } from '@dagrejs/dagre';
import type { Dependencies, RuleVersionRef } from './api.ts';

export interface GraphNode {
  id: string;
  ruleId: string;
  version?: number;
  name: string;
  alias?: string;
  type?: string;
  /** The rule the graph is about. */
  root: boolean;
  /** A reference no stored rule answers. */
  missing: boolean;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: 'flow' | 'LOOKUP' | 'SOLVE' | 'missing';
}

export interface DependencyGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export function nodeId(ref: RuleVersionRef): string {
  return `${ref.ruleId}@${ref.version ?? 'latest'}`;
}

export function buildGraph(deps: Dependencies): DependencyGraph {
  const rule = deps.rule as { ruleId: string; version?: number; name?: string; ruleAlias?: string; type?: string };
  const root: GraphNode = { id: nodeId(rule), ruleId: rule.ruleId, version: rule.version, name: rule.name ?? rule.ruleId, alias: rule.ruleAlias, type: rule.type, root: true, missing: false };
  const nodes = new Map<string, GraphNode>([[root.id, root]]);
  for (const d of deps.dependencies) {
    const id = nodeId(d);
    if (!nodes.has(id)) nodes.set(id, { id, ruleId: d.ruleId, version: d.version, name: d.name, alias: d.ruleAlias, type: d.type, root: false, missing: false });
  }
  const edges: GraphEdge[] = [];
  for (const e of deps.edges) {
    const source = nodeId(e.from);
    const target = nodeId(e.to);
    if (nodes.has(source) && nodes.has(target)) edges.push({ id: `${source}>${target}`, source, target, kind: e.kind });
  }
  // A missing reference names its caller by rule id only: the caller is the walked version of that rule.
  const byRuleId = new Map([...nodes.values()].map((n) => [n.ruleId, n.id]));
  for (const m of deps.missing) {
    const id = `missing:${m.idOrAlias}@${m.version ?? 'latest'}`;
    if (!nodes.has(id)) nodes.set(id, { id, ruleId: m.idOrAlias, version: m.version, name: m.idOrAlias, root: false, missing: true });
    const source = byRuleId.get(m.from) ?? root.id;
    edges.push({ id: `${source}>${id}`, source, target: id, kind: 'missing' });
  }
  return { nodes: [...nodes.values()], edges };
}

export interface Positioned {
  id: string;
  /** Top-left corner, as React Flow places nodes. */
  x: number;
  y: number;
}

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 64;

/** Top-down layered layout: callers above callees, no two nodes overlapping. */
export function layoutGraph(graph: DependencyGraph): Positioned[] {
  const g = new Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of graph.edges) g.setEdge(edge.source, edge.target);
  layout(g);
  return graph.nodes.map((node) => {
    const { x, y } = g.node(node.id);
    // dagre answers centres.
    return { id: node.id, x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 };
  });
}

export const EDGE_LABELS: Record<GraphEdge['kind'], string> = { flow: 'flow node', LOOKUP: 'LOOKUP', SOLVE: 'SOLVE', missing: 'not found' };
