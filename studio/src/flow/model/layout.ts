// Auto layout with dagre: left to right in run order, for flows imported without positions and for the
// `Auto layout` button. Positions are the nodes' top-left corners, as React Flow and the documents store them.
import { Graph, layout } from '@dagrejs/dagre';
import type { FlowGraph, Point } from './graph.ts';

export interface Size {
  width: number;
  height: number;
}

/** What a node measures before the browser has drawn it (the canvas's node card). */
export const DEFAULT_NODE_SIZE: Size = { width: 190, height: 86 };

/** Every node placed by dagre; `sizes` gives the drawn size of nodes the canvas has measured. */
export function autoLayout(graph: FlowGraph, sizes: ReadonlyMap<string, Size> = new Map()): FlowGraph {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 36, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { ...(sizes.get(node.id) ?? DEFAULT_NODE_SIZE) });
  for (const edge of graph.edges) g.setEdge(edge.source, edge.target, {}, edge.id);
  layout(g);
  const placed = new Map<string, Point>();
  for (const node of graph.nodes) {
    const box = g.node(node.id) as { x: number; y: number; width: number; height: number };
    placed.set(node.id, { x: Math.round(box.x - box.width / 2), y: Math.round(box.y - box.height / 2) });
  }
  return { ...graph, nodes: graph.nodes.map((n) => ({ ...n, position: placed.get(n.id)! })) };
}

/** True when some node has no position (an imported flow): the designer then lays the whole flow out. */
export function needsLayout(graph: FlowGraph): boolean {
  return graph.nodes.some((n) => n.position === undefined);
}

/** The graph with positions everywhere: as it is when every node has one, else laid out. */
export function withLayout(graph: FlowGraph): FlowGraph {
  return needsLayout(graph) ? autoLayout(graph) : graph;
}
