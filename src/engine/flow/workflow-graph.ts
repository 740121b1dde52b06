// The structure of a decision flow, worked out once at compile time (spec/rule-format.md §8.2 "Evaluation model"):
// which node waits for which, which nodes form the body of each loop (FOREACH, BUSINESS_RULE iterating its
// result), and a fixed run order per region (the top level, or one loop body). Connections express ordering only.
import { ValidationError } from '../errors.ts';
import type { Problem } from '../errors.ts';
import type { WorkflowNodeData, WorkflowNodeType } from '../../rules/model/workflow.ts';

/** The node types that run (an END node only marks where the flow ends). */
export type RunnableNodeType = Exclude<WorkflowNodeType, 'END'>;

/** A node of the model (src/rules/model/workflow.ts) as the engine runs it: numbered, with its label. */
export interface FlowNodeOf<T extends RunnableNodeType> {
  readonly index: number;
  readonly id: string;
  readonly type: T;
  readonly name: string | undefined;
  /** How messages name the node: its name, else its id. */
  readonly label: string;
  /** JSON path of the node in the rule document. */
  readonly path: string;
  /** Node-type version (1 or 2). */
  readonly version: number;
  readonly data: WorkflowNodeData[T];
}

/** A running node, told apart by its `type`. */
export type FlowNode = { [T in RunnableNodeType]: FlowNodeOf<T> }[RunnableNodeType];

/** A node a node waits for, and the out-connectors of that node that lead to it. */
export interface Predecessor {
  readonly node: number;
  readonly connectors: readonly string[];
}

export interface Region {
  /** The loop node whose body this is; undefined for the top level. */
  readonly loop: number | undefined;
  /** Nodes of this region in run order (every node after the nodes it waits for). */
  readonly order: readonly number[];
}

export interface NodePlan {
  /** Nodes of the same region this node waits for (a node inside a loop that waits for a node outside it makes the loop wait instead). */
  readonly predecessors: readonly Predecessor[];
  /** True when the loop owning this node starts it at each iteration (an `outgoing-loop` connection). */
  readonly loopEntry: boolean;
  /** Set on loop nodes: their body, run once per item. */
  readonly body: Region | undefined;
}

export interface FlowGraph {
  readonly nodes: readonly FlowNode[];
  readonly plans: readonly NodePlan[];
  readonly top: Region;
}

export const LOOP_NODE_TYPES: ReadonlySet<string> = new Set(['FOREACH', 'BUSINESS_RULE']);

interface Connector {
  node: number;
  direction: string;
  subType: string;
}

interface Edge {
  from: number;
  to: number;
  connector: string;
  loop: boolean;
}

/**
 * Builds the graph. `nodes` excludes END nodes (they only mark where a branch stops), so connections into them
 * are dropped. Throws ValidationError for connections between the wrong kinds of connectors, cycles and loop
 * bodies that overlap.
 */
