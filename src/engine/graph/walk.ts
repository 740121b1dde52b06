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

export class GraphWalk implements NodeRun {
  readonly ctx: EvaluationContext;
  readonly clock: GraphClock;
  readonly trace: boolean;
  readonly chain: readonly string[];
  readonly traces: NodeTrace[] | undefined;
  readonly #shape: GraphShape;
  readonly #input: unknown;
  readonly #parentNodes: Record<string, unknown> | undefined;
  readonly #edgeAlive: Uint8Array;
  readonly #nodeAlive: Uint8Array;
  readonly #visited: Uint8Array;
  readonly #data: unknown[];
  readonly #hasData: Uint8Array;
  #switchDone: Uint8Array | undefined;
  #toVisit: number[];
  #iter = 0;
  #nodesView: Record<string, unknown> | undefined;

  constructor(shape: GraphShape, input: unknown, ctx: EvaluationContext, clock: GraphClock, chain: readonly string[], parentNodes: Record<string, unknown> | undefined) {
    this.#shape = shape;
    this.#input = input;
    this.ctx = ctx;
    this.clock = clock;
    this.trace = ctx.trace;
    this.chain = chain;
    this.#parentNodes = parentNodes;
    this.traces = ctx.trace ? [] : undefined;
    const n = shape.nodes.length;
    this.#edgeAlive = new Uint8Array(shape.edgeSource.length).fill(1);
    this.#nodeAlive = new Uint8Array(n).fill(1);
    this.#visited = new Uint8Array(n);
    this.#data = new Array(n);
    this.#hasData = new Uint8Array(n);
    this.#toVisit = [...shape.inputNodes];
  }

  /** zen's `$nodes`: each node's output by name (the input node of a sub-decision also shows the caller's). */
  nodes(): Record<string, unknown> {
    if (this.#nodesView) return this.#nodesView;
    const view: Record<string, unknown> = {};
    const { nodes, roles } = this.#shape;
    for (let i = 0; i < nodes.length; i++) {
      if (!this.#hasData[i]) continue;
      const data = this.#data[i];
      view[nodes[i].name] = roles[i] === 'input' && this.#parentNodes && isObject(data) ? { ...data, $nodes: this.#parentNodes } : data;
    }
    return (this.#nodesView = view);
  }

  /** Runs the walk: the graph's answer, or a promise of it when a node waits. */
  run(): unknown {
    for (let nid = this.#next(); nid >= 0; nid = this.#next()) {
      if (this.#hasData[nid]) continue;
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
    return this.#shape.roles[nid] === 'output' ? this.#answer() : this.run();
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
    this.#data[nid] = output;
    this.#hasData[nid] = 1;
    this.#nodesView = undefined;
  }

  /** zen's merge_node_data: the incoming nodes' outputs merged, the newest edge's source first. */
  #incoming(nid: number): unknown {
    let merged: unknown;
    let first = true;
    for (const edge of this.#shape.incoming[nid]) {
      if (!this.#edgeAlive[edge]) continue;
      const source = this.#shape.edgeSource[edge];
      if (!this.#hasData[source]) continue;
      const data = this.#data[source];
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
      if (!this.#nodeAlive[i] || !this.#visited[i] || !this.#hasData[i] || this.#hasOutgoing(i)) continue;
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
    (this.#switchDone ??= new Uint8Array(shape.nodes.length))[nid] = 1;
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
