// Walks a compiled decision tree (§5.2): blocks top to bottom; an IF runs its body when its conditions hold
// (conditions ANDed, logic_or = OR of its logic_group children, a group = AND); an ELSE runs when no IF since
// the previous ELSE of the same list fired (§11 Tr1); THEN writes its results, a later write of the same path
// winning ("the lowest THEN wins").
//
// Each step is written once: a condition or result that waits answers with a promise (engine/maybe-promise.ts)
// and the walk continues from the next node once it settles; a tree that never waits is walked without one.
import type { Problem } from '../errors.ts';
import { checkDeadline } from '../deadline.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, SolveResult } from '../types.ts';
import type { MaybePromise } from '../maybe-promise.ts';
import type { RuleIdentity } from '../rule-identity.ts';
import type { CompiledCondition, ConditionExplanation } from '../cells/condition.ts';
import type { CompiledValue } from '../cells/result.ts';
import type { OutputLayout } from '../cells/output-layout.ts';
import { RuleScope } from '../cells/scope.ts';

export type ConditionNode =
  | { readonly kind: 'condition'; readonly id: string; readonly path: string; readonly read: (input: unknown) => unknown; readonly condition: CompiledCondition }
  | { readonly kind: 'or' | 'group'; readonly id: string; readonly items: readonly ConditionNode[] };

export interface ResultNode {
  readonly id: string;
  readonly path: string;
  readonly slot: number;
  readonly value: CompiledValue;
}

export type BlockNode =
  | { readonly kind: 'if'; readonly id: string; readonly conditions: readonly ConditionNode[]; readonly body: readonly BlockNode[] }
  | { readonly kind: 'else'; readonly id: string; readonly body: readonly BlockNode[] }
  | { readonly kind: 'then'; readonly id: string; readonly results: readonly ResultNode[] };

/** One evaluated node in the debug trace (§10.1). */
export interface TreeTraceEntry {
  nodeId: string;
  type: string;
  evaluationResult: boolean;
  inputProperty?: string;
  inputValue?: unknown;
  operator?: string;
  value?: unknown;
  evaluationError?: string;
  outputProperty?: string;
}

export interface DecisionTreeParts extends RuleIdentity {
  readonly blocks: readonly BlockNode[];
  readonly layout: OutputLayout;
  readonly variables: ReadonlyMap<string, unknown>;
  readonly async: boolean;
  readonly dependencies: readonly RuleRef[];
  /** Function cells that did not compile (CompiledRule.warnings). */
  readonly warnings?: readonly Problem[];
}

interface Walk {
  readonly input: unknown;
  readonly scope: RuleScope;
  readonly values: unknown[];
  readonly ctx: EvaluationContext;
  readonly trace: TreeTraceEntry[] | undefined;
}

const NODE_TYPE: Readonly<Record<string, string>> = { or: 'logic_or', group: 'logic_group', condition: 'condition' };

export class DecisionTree implements CompiledRule {
  readonly type = 'decision-tree' as const;
  readonly ruleId: string | undefined;
  readonly ruleAlias: string | undefined;
  readonly version: number | undefined;
  readonly name: string;
  readonly async: boolean;
  readonly dependencies: readonly RuleRef[];
  readonly warnings: readonly Problem[];
  private readonly blocks: readonly BlockNode[];
  private readonly layout: OutputLayout;
  private readonly variables: ReadonlyMap<string, unknown>;

  constructor(parts: DecisionTreeParts) {
    this.ruleId = parts.ruleId;
    this.ruleAlias = parts.ruleAlias;
    this.version = parts.version;
    this.name = parts.name;
    this.blocks = parts.blocks;
    this.layout = parts.layout;
    this.variables = parts.variables;
    this.async = parts.async;
    this.warnings = parts.warnings ?? [];
    this.dependencies = parts.dependencies;
  }

  evaluate(input: unknown, ctx: EvaluationContext): MaybePromise<SolveResult> {
    const walk = this.startWalk(input, ctx);
    const walked = this.runBlocks(this.blocks, 0, walk, false);
    return walked === undefined ? this.finish(walk) : this.finishLater(walked, walk);
  }

  // The continuations after a wait are methods of their own, not arrows in the loops (engine/maybe-promise.ts).

