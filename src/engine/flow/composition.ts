// Rule flows (`composition`, spec/rule-format.md §8.1): the dataTree from `start` through rule nodes to `end`.
// Each rule node's input is built from its mappings (any earlier node's output, or the flow input as `start`),
// the node's rule is solved (decision tables FIRST_MATCH, everything else STANDARD) and its first result is
// the node's output; `end`'s mappings build the flow output. A node reached from several parents runs once,
// after all of them (§11 W9).
import { RuleError, ValidationError } from '../errors.ts';
import type { Problem } from '../errors.ts';
import { getAt, parsePath, setAt } from '../path.ts';
import type { PathSegment } from '../path.ts';
import type { RuleCompiler } from '../registry.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, SolveResult } from '../types.ts';
import { cloneJson } from '../cells/index.ts';
import { mergeAsArrays } from './array-merge.ts';
import { buildOutput, outputShape } from './output-layout.ts';
import type { OutputShape } from './output-layout.ts';
import { callColumns, callFirstColumns, callRule, resolveRule } from './call-rule.ts';
import { ColumnPlan } from './column-call.ts';
import { checkDeadline } from '../deadline.ts';
import { flowRuleIdentity } from '../rule-identity.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import type { CompositionNode } from '../../rules/model/composition.ts';

/** Most rule nodes a rule flow may have (DecisionRules' on-premise RF_NODE_LIMIT default). */
export const MAX_RULE_FLOW_NODES = 30;

/** Trace entry of a rule flow node (§10.1). */
export interface CompositionTraceEntry {
  globalVariable: string;
  input: unknown;
  output: unknown;
}

interface Mapping {
  readonly target: readonly PathSegment[];
  readonly source: string;
  /** Empty: the source node's whole output. */
  readonly from: readonly PathSegment[];
  /** Where a solve keeps the source's value (CompositionRun.outputs), set once the run order is known; -1: none. */
  slot: number;
  /**
   * Where an untraced solve keeps the value read (CompositionRun.reads), shared by the mappings reading the same
   * path of the same slot, when it cannot change during the solve (assignSlots); -1: read each time.
   */
  stable: number;
}

interface TreeNode {
  readonly name: string;
  readonly path: string;
  readonly baseId: string | undefined;
  readonly version: number | undefined;
  readonly mapping: readonly Mapping[];
  /** Names this node must run after: its parents and the sources of its mappings. */
  readonly after: Set<string>;
  /** Which mapping feeds each input column of the node's rule, when it needs no input object. */
  readonly columns: ColumnPlan;
}

