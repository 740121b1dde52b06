// Scripting rules (`complex-rule`, spec/rule-format.md §6): the script is checked and prepared once per rule
// version; every solve hands it to the injected ScriptSandbox (isolated-vm) with a fresh set of globals.
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { LimitError, RuleError, ValidationError } from '../errors.ts';
import type { RuleCompiler } from '../registry.ts';
import type { CompiledRule, CompiledScriptHandle, EvaluationContext, Json, RuleRef, ScriptSandbox, SolveResult } from '../types.ts';
import { SCRIPT_FILE_NAME, wrapScript } from './bootstrap.ts';
import { codeMask, findSolveCalls, stringLiteral, versionLiteral } from './source-scan.ts';
import { mergeAsArrays } from '../flow/array-merge.ts';
import { flowRuleIdentity } from '../rule-identity.ts';
import { ruleVariablesOf } from '../flow/rule-envelope.ts';
import { callRule, resolveRule } from '../flow/call-rule.ts';
import { contextWith, pinInstant } from '../context.ts';

export const compileScriptRule: RuleCompiler<'complex-rule'> = ({ document: doc, script: original }) => {
  const identity = flowRuleIdentity(doc);
  checkSyntax(original);
  const source = awaitTopLevelSolves(original);
  const handle: CompiledScriptHandle = {
    source,
    cacheKey: createHash('sha256').update(source).digest('base64url'),
  };
  const ruleVariables = ruleVariablesOf(doc.userVariables);
  const dependencies = literalSolveReferences(original);

  async function evaluate(input: unknown, ctx: EvaluationContext): Promise<SolveResult> {
    const sandbox = ctx.sandbox;
    if (!sandbox) throw new RuleError('scripting rules need a script sandbox, and none is configured', identity.name);
    const { budget } = ctx;
    if (budget.scripts >= budget.limits.maxConcurrentScripts) {
      throw new LimitError(
        `more than ${budget.limits.maxConcurrentScripts} scripts run at once in one solve (DR.solve fan-out); rule "${identity.name}" was not started`,
      );
    }
    budget.scripts++;
    // The script waits: the solve's instant is taken before (SolveInstant).
    pinInstant(ctx);
    const logs: string[] = [];
    let value: unknown;
    try {
      value = await runScript(sandbox, input, ctx, logs);
    } finally {
      budget.scripts--;
    }
    const output = (value === undefined ? {} : value) as Json;
    const result = ctx.strategy === 'ARRAY' ? [mergeAsArrays([output])] : [output];
    return ctx.trace ? { result, trace: logs } : { result };
  }

  function runScript(sandbox: ScriptSandbox, input: unknown, ctx: EvaluationContext, logs: string[]): Promise<unknown> {
    return sandbox.run(handle, {
      input,
      ruleVariables,
      solve: async (idOrAlias, data, version, strategy) => {
        const rule = resolveRule(ctx, { idOrAlias, version }, 'DR.solve');
        if (!rule) throw new RuleError(`rule "${idOrAlias}"${version === undefined ? '' : ` version ${version}`} was not found`, 'DR.solve');
        return callRule(rule, data, contextWith(ctx, { insideScript: true }), strategy);
      },
      http: ctx.http,
      log: (line) => logs.push(line),
      deadline: ctx.deadline,
      timeoutMs: ctx.timeoutMs,
      nested: ctx.insideScript === true,
      scope: ctx.budget,
    });
  }

  const compiled: CompiledRule = {
    type: 'complex-rule',
    ...identity,
    async: true,
    dependencies,
    evaluate,
  };
  return compiled;
};

/** Compiles (never runs) the script in the host to report syntax errors when the rule is saved, with their line. */
function checkSyntax(source: string): void {
  try {
    new Script(wrapScript(source), { filename: SCRIPT_FILE_NAME, lineOffset: -1 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error ? String(error.stack) : '';
    const line = new RegExp(`${SCRIPT_FILE_NAME.replace('.', '\\.')}:(\\d+)`).exec(stack)?.[1];
    throw new ValidationError([{ path: 'script', message: line ? `line ${line}: ${message}` : message }]);
  }
}

/**
 * DecisionRules awaits top-level `DR.solve(...)` calls for the author (§6: "awaited automatically at top level").
 * Each call without `await` gets one, kept only when the script still compiles: inside a plain (non-async)
 * function `await` is a syntax error, and there the call keeps returning a promise, as documented.
 */
function awaitTopLevelSolves(source: string): string {
  const calls = findSolveCalls(source).filter((call) => !call.awaited);
  if (calls.length === 0) return source;
  let current = source;
  // From the last call backwards, so earlier offsets stay valid.
  for (const call of calls.reverse()) {
    const candidate = `${current.slice(0, call.start)}await ${current.slice(call.start)}`;
    if (compiles(candidate)) current = candidate;
  }
  return current;
}

function compiles(source: string): boolean {
  try {
    new Script(wrapScript(source));
    return true;
  } catch {
    return false;
  }
}

/** `DR.solve('alias', …, 3)` with a literal id (and version) is a dependency known before any solve. */
function literalSolveReferences(source: string): RuleRef[] {
  const refs: RuleRef[] = [];
  const seen = new Set<string>();
  for (const call of findSolveCalls(source, codeMask(source))) {
    const idOrAlias = stringLiteral(call.args[0]);
    if (idOrAlias === undefined || idOrAlias === '') continue;
    const version = versionLiteral(call.args[2]);
    const key = `${idOrAlias}@${version ?? 'latest'}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push(version === undefined ? { idOrAlias } : { idOrAlias, version });
  }
  return refs;
}
