// Decision flows (`workflow`, spec/rule-format.md §8.2). Compiled once: the graph (regions, run order, loop
// bodies) and every node's expressions and conditions. A solve walks the regions in order:
//   - a node runs when every node it waits for is done and sent it a run signal;
//   - a node with a canceled predecessor (an unselected Switch branch) is canceled too (§11 W1);
//   - a loop node runs its body once per item, with fresh node states per iteration; `currentItem` keeps the
//     last item afterwards (§11 W3);
//   - the first node error ends the solve with that node's message (§11 W2).
import { RuleError, ValidationError } from '../errors.ts';
import type { Problem } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, SolveResult } from '../types.ts';
import { cloneJson } from '../cells/index.ts';
import { checkDeadline } from '../deadline.ts';
import { FlowLayout, FlowScope, OUTPUT_SLOT } from './flow-scope.ts';
import { flowRuleIdentity } from '../rule-identity.ts';
import { buildFlowGraph } from './workflow-graph.ts';
import type { FlowGraph, FlowNode, Region } from './workflow-graph.ts';
import { compileNode, flowCellEnvironment } from './workflow-nodes.ts';
import { nodeKey } from './node-helpers.ts';
import type { NodeExecutor, NodeOutcome } from './node-executor.ts';
import type { MaybePromise } from '../maybe-promise.ts';

/** Most nodes a decision flow may have (DecisionRules' documented limit). */
export const MAX_WORKFLOW_NODES = 150;

/** One trace entry per node that ran or was canceled (in run order; loop bodies once per iteration). */
export interface WorkflowTraceEntry {
  nodeId: string;
  name: string | undefined;
  type: string;
  status: 'done' | 'canceled';
  /** Indexes of the enclosing loops' current items, outermost first; absent at the top level. */
  iteration?: number[];
  input?: unknown;
  output?: unknown;
}