export const compileComposition: RuleCompiler<'composition'> = (model) => {
  const identity = flowRuleIdentity(model.document);
  const problems: Problem[] = [];
  const nodes = new Map<string, TreeNode>();
  const startName = collect(model.root, undefined, nodes);

  for (const node of nodes.values()) {
    for (const mapping of node.mapping) {
      if (mapping.source === startName || mapping.source === 'start') continue;
      if (!nodes.has(mapping.source)) {
        problems.push({ path: `${node.path}.mapping`, message: `reads from unknown node "${mapping.source}" (no node of this flow has that globalVariable)` });
      } else node.after.add(mapping.source);
    }
  }
  const ruleNodes = [...nodes.values()].filter((node) => node.name !== startName && node.baseId !== undefined);
  const outputNodes = [...nodes.values()].filter((node) => node.name !== startName && node.baseId === undefined);
  if (ruleNodes.length > MAX_RULE_FLOW_NODES) {
    problems.push({ path: 'dataTree', message: `a rule flow may have at most ${MAX_RULE_FLOW_NODES} rule nodes (this one has ${ruleNodes.length})` });
  }
  if (outputNodes.length === 0) problems.push({ path: 'dataTree', message: 'the rule flow has no end node (a node without a rule whose mapping builds the output)' });
  if (problems.length > 0) throw new ValidationError(problems);
  const order = runOrder(ruleNodes, startName);
  const slots = assignSlots(order, startName, nodes);
  // The one end node's object (the usual case) built from templates when every value is there (output-layout.ts).
  const endShape = outputNodes.length === 1 ? outputShape(outputNodes[0]!.mapping.map((entry) => entry.target), 0) : undefined;

  const dependencies = uniqueRefs(ruleNodes.map((node) => (node.version === undefined ? { idOrAlias: node.baseId! } : { idOrAlias: node.baseId!, version: node.version })));

  // Written once (engine/maybe-promise.ts): a node whose rule waits makes the nodes after it wait; a flow whose
  // rules never wait runs as one synchronous chain.
  function runNodes(run: CompositionRun, from: number): MaybePromise<SolveResult> {
    const { ctx, outputs } = run;
    for (let i = from; i < order.length; i++) {
      const node = order[i]!;
      checkDeadline(ctx);
      const rule = resolveRule(ctx, { idOrAlias: node.baseId!, version: node.version }, `rule flow node "${node.name}"`);
      if (!rule) {
        throw new RuleError(`rule "${node.baseId}" ${node.version === undefined ? '(latest version)' : `version ${node.version}`} was not found`, `rule flow node "${node.name}"`);
      }
      const strategy = rule.type === 'decision-table' ? 'FIRST_MATCH' : 'STANDARD';
      // A table reading only its columns gets their values; the node input object is built only when needed.
      const sources = run.trace === undefined ? node.columns.sourcesFor(rule) : undefined;
      if (sources !== undefined && strategy === 'FIRST_MATCH') {
        // The matching row's shared output itself: outputs are only read, and copied where they are passed on.
        let output: Json | undefined;
        try {
          output = callFirstColumns(rule, columnValues(node.mapping, sources, run), ctx);
        } catch (error) {
          throw nodeError(error, node);
        }
        outputs[i + 1] = output ?? {};
        continue;
      }
      const nodeInput = sources === undefined ? buildObject(node.mapping, run) : undefined;
      let result: MaybePromise<Json[]>;
      try {
        result = nodeInput === undefined
          ? callColumns(rule, columnValues(node.mapping, sources!, run), ctx, strategy)
          : (callRule(rule, nodeInput, ctx, strategy) as MaybePromise<Json[]>);
      } catch (error) {
        throw nodeError(error, node);
      }
      if (result instanceof Promise) return resumeNodes(result, run, i, nodeInput);
      recordNode(run, i, nodeInput, result);
    }
    return finish(run);
  }

  function resumeNodes(pending: Promise<Json[]>, run: CompositionRun, i: number, nodeInput: Record<string, unknown> | undefined): Promise<SolveResult> {
    const node = order[i]!;
    return pending.then(
      (result) => {
        // While the rule waited, the caller may have changed its input object: what was read is read again.
        if (run.reads >= 0) run.outputs.fill(undefined, run.reads);
        recordNode(run, i, nodeInput, result);
        return runNodes(run, i + 1);
      },
      (error: unknown) => {
        throw nodeError(error, node);
      },
    );
  }

  function finish(run: CompositionRun): SolveResult {
    const { trace } = run;
    let flowOutput: Record<string, unknown> | undefined;
    for (const node of outputNodes) {
      const built = (endShape !== undefined && trace === undefined ? builtOutput(node.mapping, endShape, run) : undefined) ?? buildObject(node.mapping, run);
      // One end node (the usual case): its object is the output, as copying its keys into {} would give.
      if (flowOutput === undefined && outputNodes.length === 1) flowOutput = built;
      else for (const key of Object.keys(built)) setAt((flowOutput ??= {}), [key], built[key]);
      trace?.push({ globalVariable: node.name, input: cloneJson(built), output: cloneJson(built) });
    }
    const value = flowOutput as Json;
    const result = run.ctx.strategy === 'ARRAY' ? [mergeAsArrays([value])] : [value];
    return trace ? { result, trace } : { result };
  }

  function evaluate(input: unknown, ctx: EvaluationContext): MaybePromise<SolveResult> {
    // Untraced, the values of stable reads follow the slots (CompositionRun.reads).
    const reads = ctx.trace || slots.stableReads === 0 ? -1 : order.length + 1;
    const outputs = new Array<unknown>(reads < 0 ? order.length + 1 : reads + slots.stableReads);
    outputs[0] = input;
    if (slots.start !== 0) outputs[slots.start] = input;
    return runNodes({ ctx, outputs, reads, trace: ctx.trace ? [] : undefined, order }, 0);
  }

  const compiled: CompiledRule = {
    type: 'composition',
    ...identity,
    async: true,
    dependencies,
    evaluate,
  };
  return compiled;
};

