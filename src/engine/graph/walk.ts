// One solve of a decision graph, walked as zen walks it (core/engine/src/decision_graph/walker.rs, graph.rs):
// depth first from the input node, a node only once every node feeding it has run; a switch node cuts the
// branches it does not take from this solve's copy of the graph (and, as zen, whatever only they fed or only fed
// them), then the walk starts again from the input, keeping what already ran. The walk stops at the first output
// node reached; the answer merges the outputs of the nodes reached that lead nowhere, in node order.
import { checkDeadline } from '../deadline.ts';
import type { EvaluationContext } from '../types.ts';
import type { GraphClock } from './expressions.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from './node.ts';
import type { CompiledSwitch } from './nodes/switch.ts';
import { isObject, mergeTop, shallowCopy } from './values.ts';

/** The compiled graph's shape: nodes in document order, edges with their neighbour lists in zen's order. */
export interface GraphShape {
  readonly nodes: readonly CompiledNode[];
  /** Per node: the kind the walk treats apart. */
  readonly roles: readonly ('input' | 'output' | 'switch' | 'other')[];
  readonly edgeSource: Int32Array;
  readonly edgeTarget: Int32Array;
  readonly edgeHandle: readonly (string | undefined)[];
  /** Per node, edge indices newest first (petgraph's neighbour order, which fixes zen's walk and merge order). */
  readonly incoming: readonly Int32Array[];
  readonly outgoing: readonly Int32Array[];
  readonly inputNodes: readonly number[];
  readonly hasSwitch: boolean;
  /**
   * Without switch nodes the walk never depends on what the nodes answer: the nodes it runs, in order (up to the
   * first output node), and the ones whose outputs make the answer, worked out once (staticWalk).
   */
  readonly order: Int32Array | undefined;
  readonly ending: Int32Array | undefined;
  /**
   * Per node of a static walk, the source whose owned output it may merge into (NodeRun.inputOwned), or -1: the
   * node mergesInPlace, it has one incoming edge, its source no other outgoing edge, and no node reads `$nodes`.
   */
  readonly ownedSource: Int32Array | undefined;
}

/** A trace entry (spec: zen's trace as an array in execution order). */
export interface NodeTrace {
  id: string;
  name: string;
  type: string;
  input: unknown;
  output: unknown;
  traceData?: unknown;
}

const ITER_MAX = 1000;
const EMPTY: number[] = [];

export class GraphWalk implements NodeRun {
  readonly ctx: EvaluationContext;
  readonly clock: GraphClock;
  readonly trace: boolean;
  readonly chain: readonly string[];
  readonly traces: NodeTrace[] | undefined;
  inputOwned = false;
  readonly #shape: GraphShape;
  readonly #input: unknown;
  readonly #parentNodes: Record<string, unknown> | undefined;
  // Node outputs by node index; undefined until the node ran (an output is never undefined).
  readonly #data: unknown[];
  // The dynamic walk's state (graphs with switch nodes only): what is left of the graph, what the pass visited.
  #edgeAlive: number[] = EMPTY;
  #nodeAlive: number[] = EMPTY;
  #visited: number[] = EMPTY;
  #switchDone: number[] | undefined;
  #toVisit: number[] = EMPTY;
  #iter = 0;
  #nodesView: Record<string, unknown> | undefined;
  /** Per node, whether its output is owned (NodeOutcome.owned); made for static walks with ownedSource. */
  #owned: boolean[] | undefined;

  constructor(shape: GraphShape, input: unknown, ctx: EvaluationContext, clock: GraphClock, chain: readonly string[], parentNodes: Record<string, unknown> | undefined) {
    this.#shape = shape;
    this.#input = input;
    this.ctx = ctx;
    this.clock = clock;
    this.trace = ctx.trace;
    this.chain = chain;
    this.#parentNodes = parentNodes;
    this.traces = ctx.trace ? [] : undefined;
    this.#data = new Array(shape.nodes.length);
    if (shape.order) {
      // A plain array: a typed array costs more to make than the few flags it holds.
      if (shape.ownedSource && !ctx.trace) this.#owned = [];
      return;
    }
    this.#edgeAlive = new Array(shape.edgeSource.length).fill(1);
    this.#nodeAlive = new Array(shape.nodes.length).fill(1);
    this.#visited = new Array(shape.nodes.length).fill(0);
    this.#toVisit = [...shape.inputNodes];
  }

