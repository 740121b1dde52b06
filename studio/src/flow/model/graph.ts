// The flow designer's graph, the same for decision flows (`workflow`) and rule flows (`composition`): nodes with
// ports (a decision flow's connectors; a rule flow's single in and out), edges from an out-port to an in-port, and
// each node's `data` in the document's own form. Plain TypeScript: every edit returns a new graph, so the
// designer hands the shell a new document per edit and the operations are tested without a browser.
// Fields the designer does not model are carried in `extra` and written back unchanged.

export interface Point {
  x: number;
  y: number;
}

export interface Port {
  id: string;
  direction: 'in' | 'out';
  /** Decision flows: none | outgoing-loop | out-end | out-inner (one per Switch case). Rule flows: none. */
  subType: string;
  extra?: Record<string, unknown>;
}

export interface GraphNode {
  id: string;
  /** The document's node type: START, BUSINESS_RULE… (decision flow) or start, rule, end (rule flow). */
  type: string;
  /** The name expressions and mappings address the node by (`globalVariable` in a rule flow). */
  name?: string;
  /** Undefined for an imported node the document gave no position (auto layout places it). */
  position?: Point;
  data: any;
  ports: Port[];
  extra?: Record<string, unknown>;
}

export interface GraphEdge {
  id: string;
  source: string;
  sourcePort: string;
  target: string;
  targetPort: string;
  extra?: Record<string, unknown>;
}

export interface FlowGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Document entries the graph cannot show (a connection to a connector no node has), written back unchanged. */
  unplaced?: unknown[];
}

/** A fresh id: 8 hex digits for nodes (as DecisionRules writes them), a UUID for ports and edges. */
export function newId(kind: 'node' | 'uuid'): string {
  const uuid = globalThis.crypto.randomUUID();
  return kind === 'node' ? uuid.replace(/-/g, '').slice(0, 8) : uuid;
}

export function nodeById(graph: FlowGraph, id: string): GraphNode | undefined {
  return graph.nodes.find((n) => n.id === id);
}

export function portOf(graph: FlowGraph, portId: string): { node: GraphNode; port: Port } | undefined {
  for (const node of graph.nodes) {
    const port = node.ports.find((p) => p.id === portId);
    if (port) return { node, port };
  }
  return undefined;
}

/**
 * The first name no node has, as DecisionRules names new nodes: `base`, then `base_1`, `base_2`… (decision
 * flows), or `base_1`, `base_2`… from the start (`numbered`, rule flows' `Rule_1`).
 */
export function uniqueName(graph: FlowGraph, base: string, numbered = false): string {
  const taken = new Set(graph.nodes.map((n) => n.name));
  if (!numbered && !taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** Why `name` is not a well-formed node name of a DecisionRules flow (an identifier), or undefined. */
export function identifierProblem(name: string): string | undefined {
  if (name.trim() === '') return 'A node needs a name.';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return 'Use letters, digits and _ only, starting with a letter or _.';
  return undefined;
}

/** Why `name` cannot name node `id`, or undefined when it can; `syntax` says which names are well formed. */
export function nameProblem(graph: FlowGraph, id: string, name: string, reserved: readonly string[] = [], syntax = identifierProblem): string | undefined {
  const malformed = syntax(name);
  if (malformed) return malformed;
  if (reserved.includes(name)) return `"${name}" is reserved.`;
  if (graph.nodes.some((n) => n.id !== id && n.name === name)) return `Another node is already named "${name}".`;
  return undefined;
}

export function addNode(graph: FlowGraph, node: GraphNode): FlowGraph {
  return { ...graph, nodes: [...graph.nodes, node] };
}

/** Removes the node and every edge touching it. */
export function deleteNode(graph: FlowGraph, id: string): FlowGraph {
  return { ...graph, nodes: graph.nodes.filter((n) => n.id !== id), edges: graph.edges.filter((e) => e.source !== id && e.target !== id) };
}

export function updateNode(graph: FlowGraph, id: string, patch: Partial<Omit<GraphNode, 'id'>>): FlowGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (n.id === id ? { ...n, ...patch } : n)) };
}

export function moveNodes(graph: FlowGraph, positions: ReadonlyMap<string, Point>): FlowGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (positions.has(n.id) ? { ...n, position: positions.get(n.id)! } : n)) };
}