/** One solve of a rule flow. */
interface CompositionRun {
  readonly ctx: EvaluationContext;
  /** The values mappings read, by slot (assignSlots): the flow input at 0, then each rule node's output once it ran. */
  readonly outputs: unknown[];
  /**
   * Where `outputs` keeps the values of stable reads (Mapping.stable), after the slots; -1 when not kept (traced).
   * Undefined there: not read yet (or missing).
   */
  readonly reads: number;
  readonly trace: CompositionTraceEntry[] | undefined;
  readonly order: readonly TreeNode[];
}

/**
 * The output of the node at position `i` of the run order (§11 W8: a rule that gave nothing, such as a table
 * without a matching row, leaves {}).
 */
function recordNode(run: CompositionRun, i: number, nodeInput: Record<string, unknown> | undefined, result: Json[]): void {
  const output = result[0] ?? {};
  run.outputs[i + 1] = output;
  run.trace?.push({ globalVariable: run.order[i]!.name, input: cloneJson(nodeInput), output: cloneJson(output) });
}

/**
 * Slots of the values a solve keeps, fixed once the run order is known (an array per solve, not a map by name):
 * the input at 0 (under the root's name and `start`), the rule node at position i of the run order at i + 1.
 * A mapping reading a node that never gets a value (an end node) gets -1. A rule node named `start` under a root
 * of another name shares its slot with `start`, which holds the input until that node ran, as one map entry would.
 *
 * A path below a slot is stable (Mapping.stable) when the slot is written at most once per solve before anything
 * reads it: the input's (nothing writes it, nor inside it: every node gets copies) and a rule node's (written when
 * it ran, and every node reading it runs after it), but not a `start` slot shared with a rule node.
 */
function assignSlots(order: readonly TreeNode[], startName: string, nodes: ReadonlyMap<string, TreeNode>): { start: number; stableReads: number } {
  const slotOf = new Map<string, number>([[startName, 0]]);
  order.forEach((node, i) => slotOf.set(node.name, i + 1));
  if (!slotOf.has('start')) slotOf.set('start', 0);
  const start = slotOf.get('start')!;
  const stable = new Map<string, number>();
  for (const node of nodes.values()) {
    for (const mapping of node.mapping) {
      mapping.slot = slotOf.get(mapping.source) ?? -1;
      if (mapping.slot < 0 || mapping.from.length === 0 || (mapping.slot === start && start !== 0)) continue;
      const key = JSON.stringify([mapping.slot, mapping.from]);
      if (!stable.has(key)) stable.set(key, stable.size);
      mapping.stable = stable.get(key)!;
    }
  }
  return { start, stableReads: stable.size };
}

/** A rule error of a node's rule, named after the node; other failures pass through. */
function nodeError(error: unknown, node: TreeNode): unknown {
  return error instanceof RuleError ? new RuleError(error.message, `rule flow node "${node.name}"`) : error;
}

/**
 * Walks the model's tree, merging nodes that appear under several parents (each runs once, after all of them).
 * Returns the root's name.
 */