  /** zen's `$nodes`: each node's output by name (the input node of a sub-decision also shows the caller's). */
  nodes(): Record<string, unknown> {
    if (this.#nodesView) return this.#nodesView;
    const view: Record<string, unknown> = {};
    const { nodes, roles } = this.#shape;
    for (let i = 0; i < nodes.length; i++) {
      const data = this.#data[i];
      if (data === undefined) continue;
      view[nodes[i].name] = roles[i] === 'input' && this.#parentNodes && isObject(data) ? { ...data, $nodes: this.#parentNodes } : data;
    }
    return (this.#nodesView = view);
  }

  /** Runs the walk: the graph's answer, or a promise of it when a node waits. */
  run(): unknown {
    return this.#shape.order ? this.#runStatic(0) : this.#runDynamic();
  }

  /** The walk of a graph without switch nodes: its nodes in their precomputed order. */
  #runStatic(from: number): unknown {
    const { order, nodes, roles } = this.#shape;
    for (let at = from; at < order!.length; at++) {
      const nid = order![at];
      const input = roles[nid] === 'input' ? this.#input : this.#incoming(nid);
      const node = nodes[nid];
      if (node.passes && !this.traces) {
        this.#store(nid, input);
        continue;
      }
      checkDeadline(this.ctx);
      const owned = this.#owned;
      if (owned) {
        const source = this.#shape.ownedSource![nid];
        this.inputOwned = source >= 0 && owned[source] === true;
      }
      const outcome = node.evaluate(input, this);
      this.inputOwned = false;
      if (outcome instanceof Promise) return outcome.then((o) => this.#resumeStatic(at, input, o));
      if (owned && outcome.owned) owned[nid] = true;
      this.#record(nid, input, outcome);
    }
    return this.#merge(this.#shape.ending!);
  }

  #resumeStatic(at: number, input: unknown, outcome: NodeOutcome): unknown {
    const nid = this.#shape.order![at];
    if (this.#owned && outcome.owned) this.#owned[nid] = true;
    this.#record(nid, input, outcome);
    return this.#runStatic(at + 1);
  }

  #merge(ending: Int32Array): unknown {
    if (ending.length === 1) return answerOf(this.#data[ending[0]]);
    let result: unknown = {};
    for (const nid of ending) result = mergeTop(result, this.#data[nid]);
    return result;
  }

  #runDynamic(): unknown {
    for (let nid = this.#next(); nid >= 0; nid = this.#next()) {
      if (this.#data[nid] !== undefined) continue;
      const node = this.#shape.nodes[nid];
      const role = this.#shape.roles[nid];
      const input = role === 'input' ? this.#input : this.#incoming(nid);
      if (role === 'switch') {
        this.#store(nid, input);
        continue;
      }
      checkDeadline(this.ctx);
      const outcome = node.evaluate(input, this);
      if (outcome instanceof Promise) return outcome.then((o) => this.#resume(nid, input, o));
      this.#record(nid, input, outcome);
      if (role === 'output') break;
    }
    return this.#answer();
  }

  #resume(nid: number, input: unknown, outcome: NodeOutcome): unknown {
    this.#record(nid, input, outcome);
    return this.#shape.roles[nid] === 'output' ? this.#answer() : this.#runDynamic();
  }

  #record(nid: number, input: unknown, outcome: NodeOutcome): void {
    if (this.traces) {
      const node = this.#shape.nodes[nid];
      const role = this.#shape.roles[nid];
      const entry: NodeTrace = { id: node.id, name: node.name, type: node.type, input: role === 'input' ? null : input, output: role === 'output' ? null : outcome.output };
      if (outcome.traceData !== undefined) entry.traceData = outcome.traceData;
      this.traces.push(entry);
    }
    this.#store(nid, outcome.output);
  }

  #store(nid: number, output: unknown): void {
    this.#data[nid] = output === undefined ? null : output;
    this.#nodesView = undefined;
  }

  /** zen's merge_node_data: the incoming nodes' outputs merged, the newest edge's source first. */
  #incoming(nid: number): unknown {
    let merged: unknown;
    let first = true;
    const alive = this.#shape.order ? undefined : this.#edgeAlive;
    for (const edge of this.#shape.incoming[nid]) {
      if (alive && !alive[edge]) continue;
      const data = this.#data[this.#shape.edgeSource[edge]];
      if (data === undefined) continue;
      if (first) {
        merged = typeof data === 'object' && data !== null ? data : {};
        first = false;
      } else merged = mergeTop(merged, data);
    }
    return first ? {} : merged;
  }