  private finishLater(pending: Promise<void>, walk: Walk): Promise<SolveResult> {
    return pending.then(() => this.finish(walk));
  }

  private startWalk(input: unknown, ctx: EvaluationContext): Walk {
    const values = new Array<unknown>(this.layout.slotCount);
    const scope = new RuleScope(input, this.variables, this.layout);
    scope.outputValues = values;
    return { input, scope, values, ctx, trace: ctx.trace ? [] : undefined };
  }

  /** STANDARD: `[output]` (`[{}]` when nothing fired, §11 Tr2). ARRAY: each written leaf as a list (§11 R4). */
  private finish(walk: Walk): SolveResult {
    const output = walk.ctx.strategy === 'ARRAY' ? this.layout.buildArrays([walk.values], undefined) : this.layout.build(walk.values);
    const result = [output as Json];
    return walk.trace === undefined ? { result } : { result, trace: walk.trace };
  }

  /**
   * Runs `blocks` from position `from`; `firedSinceElse` tells whether an IF of this list fired since its last ELSE.
   * undefined when done, a promise when a step waited (the rest of the list then runs once it settles).
   */
  private runBlocks(blocks: readonly BlockNode[], from: number, walk: Walk, firedSinceElse: boolean): Promise<void> | undefined {
    for (let i = from; i < blocks.length; i++) {
      const block = blocks[i]!;
      let pending: Promise<void> | undefined;
      if (block.kind === 'if') {
        checkDeadline(walk.ctx);
        const ok = this.allHold(block.conditions, 0, walk);
        if (typeof ok !== 'boolean') return this.resumeIf(ok, blocks, i, walk, firedSinceElse);
        if (ok) firedSinceElse = true;
        pending = this.enterIf(block, ok, walk);
      } else if (block.kind === 'else') {
        walk.trace?.push({ nodeId: block.id, type: 'else', evaluationResult: !firedSinceElse });
        if (!firedSinceElse) pending = this.runBlocks(block.body, 0, walk, false);
        firedSinceElse = false;
      } else {
        walk.trace?.push({ nodeId: block.id, type: 'then', evaluationResult: true });
        pending = this.writeResults(block.results, 0, walk);
      }
      if (pending !== undefined) return this.continueAfter(pending, blocks, i, walk, firedSinceElse);
    }
    return undefined;
  }

  /** Once the conditions of the IF at position `i` settle: enters it or not, then the blocks after it. */
  private resumeIf(pending: Promise<boolean>, blocks: readonly BlockNode[], i: number, walk: Walk, firedSinceElse: boolean): Promise<void> {
    return pending.then((ok) => {
      const block = blocks[i] as Extract<BlockNode, { kind: 'if' }>;
      return this.continueAfter(this.enterIf(block, ok, walk), blocks, i, walk, firedSinceElse || ok);
    });
  }

  /** The rest of `blocks` after position `i`, once `pending` (the step at `i`, if it waited) is done. */
  private continueAfter(pending: Promise<void> | undefined, blocks: readonly BlockNode[], i: number, walk: Walk, firedSinceElse: boolean): Promise<void> | undefined {
    if (pending === undefined) return this.runBlocks(blocks, i + 1, walk, firedSinceElse);
    return this.resumeBlocks(pending, blocks, i, walk, firedSinceElse);
  }

  private resumeBlocks(pending: Promise<void>, blocks: readonly BlockNode[], i: number, walk: Walk, firedSinceElse: boolean): Promise<void> {
    return pending.then(() => this.runBlocks(blocks, i + 1, walk, firedSinceElse));
  }

  private enterIf(block: Extract<BlockNode, { kind: 'if' }>, ok: boolean, walk: Walk): Promise<void> | undefined {
    walk.trace?.push({ nodeId: block.id, type: 'if', evaluationResult: ok });
    return ok ? this.runBlocks(block.body, 0, walk, false) : undefined;
  }

  /** A THEN's results from position `from`, each written where the results after it can read it. */
  private writeResults(results: readonly ResultNode[], from: number, walk: Walk): Promise<void> | undefined {
    for (let i = from; i < results.length; i++) {
      const result = results[i]!;
      const value = result.value.evaluate(walk.scope, walk.ctx);
      if (value instanceof Promise) return this.resumeResults(value, results, i, walk);
      this.write(result, value, walk);
    }
    return undefined;
  }