export const compileWorkflow: RuleCompiler<'workflow'> = (model, options) => {
  const doc = model.document;
  const identity = flowRuleIdentity(doc);
  if (model.nodes.length > MAX_WORKFLOW_NODES) {
    throw new ValidationError([{ path: 'workflowData.nodes', message: `a decision flow may have at most ${MAX_WORKFLOW_NODES} nodes (this one has ${model.nodes.length})` }]);
  }

  const problems: Problem[] = [];
  const nodes: FlowNode[] = [];
  const connectors = new Map<string, { node: number; direction: string; subType: string }>();
  const endConnectors = new Set<string>();
  for (const node of model.nodes) {
    if (node.type === 'END') {
      for (const connector of node.connectors) endConnectors.add(connector.id);
      continue;
    }
    const index = nodes.length;
    // The model's node with the engine's numbering and label; its type and data stay paired (FlowNode).
    nodes.push({ index, id: node.id, type: node.type, name: node.name, label: node.name ?? node.id, path: node.path, version: node.version, data: node.data } as FlowNode);
    for (const connector of node.connectors) connectors.set(connector.id, { node: index, direction: connector.type, subType: connector.subType });
  }
  for (const node of nodes) {
    if (node.name === 'input' || node.name === 'output') {
      problems.push({ path: `${node.path}.name`, message: `a node cannot be named "${node.name}": that name is the flow's ${node.name}` });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);

  const graph = buildFlowGraph(nodes, connectors, model.connections, endConnectors);

  const nodeTypes = new Map(nodes.flatMap((node) => (node.name === undefined ? [] : [[node.name, node.type] as const])));
  const layout = new FlowLayout(ruleObjects(nodes));
  const cc = { env: flowCellEnvironment(options), nodeTypes, layout, problems };
  const executors = nodes.map((node) => compileNode(node, cc));
  if (problems.length > 0) throw new ValidationError(problems);
  const keySlots = nodes.map((node) => layout.slotOf(nodeKey(node)));

  const flow = new WorkflowRunner(graph, executors, chainOf(graph), layout, keySlots);
  const compiled: CompiledRule = {
    type: 'workflow',
    ...identity,
    async: true,
    dependencies: uniqueRefs(executors.flatMap((executor) => executor.ruleRefs)),
    evaluate: (input, ctx) => flow.solve(input, ctx),
  };
  return compiled;
};

/**
 * The names only a BUSINESS_RULE node writes (FlowLayout): a named rule node no other node shares its key with.
 * Unnamed nodes are keyed by id, which Assign and Append targets are not checked against, so they are left out.
 */
function ruleObjects(nodes: readonly FlowNode[]): Set<string> {
  const count = new Map<string, number>();
  for (const node of nodes) count.set(nodeKey(node), (count.get(nodeKey(node)) ?? 0) + 1);
  return new Set(nodes.filter((node) => node.type === 'BUSINESS_RULE' && node.name !== undefined && count.get(node.name) === 1).map((node) => node.name!));
}

function uniqueRefs(refs: readonly RuleRef[]): RuleRef[] {
  const seen = new Map<string, RuleRef>();
  for (const ref of refs) seen.set(`${ref.idOrAlias}@${ref.version ?? 'latest'}`, ref);
  return [...seen.values()];
}

type NodeStatus = 'done' | 'canceled';

/** Node types that run the same in a chain as in the region walk when nothing traces: no branch, no loop body. */
const CHAIN_TYPES: ReadonlySet<string> = new Set(['START', 'BUSINESS_RULE', 'DATA_MANIPULATION', 'VARIABLES']);

/**
 * The nodes an untraced solve runs, in order, when the walk cannot depend on the solve: every node is of a chain
 * type (no Switch, so no node is ever canceled; no loop body, so a rule node's loop only sets its state) and the
 * flow has no loop regions. A node runs when it is START, or when all the nodes it waits for ran, as #runRegion
 * decides; START itself only gives its trace entry, so it is left out. Undefined: the flow needs the region walk.
 */
function chainOf(graph: FlowGraph): number[] | undefined {
  const ran = new Array<boolean>(graph.nodes.length).fill(false);
  const chain: number[] = [];
  if (graph.top.order.length !== graph.nodes.length) return undefined;
  for (const index of graph.top.order) {
    const node = graph.nodes[index]!;
    const plan = graph.plans[index]!;
    if (!CHAIN_TYPES.has(node.type) || (plan.body !== undefined && plan.body.order.length > 0) || plan.loopEntry) return undefined;
    if (node.type === 'START') ran[index] = true;
    else if (plan.predecessors.length > 0 && plan.predecessors.every((predecessor) => ran[predecessor.node])) {
      ran[index] = true;
      chain.push(index);
    }
  }
  return chain;
}

/**
 * One run of a region (the top level, or one iteration of a loop body): which nodes are done or canceled and
 * what each Switch selected. The walk is written once (engine/maybe-promise.ts): a node answers directly or with a
 * promise, and only a node that waits makes the walk continue later, from the next node; a flow whose nodes never
 * wait runs as one synchronous chain.
 */
class RegionRun {
  /** By node index (arrays, not maps: a flow has at most MAX_WORKFLOW_NODES nodes and runs many times). */
  readonly status: (NodeStatus | undefined)[];
  readonly selected: (ReadonlySet<string> | undefined)[];
  readonly region: Region;
  readonly iteration: number[];

  constructor(region: Region, iteration: number[], nodeCount: number) {
    this.region = region;
    this.iteration = iteration;
    this.status = new Array<NodeStatus | undefined>(nodeCount);
    this.selected = new Array<ReadonlySet<string> | undefined>(nodeCount);
  }
}

/** The state of one solve, shared by its regions. */
interface FlowSolve {
  readonly scope: FlowScope;
  readonly ctx: EvaluationContext;
  readonly trace: WorkflowTraceEntry[] | undefined;
}

class WorkflowRunner {
  readonly #graph: FlowGraph;
  readonly #executors: readonly NodeExecutor[];

  /** chainOf(graph): the nodes an untraced solve runs in order, when that does not depend on the solve. */
  readonly #chain: readonly number[] | undefined;
  readonly #layout: FlowLayout;
  /** By node index: the slot of the node's name (a loop node's state lives there). */
  readonly #keySlots: readonly number[];

  constructor(graph: FlowGraph, executors: readonly NodeExecutor[], chain: readonly number[] | undefined, layout: FlowLayout, keySlots: readonly number[]) {
    this.#graph = graph;
    this.#executors = executors;
    this.#chain = chain;
    this.#layout = layout;
    this.#keySlots = keySlots;
  }

  solve(input: unknown, ctx: EvaluationContext): MaybePromise<SolveResult> {
    const chained = this.#chain !== undefined && !ctx.trace;
    const solve: FlowSolve = { scope: new FlowScope(this.#layout, input, chained), ctx, trace: ctx.trace ? [] : undefined };
    const done = chained
      ? this.#runChain(solve, this.#chain, 0)
      : this.#runRegion(solve, new RegionRun(this.#graph.top, [], this.#graph.nodes.length), 0);
    return done instanceof Promise ? finishLater(done, solve) : finish(solve);
  }

  /**
   * The untraced run of a chain flow (chainOf): each node in turn, as #runRegion would run them, without the
   * bookkeeping of which node is done (nothing can cancel a node) or trace entries.
   */
  #runChain(solve: FlowSolve, chain: readonly number[], from: number): MaybePromise<void> {
    const { scope, ctx } = solve;
    for (let position = from; position < chain.length; position++) {
      const index = chain[position]!;
      checkDeadline(ctx);
      let outcome: MaybePromise<NodeOutcome>;
      try {
        const executor = this.#executors[index]!;
        outcome = executor.runAlone === undefined ? executor.run(scope, ctx) : executor.runAlone(scope, ctx);
      } catch (error) {
        throw nodeError(error, this.#graph.nodes[index]!);
      }
      if (outcome instanceof Promise) return this.#resumeChain(outcome, solve, chain, position);
      if (outcome.items !== undefined) this.#loopWithoutBody(scope, this.#graph.nodes[index]!, outcome.items);
    }
    return undefined;
  }

  #resumeChain(pending: Promise<NodeOutcome>, solve: FlowSolve, chain: readonly number[], position: number): Promise<void> {
    const node = this.#graph.nodes[chain[position]!]!;
    return pending.then(
      (outcome) => {
        solve.scope.forgetReads();
        if (outcome.items !== undefined) this.#loopWithoutBody(solve.scope, node, outcome.items);
        return this.#runChain(solve, chain, position + 1);
      },
      (error: unknown) => {
        throw nodeError(error, node);
      },
    );
  }

  /** A loop node whose body is empty (chainOf): #afterNode and #runLoop leave only the state after the loop. */
  #loopWithoutBody(scope: FlowScope, node: FlowNode, items: readonly unknown[]): void {
    lastItemCurrent(this.#loopState(scope, node, items), items, 0);
  }

  /** Runs the region's nodes from position `from` in its order; continues after a node that waits once it settles. */
  #runRegion(solve: FlowSolve, run: RegionRun, from: number): MaybePromise<void> {
    const order = run.region.order;
    const { status, selected } = run;
    for (let position = from; position < order.length; position++) {
      const index = order[position]!;
      const node = this.#graph.nodes[index]!;
      const plan = this.#graph.plans[index]!;
      if (plan.predecessors.length === 0 && !plan.loopEntry && node.type !== 'START') continue;
      let reached = true;
      let canceled = false;
      for (const predecessor of plan.predecessors) {
        const state = status[predecessor.node];
        if (state === undefined) reached = false;
        else if (state === 'canceled') canceled = true;
        else {
          const chosen = selected[predecessor.node];
          if (chosen !== undefined && !predecessor.connectors.some((connector) => chosen.has(connector))) canceled = true;
        }
      }
      // A node waiting on one that never ran (not connected to START) never gets all its signals.
      if (!reached) continue;
      if (canceled) {
        status[index] = 'canceled';
        solve.trace?.push(entry(node, 'canceled', run.iteration));
        continue;
      }
      checkDeadline(solve.ctx);
      let outcome: MaybePromise<NodeOutcome>;
      try {
        outcome = this.#executors[index]!.run(solve.scope, solve.ctx);
      } catch (error) {
        throw nodeError(error, node);
      }
      if (outcome instanceof Promise) return this.#resumeRegion(outcome, solve, run, position);
      const loop = this.#afterNode(solve, run, position, outcome);
      if (loop !== undefined) return this.#resumeAfterLoop(loop, solve, run, position);
    }
    return undefined;
  }

  // The continuations after a wait are methods of their own, not arrows in the loops (engine/maybe-promise.ts).

  /** Once the node at `position` settles: records it, runs its loop, then the nodes after it. */
  #resumeRegion(pending: Promise<NodeOutcome>, solve: FlowSolve, run: RegionRun, position: number): Promise<void> {
    const node = this.#graph.nodes[run.region.order[position]!]!;
    return pending.then(
      (outcome) => {
        const loop = this.#afterNode(solve, run, position, outcome);
        return loop === undefined ? this.#runRegion(solve, run, position + 1) : this.#resumeAfterLoop(loop, solve, run, position);
      },
      (error: unknown) => {
        throw nodeError(error, node);
      },
    );
  }

  #resumeAfterLoop(loop: Promise<void>, solve: FlowSolve, run: RegionRun, position: number): Promise<void> {
    return loop.then(() => this.#runRegion(solve, run, position + 1));
  }

  /** Records a node that ran and runs its loop body; a promise only when the body waits. */
  #afterNode(solve: FlowSolve, run: RegionRun, position: number, outcome: NodeOutcome): Promise<void> | undefined {
    const index = run.region.order[position]!;
    const node = this.#graph.nodes[index]!;
    run.status[index] = 'done';
    run.selected[index] = outcome.selected;
    if (solve.trace) {
      const done = entry(node, 'done', run.iteration);
      if (outcome.input !== undefined) done.input = cloneJson(outcome.input);
      if (outcome.output !== undefined) done.output = cloneJson(outcome.output);
      solve.trace.push(done);
    }
    if (!outcome.items) return undefined;
    const state = this.#loopState(solve.scope, node, outcome.items);
    const looped = this.#runLoop(solve, node, state, this.#graph.plans[index]!.body, outcome.items, run.iteration, 0);
    return looped instanceof Promise ? looped : undefined;
  }

  /** The loop node's object at the start of a run of its loop. */
  #loopState(scope: FlowScope, node: FlowNode, items: readonly unknown[]): Record<string, unknown> {
    const state = scope.nodeObject(this.#keySlots[node.index]!);
    // A new run of the loop node starts clean: an item from an earlier run must not look current. (Deleting only
    // what is there: a delete turns the object into a slow dictionary, and a first run has nothing to delete.)
    if (Object.hasOwn(state, 'currentItem')) delete state.currentItem;
    if (Object.hasOwn(state, 'index')) delete state.index;
    state.length = items.length;
    return state;
  }

  /** Runs the loop body once per item from item `from` on; continues after an iteration that waits. */
  #runLoop(solve: FlowSolve, node: FlowNode, state: Record<string, unknown>, body: Region | undefined, items: readonly unknown[], iteration: number[], from: number): MaybePromise<void> {
    if (body === undefined || body.order.length === 0) {
      lastItemCurrent(state, items, from);
      return undefined;
    }
    for (let i = from; i < items.length; i++) {
      state.currentItem = items[i];
      state.index = i;
      checkDeadline(solve.ctx);
      const ran = this.#runRegion(solve, new RegionRun(body, [...iteration, i], this.#graph.nodes.length), 0);
      if (ran instanceof Promise) return this.#resumeLoop(ran, solve, node, body, items, iteration, i);
    }
    return undefined;
  }

  #resumeLoop(pending: Promise<void>, solve: FlowSolve, node: FlowNode, body: Region, items: readonly unknown[], iteration: number[], i: number): Promise<void> {
    // After a wait the node's object is looked up again, as on every run of the loop.
    return pending.then(() => this.#runLoop(solve, node, solve.scope.nodeObject(this.#keySlots[node.index]!), body, items, iteration, i + 1));
  }
}