export function buildFlowGraph(
  nodes: readonly FlowNode[],
  connectors: ReadonlyMap<string, Connector>,
  connections: readonly { source: string; target: string; path: string }[],
  endConnectors: ReadonlySet<string>,
): FlowGraph {
  const problems: Problem[] = [];
  const edges: Edge[] = [];
  for (const connection of connections) {
    if (endConnectors.has(connection.target)) continue;
    const source = connectors.get(connection.source);
    const target = connectors.get(connection.target);
    if (!source || !target) {
      if (!endConnectors.has(connection.source)) {
        problems.push({ path: connection.path, message: `connects unknown connector ${JSON.stringify(source ? connection.target : connection.source)}` });
      }
      continue;
    }
    if (source.direction !== 'out' || target.direction !== 'in') {
      problems.push({
        path: connection.path,
        message: `must lead from an out-connector to an in-connector (it leads from node "${nodes[source.node]!.label}" to node "${nodes[target.node]!.label}")`,
      });
      continue;
    }
    if (source.node === target.node) {
      problems.push({ path: connection.path, message: `connects node "${nodes[source.node]!.label}" to itself` });
      continue;
    }
    const loop = source.subType === 'outgoing-loop' && LOOP_NODE_TYPES.has(nodes[source.node]!.type);
    edges.push({ from: source.node, to: target.node, connector: connection.source, loop });
  }
  if (problems.length > 0) throw new ValidationError(problems);

  const successors = nodes.map(() => [] as Edge[]);
  for (const edge of edges) successors[edge.from]!.push(edge);

  // body(L): every node reachable from L's outgoing-loop connections.
  const bodies = new Map<number, Set<number>>();
  for (const node of nodes) {
    if (!LOOP_NODE_TYPES.has(node.type)) continue;
    const body = new Set<number>();
    const queue = successors[node.index]!.filter((edge) => edge.loop).map((edge) => edge.to);
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (next === node.index) {
        throw new ValidationError([{ path: node.path, message: `the loop of node "${node.label}" leads back to the node itself` }]);
      }
      if (body.has(next)) continue;
      body.add(next);
      for (const edge of successors[next]!) queue.push(edge.to);
    }
    bodies.set(node.index, body);
  }

  // The innermost loop containing each node. Bodies must nest: a node inside two loops needs one inside the other.
  const owner: (number | undefined)[] = nodes.map(() => undefined);
  for (const node of nodes) {
    const containing = [...bodies].filter(([, body]) => body.has(node.index)).map(([loop]) => loop);
    for (const a of containing) {
      for (const b of containing) {
        if (a !== b && !bodies.get(a)!.has(b) && !bodies.get(b)!.has(a)) {
          throw new ValidationError([
            { path: node.path, message: `node "${node.label}" is inside the loops of both "${nodes[a]!.label}" and "${nodes[b]!.label}", which are not nested` },
          ]);
        }
      }
    }
    // The innermost loop is the one every other containing loop contains.
    owner[node.index] = containing.find((candidate) => containing.every((other) => other === candidate || bodies.get(other)!.has(candidate)));
  }

  const predecessors = nodes.map(() => new Map<number, string[]>());
  const loopEntry = nodes.map(() => false);
  for (const edge of edges) {
    if (edge.loop && owner[edge.to] === edge.from) {
      loopEntry[edge.to] = true;
      continue;
    }
    // Find the node of the source's region that contains the target: the target itself, or a loop around it.
    let waiting = edge.to;
    while (owner[waiting] !== owner[edge.from]) {
      const enclosing = owner[waiting];
      if (enclosing === undefined) break;
      waiting = enclosing;
    }
    if (waiting === edge.from || owner[waiting] !== owner[edge.from]) {
      const from = nodes[edge.from]!;
      const to = nodes[edge.to]!;
      throw new ValidationError([
        { path: to.path, message: `node "${to.label}" is connected both inside the loop of "${from.label}" and after it` },
      ]);
    }
    const list = predecessors[waiting]!.get(edge.from) ?? [];
    list.push(edge.connector);
    predecessors[waiting]!.set(edge.from, list);
  }

  const plansInProgress = nodes.map((node) => ({
    predecessors: [...predecessors[node.index]!].map(([from, list]) => ({ node: from, connectors: list })),
    loopEntry: loopEntry[node.index]!,
    body: undefined as Region | undefined,
  }));

  const regionOf = (loop: number | undefined): Region => ({
    loop,
    order: runOrder(nodes.filter((node) => owner[node.index] === loop), plansInProgress, nodes),
  });
  for (const [loop] of bodies) plansInProgress[loop]!.body = regionOf(loop);
  return { nodes, plans: plansInProgress, top: regionOf(undefined) };
}

/** Kahn's algorithm; among nodes ready together the one listed first in the document runs first. */
function runOrder(members: readonly FlowNode[], plans: readonly { predecessors: readonly Predecessor[] }[], nodes: readonly FlowNode[]): number[] {
  const inRegion = new Set(members.map((node) => node.index));
  const waitingFor = new Map<number, number>();
  const dependants = new Map<number, number[]>();
  for (const node of members) {
    const preds = plans[node.index]!.predecessors.filter((p) => inRegion.has(p.node));
    waitingFor.set(node.index, preds.length);
    for (const p of preds) {
      const list = dependants.get(p.node) ?? [];
      list.push(node.index);
      dependants.set(p.node, list);
    }
  }
  const ready = members.filter((node) => waitingFor.get(node.index) === 0).map((node) => node.index);
  const order: number[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => a - b);
    const next = ready.shift()!;
    order.push(next);
    for (const dependant of dependants.get(next) ?? []) {
      const left = waitingFor.get(dependant)! - 1;
      waitingFor.set(dependant, left);
      if (left === 0) ready.push(dependant);
    }
  }
  if (order.length !== members.length) {
    const stuck = members.filter((node) => !order.includes(node.index)).map((node) => `"${nodes[node.index]!.label}"`);
    throw new ValidationError([{ path: 'workflowData.connections', message: `the connections form a cycle through nodes ${stuck.join(', ')}` }]);
  }
  return order;
}