/** True when an edge from `from` to `to` would close a cycle (flows run in one direction). */
export function wouldCycle(graph: FlowGraph, from: string, to: string): boolean {
  if (from === to) return true;
  const seen = new Set<string>();
  const stack = [to];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at === from) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const e of graph.edges) if (e.source === at) stack.push(e.target);
  }
  return false;
}

export type ConnectResult = { graph: FlowGraph; edge: GraphEdge } | { error: string };

/**
 * Connects an out-port to a node's in-port (the first one when `targetPort` is not given). Refuses what the
 * engine would refuse: a missing port, a self-loop, a cycle, a duplicate edge.
 */
export function connect(graph: FlowGraph, sourcePort: string, target: string, targetPort?: string): ConnectResult {
  const from = portOf(graph, sourcePort);
  if (!from || from.port.direction !== 'out') return { error: 'Connections start at an out-port.' };
  const to = nodeById(graph, target);
  const input = to?.ports.find((p) => p.direction === 'in' && (targetPort === undefined || p.id === targetPort));
  if (!to || !input) return { error: `${to ? `Node "${label(to)}"` : 'That node'} has no input to connect to.` };
  if (wouldCycle(graph, from.node.id, to.id)) return { error: `Connecting "${label(from.node)}" to "${label(to)}" would make a cycle.` };
  if (graph.edges.some((e) => e.sourcePort === sourcePort && e.target === to.id)) return { error: `"${label(from.node)}" is already connected to "${label(to)}" there.` };
  const edge: GraphEdge = { id: newId('uuid'), source: from.node.id, sourcePort, target: to.id, targetPort: input.id };
  return { graph: { ...graph, edges: [...graph.edges, edge] }, edge };
}

export function disconnect(graph: FlowGraph, edgeId: string): FlowGraph {
  return { ...graph, edges: graph.edges.filter((e) => e.id !== edgeId) };
}

/** How messages name a node: its name, else its type as a word (a decision flow's START has no name: "Start"). */
export function label(node: GraphNode): string {
  return node.name ?? node.type.charAt(0) + node.type.slice(1).toLowerCase().replace(/_/g, ' ');
}

/** Nodes in an order where every node comes after the nodes with edges into it (ties: document order). */
export function topologicalOrder(graph: FlowGraph): GraphNode[] {
  const incoming = new Map(graph.nodes.map((n) => [n.id, 0]));
  for (const e of graph.edges) incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
  const ready = graph.nodes.filter((n) => incoming.get(n.id) === 0);
  const order: GraphNode[] = [];
  while (ready.length > 0) {
    const next = ready.shift()!;
    order.push(next);
    for (const e of graph.edges) {
      if (e.source !== next.id) continue;
      const left = incoming.get(e.target)! - 1;
      incoming.set(e.target, left);
      if (left === 0) ready.push(nodeById(graph, e.target)!);
    }
  }
  // A cycle (only possible in a hand-written document) leaves nodes out: list them last rather than lose them.
  return [...order, ...graph.nodes.filter((n) => !order.includes(n))];
}

/**
 * The graph with node `id` renamed and every reference to its old name rewritten by `rewrite` (each format knows
 * where its nodes name each other: mapping sources, paths, expressions), so a rename never silently breaks them.
 */
export function renameNode(graph: FlowGraph, id: string, name: string, rewrite: (data: any, from: string, to: string) => any): FlowGraph {
  const node = nodeById(graph, id);
  const from = node?.name;
  if (!node || from === undefined || from === name) return graph;
  return { ...graph, nodes: graph.nodes.map((n) => ({ ...n, ...(n.id === id ? { name } : {}), data: rewrite(n.data, from, name) })) };
}

/**
 * Nodes the start node (`START`, `start` or the format's `startType`) does not reach: a decision flow or graph
 * never runs them, a rule flow cannot put them in its tree. The designer lists them so an unconnected node is
 * never silently ignored.
 */
export function unconnectedNodes(graph: FlowGraph, startType?: string): GraphNode[] {
  const start = graph.nodes.find((n) => (startType === undefined ? n.type === 'start' || n.type === 'START' : n.type === startType));
  const reached = new Set<string>(start ? [start.id] : []);
  let grew = true;
  while (grew) {
    grew = false;
    for (const e of graph.edges) {
      if (reached.has(e.source) && !reached.has(e.target)) {
        reached.add(e.target);
        grew = true;
      }
    }
  }
  return graph.nodes.filter((n) => !reached.has(n.id));
}
