// Test doubles shared by the script and flow tests: a Map resolver and rules that answer from a function.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileRule } from '../../src/engine/index.ts';
import type { CompiledRule, EvaluationContext, Json, RuleResolver, RuleType, SolveResult } from '../../src/engine/types.ts';

/** Resolves by alias or id; `version` undefined picks the highest version registered. */
export class MapResolver implements RuleResolver {
  readonly rules: CompiledRule[] = [];
  readonly lookups: string[] = [];

  add(...rules: CompiledRule[]): this {
    this.rules.push(...rules);
    return this;
  }

  resolve(idOrAlias: string, version: number | undefined): CompiledRule | undefined {
    this.lookups.push(`${idOrAlias}@${version ?? 'latest'}`);
    const candidates = this.rules.filter((rule) => rule.ruleAlias === idOrAlias || rule.ruleId === idOrAlias);
    if (version !== undefined) return candidates.find((rule) => rule.version === version);
    return candidates.sort((a, b) => (b.version ?? 0) - (a.version ?? 0))[0];
  }
}

export interface FakeRuleOptions {
  alias: string;
  id?: string;
  version?: number;
  type?: RuleType;
  dependencies?: CompiledRule['dependencies'];
}

/** A rule whose result is computed by `answer` from the input and the strategy it was solved with. */
export function fakeRule(options: FakeRuleOptions, answer: (input: any, ctx: EvaluationContext) => Json[] | Promise<Json[]>): CompiledRule & { calls: { input: unknown; strategy: string }[] } {
  const calls: { input: unknown; strategy: string }[] = [];
  return {
    type: options.type ?? 'decision-table',
    ruleId: options.id ?? `${options.alias}-id`,
    ruleAlias: options.alias,
    version: options.version ?? 1,
    name: options.alias,
    async: false,
    dependencies: options.dependencies ?? [],
    calls,
    evaluate: async (input: unknown, ctx: EvaluationContext): Promise<SolveResult> => {
      calls.push({ input: structuredClone(input), strategy: ctx.strategy });
      return { result: await answer(input, ctx) };
    },
  };
}

/** Compiles every rule file of test/fixtures/flows/<folder> into a resolver. */
export function fixtureResolver(folder: string): MapResolver {
  const dir = fileURLToPath(new URL(`../fixtures/flows/${folder}/`, import.meta.url));
  const resolver = new MapResolver();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
    resolver.add(compileRule(JSON.parse(readFileSync(join(dir, file), 'utf8'))));
  }
  return resolver;
}

/** The one rule of `resolver` with this alias. */
export function ruleByAlias(resolver: MapResolver, alias: string): CompiledRule {
  const rule = resolver.rules.find((candidate) => candidate.ruleAlias === alias);
  if (!rule) throw new Error(`no fixture rule with alias ${alias}`);
  return rule;
}
