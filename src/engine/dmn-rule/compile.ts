// Compiles a `dmn` rule (src/rules/types/dmn.ts): its typed DMN model through the DMN evaluator (src/engine/dmn).
// A solve's input is input data by name; the answer is one object, decision name -> value. A model that imports
// other models names them by namespace; the service records which rule of the space holds each namespace
// (`dmnImports`), the compiler lists those rules as dependencies and compiles the model with their models at the
// first solve that has them (the resolver hands them out synchronously, loading them first when needed).
import type { RuleCompiler } from '../registry.ts';
import type { CompiledRule, EvaluationContext, Json, SolveResult } from '../types.ts';
import { RuleError, ValidationError } from '../errors.ts';
import type { Problem } from '../errors.ts';
import { compileDmn, evaluateJson } from '../dmn/index.ts';
import type { CompiledDmn } from '../dmn/index.ts';
import type { DmnModel } from '../../rules/dmn/model.ts';
import { DMN_XML_FIELD, dmnImportsOf, dmnModelImports } from '../../rules/dmn-rule.ts';

const DMN_RULE = Symbol('dmn rule');

/** What a compiled `dmn` rule offers the DMN rules importing it: its model and the models it imports. */
interface DmnRuleAccess {
  readonly model: DmnModel;
  modelsImported(ctx: EvaluationContext, seen: Set<string>): DmnModel[];
}

type CompiledDmnRule = CompiledRule & { readonly [DMN_RULE]: DmnRuleAccess };

function isDmnRule(rule: CompiledRule | undefined): rule is CompiledDmnRule {
  return rule !== undefined && DMN_RULE in rule;
}

/** The model's compile problems as document problems: under `dmn`, each naming its element and expression. */
function documentProblems(problems: readonly Problem[]): Problem[] {
  return problems.map((p) => ({ path: DMN_XML_FIELD, message: p.path ? `${p.path}: ${p.message}` : p.message }));
}

export const compileDmnRule: RuleCompiler<'dmn'> = ({ document, dmn: model }) => {
  const links = dmnImportsOf(document);
  const imports = dmnModelImports(model);
  const name = String(document.name);
  // A model that imports others compiles only with them (its elements refer to theirs): at its first solve.
  const own = imports.length === 0 ? compileDmn(model, { imports: [] }) : undefined;
  if (own && own.problems.length > 0) throw new ValidationError(documentProblems(own.problems));

  let last: { imported: readonly DmnModel[]; compiled: CompiledDmn } | undefined;
  const modelsImported = (ctx: EvaluationContext, seen: Set<string>): DmnModel[] => {
    const out: DmnModel[] = [];
    for (const wanted of imports) {
      const link = links.find((l) => l.namespace === wanted.namespace);
      if (!link) throw new RuleError(`the model imports '${wanted.name}' (namespace ${wanted.namespace}), which no DMN rule of the space was found to hold when it was saved`, name);
      if (seen.has(link.namespace)) continue;
      seen.add(link.namespace);
      const rule = ctx.resolver?.resolve(link.ruleId, undefined);
      if (!isDmnRule(rule)) {
        throw new RuleError(`the model imports '${link.name}' (namespace ${link.namespace}) from rule ${link.ruleId}, which has no published DMN version`, name);
      }
      out.push(rule[DMN_RULE].model, ...rule[DMN_RULE].modelsImported(ctx, seen));
    }
    return out;
  };
  const compiledFor = (ctx: EvaluationContext): CompiledDmn => {
    if (own) return own;
    const imported = modelsImported(ctx, new Set([model.namespace]));
    if (last && last.imported.length === imported.length && last.imported.every((m, i) => m === imported[i])) return last.compiled;
    const compiled = compileDmn(model, { imports: imported });
    if (compiled.problems.length > 0) throw new RuleError(documentProblems(compiled.problems).map((p) => p.message).join('; '), name);
    last = { imported, compiled };
    return compiled;
  };

  const rule = {
    type: 'dmn',
    ruleId: typeof document.ruleId === 'string' ? document.ruleId : undefined,
    ruleAlias: typeof document.ruleAlias === 'string' ? document.ruleAlias : undefined,
    version: typeof document.version === 'number' ? document.version : undefined,
    name,
    async: false,
    dependencies: links.map((link) => ({ idOrAlias: link.ruleId })),
  } as const;

  const compiled: CompiledDmnRule = {
    ...rule,
    [DMN_RULE]: { model, modelsImported },
    evaluate(input, ctx): SolveResult {
      const dmn = compiledFor(ctx);
      const selection = ctx.depth === 0 ? ctx.dmnOptions : undefined;
      let evaluation;
      try {
        evaluation = evaluateJson(dmn, input as Record<string, unknown>, {
          now: ctx.now,
          timeZone: ctx.timeZone,
          ...(selection?.decisions ? { decisions: selection.decisions } : {}),
          ...(selection?.decisionService !== undefined ? { decisionService: selection.decisionService } : {}),
        });
      } catch (error) {
        // evaluateJson refuses input that is not an object, and a selection naming no decision or service.
        if (error instanceof Error && !(error instanceof RangeError)) throw new RuleError(error.message, name);
        throw error;
      }
      if (evaluation.warnings.length > 0 && ctx.dmnOptions?.nullOnError !== true) {
        // DMN would answer null where these happened; a solve says what went wrong instead (docs/dmn.md).
        throw new RuleError(evaluation.warnings.join('; '), name);
      }
      const result = [evaluation.results as Json];
      return ctx.trace ? { result, trace: [{ decisions: evaluation.results as Json, warnings: evaluation.warnings }] } : { result };
    },
  };
  return compiled;
};