/**
 * A loop whose body is empty (a rule node with nothing on its loop connector) from item `from` on: nothing runs per
 * item, only the state after the loop.
 */
function lastItemCurrent(state: Record<string, unknown>, items: readonly unknown[], from: number): void {
  if (items.length > from) {
    state.currentItem = items[items.length - 1];
    state.index = items.length - 1;
  }
}

function finishLater(done: Promise<void>, solve: FlowSolve): Promise<SolveResult> {
  return done.then(() => finish(solve));
}

/** Decision flows have only the STANDARD response shape (§3.1). */
function finish(solve: FlowSolve): SolveResult {
  const result: Json[] = [solve.scope.get(OUTPUT_SLOT) as Json];
  return solve.trace ? { result, trace: solve.trace } : { result };
}

function entry(node: FlowNode, status: NodeStatus, iteration: number[]): WorkflowTraceEntry {
  const base: WorkflowTraceEntry = { nodeId: node.id, name: node.name, type: node.type, status };
  if (iteration.length > 0) base.iteration = [...iteration];
  return base;
}

/** A node's rule error, named after the node; timeouts, rules still to be loaded and faults of ours pass through. */
function nodeError(error: unknown, node: FlowNode): unknown {
  if (error instanceof RuleError) return new RuleError(error.message, `${node.type} node "${node.label}"`);
  return error;
}
