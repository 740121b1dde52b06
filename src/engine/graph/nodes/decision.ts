// decisionNode (zen nodes/decision): solves another rule of the space, named by `content.key` (an alias, an id,
// or a GoRules file name: `other.json`, `folder/other.json`), through the solve's RuleResolver as flows call
// rules. A decision graph answers its output object (its `$nodes` see the caller's as zen's do); any other rule
// type answers its result array. A rule reached again through its own sub-decisions is a cycle, refused.
import { enterCall } from '../../context.ts';
import { RuleError } from '../../errors.ts';
import type { CompiledRule, EvaluationContext, SolveResult } from '../../types.ts';
import { decisionKeyToRef } from '../../../rules/decision-graph.ts';
import type { JdmDecisionNode } from '../../../rules/decision-graph.ts';
import type { ExpressionCompiler } from '../expressions.ts';
import { nodeLabel } from '../node.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from '../node.ts';
import { readTransform, transformed } from '../transform.ts';

/** How a compiled decision graph is solved as a sub-decision (./compile.ts attaches it to its CompiledRule). */
export interface SubGraph {
  evaluateGraph(input: unknown, ctx: EvaluationContext, parentNodes: Record<string, unknown> | undefined, chain: readonly string[]): NodeOutcome | Promise<NodeOutcome>;
}

export const SUB_GRAPH = Symbol('decision graph');

export function ruleLabel(rule: Pick<CompiledRule, 'ruleAlias' | 'ruleId' | 'name'>): string {
  return rule.ruleAlias ?? rule.ruleId ?? rule.name;
}

export function compileDecisionNode(node: JdmDecisionNode, path: string, compiler: ExpressionCompiler): CompiledNode {
  const content = node.content;
  const ref = decisionKeyToRef(content.key);
  const base = { id: node.id, name: node.name, type: node.type, readsNodes: true } as const;
  const where = nodeLabel(base);

  const handle = (input: unknown, run: NodeRun): NodeOutcome | Promise<NodeOutcome> => {
    const { ctx } = run;
    if (!ctx.resolver) throw new RuleError(`cannot solve sub-decision ${JSON.stringify(content.key)}: no rule resolver is configured`, where);
    const rule = ctx.resolver.resolve(ref, undefined);
    if (!rule) throw new RuleError(`sub-decision ${JSON.stringify(content.key)} names no rule of this space (looked for ${JSON.stringify(ref)})`, where);
    const label = ruleLabel(rule);
    const at = run.chain.indexOf(label);
    if (at >= 0) throw new RuleError(`sub-decision cycle: ${[...run.chain.slice(at), label].map((n) => JSON.stringify(n)).join(' -> ')}`, where);
    const child = enterCall(ctx, label, {});
    const graph = (rule as unknown as { [SUB_GRAPH]?: SubGraph })[SUB_GRAPH];
    if (graph) return graph.evaluateGraph(input, child, run.nodes(), run.chain);
    const solved = rule.evaluate(input, child);
    return solved instanceof Promise ? solved.then(answerOf) : answerOf(solved);
  };
  return { ...base, async: true, evaluate: transformed(base, readTransform(content, `${path}.content`, compiler), handle) };
}

function answerOf(solved: SolveResult): NodeOutcome {
  return solved.trace ? { output: solved.result, traceData: solved.trace } : { output: solved.result };
}
