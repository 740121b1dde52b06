// What every node kind of a decision graph compiles to (one handler module per kind in ./nodes, as zen's core).
import type { EvaluationContext } from '../types.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import type { JdmNodeType } from '../../rules/decision-graph.ts';
import type { GraphClock } from './expressions.ts';

/** A node's answer: its output (the next nodes' input) and, when tracing, what it did (zen's traceData). */
export interface NodeOutcome {
  output: unknown;
  traceData?: unknown;
  /** The output is an object this node made (a passThrough merge's copy) that nothing else holds yet. */
  owned?: boolean;
}

/** The solve a node runs in. */
export interface NodeRun {
  readonly ctx: EvaluationContext;
  readonly clock: GraphClock;
  readonly trace: boolean;
  /** The decision graphs being solved, outermost first, this one last: a sub-decision naming one is a cycle. */
  readonly chain: readonly string[];
  /**
   * The node's input is an object no one else can see (its one source's owned output, in a graph that neither
   * traces nor reads `$nodes`): a passThrough node merges its answer into it instead of copying it.
   */
  readonly inputOwned: boolean;
  /** zen's `$nodes`: every evaluated node's output by node name (made only for nodes that read it). */
  nodes(): Record<string, unknown>;
}

/** One node, compiled. */
export interface CompiledNode {
  readonly id: string;
  readonly name: string;
  readonly type: JdmNodeType;
  /** The node's expressions mention `$nodes`: the walk builds it for them. */
  readonly readsNodes: boolean;
  /** True when the node may wait (a sub-decision or a function). */
  readonly async: boolean;
  /** True when the node answers its input as it is and traces nothing else (input/output nodes without a schema). */
  readonly passes?: boolean;
  /** A passThrough node that merges into an owned input (see NodeRun.inputOwned); its expressions never read `$root`. */
  readonly mergesInPlace?: boolean;
  evaluate(input: unknown, run: NodeRun): MaybePromise<NodeOutcome>;
}

/** The locals of an expression run for `run`: `$nodes` when the node reads it. */
export function nodeLocals(node: { readsNodes: boolean }, run: NodeRun): Record<string, unknown> | undefined {
  return node.readsNodes ? { $nodes: run.nodes() } : undefined;
}

/** Where a node is, for errors: `decision graph node "Discounts" (decisionTableNode)`. */
export function nodeLabel(node: { name: string; id: string; type: string }): string {
  return `node ${JSON.stringify(node.name || node.id)} (${node.type})`;
}