  /** zen's ending_variables: the reached nodes without an outgoing edge, merged in node order. */
  #answer(): unknown {
    let result: unknown = {};
    const { nodes } = this.#shape;
    for (let i = 0; i < nodes.length; i++) {
      if (!this.#nodeAlive[i] || !this.#visited[i] || this.#data[i] === undefined || this.#hasOutgoing(i)) continue;
      result = mergeTop(result, this.#data[i]);
    }
    return result;
  }

  #hasOutgoing(nid: number): boolean {
    for (const edge of this.#shape.outgoing[nid]) if (this.#edgeAlive[edge]) return true;
    return false;
  }

  /** zen's GraphWalker::next: the next node whose inputs have all run, or -1. */
  #next(): number {
    if (this.#iter >= ITER_MAX) return -1;
    const shape = this.#shape;
    while (this.#toVisit.length > 0) {
      const toVisit = this.#toVisit;
      const nid = toVisit.pop()!;
      if (this.#visited[nid]) continue;
      let unresolved: number[] | undefined;
      for (const edge of shape.incoming[nid]) {
        if (!this.#edgeAlive[edge]) continue;
        const source = shape.edgeSource[edge];
        if (!this.#visited[source]) (unresolved ??= []).push(source);
      }
      if (unresolved) {
        toVisit.push(nid, ...unresolved);
        continue;
      }
      this.#visited[nid] = 1;
      if (shape.roles[nid] === 'switch' && !this.#switchDone?.[nid]) {
        if (this.#branch(nid)) continue;
      }
      for (const edge of shape.outgoing[nid]) if (this.#edgeAlive[edge]) toVisit.push(shape.edgeTarget[edge]);
      return nid;
    }
    return -1;
  }

  /** Evaluates switch `nid` and cuts the branches it does not take; true when it cut any (the walk restarts). */
  #branch(nid: number): boolean {
    const shape = this.#shape;
    const node = shape.nodes[nid] as CompiledSwitch;
    const input = this.#incoming(nid);
    const chosen = node.select(input, this);
    if (this.traces) {
      this.traces.push({ id: node.id, name: node.name, type: node.type, input, output: shallowCopy(input), traceData: { statements: chosen.map((id) => ({ id })) } });
    }
    const cut: number[] = [];
    for (const edge of shape.outgoing[nid]) {
      if (!this.#edgeAlive[edge]) continue;
      const handle = shape.edgeHandle[edge];
      if (handle === undefined || !chosen.includes(handle)) cut.push(edge);
    }
    for (const edge of cut) this.#removeEdge(edge);
    (this.#switchDone ??= new Array(shape.nodes.length).fill(0))[nid] = 1;
    if (cut.length === 0) return false;
    this.#visited.fill(0);
    this.#toVisit.length = 0;
    for (const i of shape.inputNodes) if (this.#nodeAlive[i]) this.#toVisit.push(i);
    this.#iter++;
    return true;
  }

  /**
   * zen's remove_edge_recursive: a node left with no incoming edge loses its outgoing ones, a node left with no
   * outgoing edge loses its incoming ones, and a node left with no outgoing edge is removed (with its edges).
   */
  #removeEdge(edge: number): void {
    if (!this.#edgeAlive[edge]) return;
    const shape = this.#shape;
    const source = shape.edgeSource[edge];
    const target = shape.edgeTarget[edge];
    this.#edgeAlive[edge] = 0;
    for (const [nid, lost, other] of [
      [target, shape.incoming, shape.outgoing],
      [source, shape.outgoing, shape.incoming],
    ] as const) {
      if (!this.#nodeAlive[nid] || this.#anyAlive(lost[nid])) continue;
      for (const e of other[nid]) this.#removeEdge(e);
      if (!this.#anyAlive(shape.outgoing[nid])) this.#removeNode(nid);
    }
  }

  #removeNode(nid: number): void {
    this.#nodeAlive[nid] = 0;
    for (const e of this.#shape.incoming[nid]) this.#edgeAlive[e] = 0;
    for (const e of this.#shape.outgoing[nid]) this.#edgeAlive[e] = 0;
  }

  #anyAlive(edges: Int32Array): boolean {
    for (const e of edges) if (this.#edgeAlive[e]) return true;
    return false;
  }
}

/**
 * The walk of a graph without switch nodes, worked out from its shape alone (the same steps as GraphWalk's
 * dynamic walk, which only switch nodes make depend on answers): the nodes run, in order, up to the first output
 * node, and the nodes whose outputs the answer merges (reached, no outgoing edge), in node order.
 */
export function staticWalk(shape: Omit<GraphShape, 'order' | 'ending' | 'ownedSource'>): { order: Int32Array; ending: Int32Array } {
  const n = shape.nodes.length;
  const visited = new Array<boolean>(n).fill(false);
  const order: number[] = [];
  const toVisit = [...shape.inputNodes];
  while (toVisit.length > 0) {
    const nid = toVisit.pop()!;
    if (visited[nid]) continue;
    const unresolved: number[] = [];
    for (const edge of shape.incoming[nid]) if (!visited[shape.edgeSource[edge]]) unresolved.push(shape.edgeSource[edge]);
    if (unresolved.length > 0) {
      toVisit.push(nid, ...unresolved);
      continue;
    }
    visited[nid] = true;
    for (const edge of shape.outgoing[nid]) toVisit.push(shape.edgeTarget[edge]);
    order.push(nid);
    if (shape.roles[nid] === 'output') break;
  }
  const ending: number[] = [];
  for (let i = 0; i < n; i++) if (visited[i] && shape.outgoing[i].length === 0) ending.push(i);
  return { order: Int32Array.from(order), ending: Int32Array.from(ending) };
}

/**
 * zen's answer from one node's output: `{}` merged with it. An object without null values (the common case) is
 * that object itself, shared (answers are read, never written to); otherwise the merge copies.
 */
function answerOf(data: unknown): unknown {
  if (isObject(data)) {
    for (const key in data) if (data[key] === null) return mergeTop({}, data);
    return data;
  }
  return mergeTop({}, data);
}
