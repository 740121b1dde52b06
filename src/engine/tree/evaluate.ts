// Walks a compiled decision tree (§5.2): blocks top to bottom; an IF runs its body when its conditions hold
// (conditions ANDed, logic_or = OR of its logic_group children, a group = AND); an ELSE runs when no IF since
// the previous ELSE of the same list fired (§11 Tr1); THEN writes its results, a later write of the same path
// winning ("the lowest THEN wins").
import type { Problem } from '../errors.ts';
import { TimeoutError } from '../errors.ts';
import type { CompiledRule, EvaluationContext, Json, RuleRef, SolveResult } from '../types.ts';
import type { RuleIdentity } from '../rule-identity.ts';
import type { CompiledCondition } from '../cells/condition.ts';
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

  evaluate(input: unknown, ctx: EvaluationContext): SolveResult | Promise<SolveResult> {
    const walk = this.startWalk(input, ctx);
    if (this.async) return this.runBlocksAsync(this.blocks, walk).then(() => this.finish(walk));
    this.runBlocks(this.blocks, walk);
    return this.finish(walk);
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

  private runBlocks(blocks: readonly BlockNode[], walk: Walk): void {
    let firedSinceElse = false;
    for (const block of blocks) {
      if (block.kind === 'if') {
        checkDeadline(walk.ctx);
        const ok = this.allHold(block.conditions, walk);
        walk.trace?.push({ nodeId: block.id, type: 'if', evaluationResult: ok });
        if (ok) {
          firedSinceElse = true;
          this.runBlocks(block.body, walk);
        }
      } else if (block.kind === 'else') {
        walk.trace?.push({ nodeId: block.id, type: 'else', evaluationResult: !firedSinceElse });
        if (!firedSinceElse) this.runBlocks(block.body, walk);
        firedSinceElse = false;
      } else {
        walk.trace?.push({ nodeId: block.id, type: 'then', evaluationResult: true });
        for (const result of block.results) {
          const value = result.value.evaluate(walk.scope, walk.ctx);
          walk.values[result.slot] = value;
          walk.trace?.push({ nodeId: result.id, type: 'result', evaluationResult: true, outputProperty: result.path, value });
        }
      }
    }
  }

  private async runBlocksAsync(blocks: readonly BlockNode[], walk: Walk): Promise<void> {
    let firedSinceElse = false;
    for (const block of blocks) {
      if (block.kind === 'if') {
        checkDeadline(walk.ctx);
        const ok = await this.allHoldAsync(block.conditions, walk);
        walk.trace?.push({ nodeId: block.id, type: 'if', evaluationResult: ok });
        if (ok) {
          firedSinceElse = true;
          await this.runBlocksAsync(block.body, walk);
        }
      } else if (block.kind === 'else') {
        walk.trace?.push({ nodeId: block.id, type: 'else', evaluationResult: !firedSinceElse });
        if (!firedSinceElse) await this.runBlocksAsync(block.body, walk);
        firedSinceElse = false;
      } else {
        walk.trace?.push({ nodeId: block.id, type: 'then', evaluationResult: true });
        for (const result of block.results) {
          const value = result.value.async ? await result.value.evaluateAsync(walk.scope, walk.ctx) : result.value.evaluate(walk.scope, walk.ctx);
          walk.values[result.slot] = value;
          walk.trace?.push({ nodeId: result.id, type: 'result', evaluationResult: true, outputProperty: result.path, value });
        }
      }
    }
  }

  /** AND over conditions; an empty list holds (an IF without conditions, §5.2). */
  private allHold(nodes: readonly ConditionNode[], walk: Walk): boolean {
    for (const node of nodes) if (!this.holds(node, walk)) return false;
    return true;
  }

  private holds(node: ConditionNode, walk: Walk): boolean {
    if (node.kind === 'condition') {
      const left = node.read(walk.input);
      if (walk.trace === undefined) return node.condition.test(left, walk.scope, walk.ctx);
      const explained = node.condition.explain(left, walk.scope, walk.ctx);
      walk.trace.push(conditionEntry(node, left, explained.result, explained.value, explained.error));
      return explained.result;
    }
    let result: boolean;
    if (node.kind === 'or') {
      result = false;
      for (const item of node.items) {
        if (this.holds(item, walk)) {
          result = true;
          break;
        }
      }
    } else {
      result = this.allHold(node.items, walk);
    }
    walk.trace?.push({ nodeId: node.id, type: NODE_TYPE[node.kind]!, evaluationResult: result });
    return result;
  }

  private async allHoldAsync(nodes: readonly ConditionNode[], walk: Walk): Promise<boolean> {
    for (const node of nodes) if (!(await this.holdsAsync(node, walk))) return false;
    return true;
  }

  private async holdsAsync(node: ConditionNode, walk: Walk): Promise<boolean> {
    if (node.kind === 'condition') {
      const left = node.read(walk.input);
      if (walk.trace === undefined) return node.condition.testAsync(left, walk.scope, walk.ctx);
      const explained = await node.condition.explainAsync(left, walk.scope, walk.ctx);
      walk.trace.push(conditionEntry(node, left, explained.result, explained.value, explained.error));
      return explained.result;
    }
    let result: boolean;
    if (node.kind === 'or') {
      result = false;
      for (const item of node.items) {
        if (await this.holdsAsync(item, walk)) {
          result = true;
          break;
        }
      }
    } else {
      result = await this.allHoldAsync(node.items, walk);
    }
    walk.trace?.push({ nodeId: node.id, type: NODE_TYPE[node.kind]!, evaluationResult: result });
    return result;
  }
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

function checkDeadline(ctx: EvaluationContext): void {
  if (ctx.deadline !== Number.POSITIVE_INFINITY && Date.now() > ctx.deadline) throw new TimeoutError(ctx.timeoutMs);
}