  private resumeResults(pending: Promise<unknown>, results: readonly ResultNode[], i: number, walk: Walk): Promise<void> {
    return pending.then((value) => {
      this.write(results[i]!, value, walk);
      return this.writeResults(results, i + 1, walk);
    });
  }

  private write(result: ResultNode, value: unknown, walk: Walk): void {
    walk.values[result.slot] = value;
    walk.trace?.push({ nodeId: result.id, type: 'result', evaluationResult: true, outputProperty: result.path, value });
  }

  /** AND over `nodes` from position `from`; an empty list holds (an IF without conditions, §5.2). */
  private allHold(nodes: readonly ConditionNode[], from: number, walk: Walk): MaybePromise<boolean> {
    for (let i = from; i < nodes.length; i++) {
      const ok = this.holds(nodes[i]!, walk);
      if (typeof ok !== 'boolean') return this.resumeHold(ok, nodes, i, walk, false);
      if (!ok) return false;
    }
    return true;
  }

  /** OR over `nodes` from position `from`, stopping at the first that holds. */
  private anyHolds(nodes: readonly ConditionNode[], from: number, walk: Walk): MaybePromise<boolean> {
    for (let i = from; i < nodes.length; i++) {
      const ok = this.holds(nodes[i]!, walk);
      if (typeof ok !== 'boolean') return this.resumeHold(ok, nodes, i, walk, true);
      if (ok) return true;
    }
    return false;
  }

  /** Once the condition at position `i` settles: AND (`any` false) or OR (`any` true) over the ones after it. */
  private resumeHold(pending: Promise<boolean>, nodes: readonly ConditionNode[], i: number, walk: Walk, any: boolean): Promise<boolean> {
    return pending.then((ok) => {
      if (ok === any) return any;
      return any ? this.anyHolds(nodes, i + 1, walk) : this.allHold(nodes, i + 1, walk);
    });
  }

  private holds(node: ConditionNode, walk: Walk): MaybePromise<boolean> {
    if (node.kind === 'condition') {
      const left = node.read(walk.input);
      if (walk.trace === undefined) return node.condition.test(left, walk.scope, walk.ctx);
      const explained = node.condition.explain(left, walk.scope, walk.ctx);
      if (explained instanceof Promise) return this.noteConditionLater(explained, node, left, walk);
      return noteCondition(walk, node, left, explained);
    }
    const result = node.kind === 'or' ? this.anyHolds(node.items, 0, walk) : this.allHold(node.items, 0, walk);
    if (typeof result !== 'boolean') return this.noteGroupLater(result, node, walk);
    return this.noteGroup(node, result, walk);
  }

  private noteConditionLater(pending: Promise<ConditionExplanation>, node: Extract<ConditionNode, { kind: 'condition' }>, left: unknown, walk: Walk): Promise<boolean> {
    return pending.then((explained) => noteCondition(walk, node, left, explained));
  }

  private noteGroupLater(pending: Promise<boolean>, node: Extract<ConditionNode, { kind: 'or' | 'group' }>, walk: Walk): Promise<boolean> {
    return pending.then((result) => this.noteGroup(node, result, walk));
  }

  private noteGroup(node: Extract<ConditionNode, { kind: 'or' | 'group' }>, result: boolean, walk: Walk): boolean {
    walk.trace?.push({ nodeId: node.id, type: NODE_TYPE[node.kind]!, evaluationResult: result });
    return result;
  }
}

/** Adds a traced condition's explanation to the walk's trace; its outcome. */
function noteCondition(walk: Walk, node: Extract<ConditionNode, { kind: 'condition' }>, left: unknown, explained: ConditionExplanation): boolean {
  walk.trace!.push(conditionEntry(node, left, explained.result, explained.value, explained.error));
  return explained.result;
}

function conditionEntry(
  node: Extract<ConditionNode, { kind: 'condition' }>,
  left: unknown,
  result: boolean,
  value: unknown,
  error: string | undefined,
): TreeTraceEntry {
  const entry: TreeTraceEntry = {
    nodeId: node.id,
    type: 'condition',
    evaluationResult: result,
    inputProperty: node.path,
    inputValue: left,
    operator: node.condition.operator,
    value,
  };
  if (error !== undefined) entry.evaluationError = error;
  return entry;
}