function collect(read: CompositionNode, parent: string | undefined, nodes: Map<string, TreeNode>): string {
  const name = read.name;
  let node = nodes.get(name);
  if (!node) {
    const mapping = read.mapping.map((entry): Mapping => ({ target: parsePath(entry.key), source: entry.source, from: entry.sourceVariable === undefined ? [] : parsePath(entry.sourceVariable), slot: -1, stable: -1 }));
    node = {
      name,
      path: read.path,
      baseId: read.baseId,
      version: versionOf(read.version),
      mapping,
      after: new Set(),
      columns: new ColumnPlan(mapping.map((entry) => entry.target)),
    };
    nodes.set(name, node);
  }
  if (parent !== undefined) node.after.add(parent);
  for (const child of read.children) collect(child, name, nodes);
  return name;
}

/** -1, null, "latest" or a missing version mean the latest published version. */
function versionOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** The value a mapping reads: in its source's slot, at its path; a stable path's value read once per solve. */
function sourceValue(entry: Mapping, run: CompositionRun): unknown {
  const { outputs, reads } = run;
  if (entry.slot < 0) return undefined;
  if (reads < 0 || entry.stable < 0) return getAt(outputs[entry.slot], entry.from);
  const at = reads + entry.stable;
  const known = outputs[at];
  if (known !== undefined) return known;
  return (outputs[at] = getAt(outputs[entry.slot], entry.from));
}

function buildObject(mapping: readonly Mapping[], run: CompositionRun): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  for (const entry of mapping) {
    const value = sourceValue(entry, run);
    // A value the source does not have stays missing (it is not written as null).
    if (value !== undefined) setAt(built, entry.target, cloneJson(value));
  }
  return built;
}

/**
 * buildObject when every value is there (then the keys it writes do not depend on the values): the copies, then the
 * object built from `shape`'s templates at once. Undefined when a value is missing.
 */
function builtOutput(mapping: readonly Mapping[], shape: OutputShape, run: CompositionRun): Record<string, unknown> | undefined {
  const values = new Array<unknown>(mapping.length);
  for (let i = 0; i < mapping.length; i++) {
    const value = sourceValue(mapping[i]!, run);
    if (value === undefined) return undefined;
    values[i] = cloneJson(value);
  }
  return buildOutput(shape, values);
}

/** The values buildObject would write at the rule's column paths (`sources`: ColumnPlan.sourcesFor). */
function columnValues(mapping: readonly Mapping[], sources: readonly number[], run: CompositionRun): unknown[] {
  const values = new Array<unknown>(sources.length);
  for (let i = 0; i < sources.length; i++) {
    const m = sources[i]!;
    if (m >= 0) values[i] = sourceValue(mapping[m]!, run);
  }
  return values;
}

/** Every node after its parents and mapping sources; ties keep the order in which the tree lists the nodes. */
function runOrder(ruleNodes: readonly TreeNode[], startName: string): TreeNode[] {
  const ruleNames = new Set(ruleNodes.map((node) => node.name));
  const pending = new Map(ruleNodes.map((node) => [node.name, node]));
  const done = new Set<string>([startName, 'start']);
  const order: TreeNode[] = [];
  while (pending.size > 0) {
    const next = [...pending.values()].find((node) => [...node.after].every((name) => done.has(name) || !ruleNames.has(name)));
    if (!next) {
      const stuck = [...pending.keys()].map((name) => `"${name}"`).join(', ');
      throw new ValidationError([{ path: 'dataTree', message: `the rule flow's nodes depend on each other in a cycle (${stuck})` }]);
    }
    pending.delete(next.name);
    done.add(next.name);
    order.push(next);
  }
  return order;
}

function uniqueRefs(refs: readonly RuleRef[]): RuleRef[] {
  const seen = new Map<string, RuleRef>();
  for (const ref of refs) seen.set(`${ref.idOrAlias}@${ref.version ?? 'latest'}`, ref);
  return [...seen.values()];
}
