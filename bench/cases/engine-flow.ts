// (f) A three-rule flow (segment -> discount -> shipping), as a Verdict Decision Flow and Rule Flow and as a ZEN
// graph of three decision tables.
import { compileRule } from '../../src/engine/index.ts';
import type { CompiledRule, RuleResolver } from '../../src/engine/index.ts';
import type { BenchCase } from '../lib/case.ts';
import { ratio } from '../lib/case.ts';
import { race, tryBuild, verdictContender, zen, zenContender } from '../lib/contenders.ts';
import type { FlowSpec } from '../lib/flows.ts';
import { flowRuleDocuments, toJdmFlow, toVerdictComposition, toVerdictWorkflow } from '../lib/flows.ts';
import { flowInputs, flowTables } from './tables.ts';

export function benchFlow(): FlowSpec {
  const t = flowTables();
  return {
    name: 'Bench three-rule flow',
    steps: [
      { name: 'segmentRule', table: t.segment },
      { name: 'discountRule', table: t.discount },
      { name: 'shippingRule', table: t.shipping },
    ],
  };
}

/** The flow's tables compiled and served by id/alias, as the service's compiled-rule cache would. */
export function flowResolver(flow: FlowSpec): RuleResolver {
  const rules = new Map<string, CompiledRule>();
  for (const doc of flowRuleDocuments(flow)) rules.set(doc.ruleAlias as string, compileRule(doc));
  return { resolve: (idOrAlias) => rules.get(idOrAlias) };
}

export const engineFlow: BenchCase = {
  id: 'engine-flow',
  title: '(f) three-rule flow',
  key: 'engine.flow',
  async run(ctx, result) {
    const flow = benchFlow();
    const inputs = flowInputs();
    result.notes.push('json-rules-engine has no flows; not measured');
    let resolver: RuleResolver | undefined;
    const outcome = await race(ctx, result, 'flow', [
      tryBuild(result, 'Verdict decision flow', () => {
        resolver ??= flowResolver(flow);
        return verdictContender(compileRule(toVerdictWorkflow(flow, 'bench-flow')), { resolver }, 'Verdict (decision flow)');
      }),
      tryBuild(result, 'Verdict rule flow', () => {
        resolver ??= flowResolver(flow);
        return verdictContender(compileRule(toVerdictComposition(flow, 'bench-rule-flow')), { resolver }, 'Verdict (rule flow)');
      }),
      tryBuild(result, 'zen', () => zenContender(zen().createDecision(toJdmFlow(flow)), 'single')),
    ], inputs);
    const byLabel = (label: string) => {
      const medians = outcome.measurements.filter((m) => m.label.startsWith(label)).map((m) => m.sample.median);
      return medians.length ? Math.max(...medians) : null;
    };
    const workflow = byLabel('Verdict (decision flow)');
    const composition = byLabel('Verdict (rule flow)');
    const zenBest = outcome.best.zen ?? null;
    result.summary = {
      verdict: workflow, zen: zenBest, ratio: ratio(workflow, zenBest),
      ruleFlow: composition, ratioRuleFlow: ratio(composition, zenBest), inputs: inputs.length,
    };
  },
};
