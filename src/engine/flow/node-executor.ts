// What a compiled decision-flow node is (NodeExecutor) and what its compiler gets (NodeCompileContext). The node
// compilers (workflow-nodes.ts, http-node.ts) and the flow runner (workflow.ts) share these without importing
// each other.
import type { Problem } from '../errors.ts';
import type { CellEnvironment } from '../cells/index.ts';
import type { EvaluationContext, RuleRef } from '../types.ts';
import type { FlowLayout, FlowScope } from './flow-scope.ts';
import type { MaybePromise } from '../maybe-promise.ts';

export interface NodeOutcome {
  /** IF_STATEMENT: the out-connectors that send a run signal (the others cancel). Undefined: all of them. */
  selected?: ReadonlySet<string>;
  /** FOREACH and BUSINESS_RULE: the items the node iterates (its body runs once per item). */
  items?: readonly unknown[];
  /** For the trace: what the node read and what it produced. */
  input?: unknown;
  output?: unknown;
}

export interface NodeExecutor {
  readonly ruleRefs: readonly RuleRef[];
  /** The outcome, or a promise of it when something the node calls waits (engine/maybe-promise.ts). */
  run(scope: FlowScope, ctx: EvaluationContext): MaybePromise<NodeOutcome>;
  /**
   * An untraced run of a node whose loop has no body (workflow.ts chainOf): like `run`, but a node may leave its
   * state after the loop itself, and then answers without items. Absent: `run`.
   */
  runAlone?(scope: FlowScope, ctx: EvaluationContext): MaybePromise<NodeOutcome>;
}

export interface NodeCompileContext {
  readonly env: CellEnvironment;
  /** Node types by node name, to refuse assignments to values that nodes own. */
  readonly nodeTypes: ReadonlyMap<string, string>;
  /** The slots of the flow's top-level names: paths of node data are resolved to them once. */
  readonly layout: FlowLayout;
  readonly problems: Problem[];
}
