// GET /api/tools/duplicates and /api/tools/dependencies (SPEC 5.1). Both answer {rule, ...} as the DecisionRules
// SDKs expect: the rule version looked at, then what was found.
import { RuleError, UnresolvedRuleError } from '../../engine/errors.ts';
import { collectDependencies } from '../../engine/dependencies.ts';
import type { DependencyWalk } from '../../engine/dependencies.ts';
import type { CompiledRule, RuleResolver } from '../../engine/types.ts';
import { SolveSession } from '../resolver.ts';
import type { ManagementContext } from './context.ts';
import type { RuleDocument } from './documents.ts';
import type { AnalysisReport } from '../../engine/analysis/index.ts';
import { analyseStoredTable } from './analysis.ts';
import { findDuplicateRows } from './duplicates.ts';
import type { DuplicateGroup } from './duplicates.ts';
import { badRequest } from './errors.ts';
import { findRule, findVersion } from './lookup.ts';
import { isFlowType } from '../../rules/rule-types.ts';

export interface DependencyItem {
  ruleId: string;
  baseId: string;
  version: number | undefined;
  ruleAlias: string | undefined;
  name: string;
  type: string;
}

/** How a rule uses another: a flow's node, a LOOKUP_VALUE / LOOKUP_EXISTS of a lookup table, or a SOLVE call. */
export type DependencyKind = 'flow' | 'LOOKUP' | 'SOLVE';

/** One direct use of a rule by another (both resolved), for drawing the graph. */
export interface DependencyEdge {
  from: { ruleId: string; version: number | undefined };
  to: { ruleId: string; version: number | undefined };
  kind: DependencyKind;
}

function edgeKind(caller: CompiledRule, callee: CompiledRule): DependencyKind {
  if (isFlowType(caller.type)) return 'flow';
  return callee.type === 'lookup-table' ? 'LOOKUP' : 'SOLVE';
}

/** The direct uses among the walked rules, each once (a rule calling another twice is one edge). */
function edgesOf(rules: readonly CompiledRule[], resolver: RuleResolver): DependencyEdge[] {
  const edges: DependencyEdge[] = [];
  const seen = new Set<string>();
  for (const caller of rules) {
    for (const ref of caller.dependencies) {
      const callee = resolver.resolve(ref.idOrAlias, ref.version);
      if (!callee) continue;
      const key = `${caller.ruleId}@${caller.version}>${callee.ruleId}@${callee.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ from: { ruleId: caller.ruleId ?? '', version: caller.version }, to: { ruleId: callee.ruleId ?? '', version: callee.version }, kind: edgeKind(caller, callee) });
    }
  }
  return edges;
}

/** Each load may reveal rules referenced only by rules just loaded; a chain longer than this is refused. */
const MAX_LOAD_ROUNDS = 1000;

export class ToolsManagement {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
    this.#ctx = ctx;
  }

  async duplicates(space: string, idOrAlias: string, version: number | undefined): Promise<{ rule: RuleDocument; duplicates: DuplicateGroup[] }> {
    const rule = await this.#document(space, idOrAlias, version);
    if (rule.type !== 'decision-table') {
      throw badRequest(`Rule "${idOrAlias}" is a ${String(rule.type)}; duplicate rows are found in decision tables only`);
    }
    return { rule, duplicates: findDuplicateRows(rule.decisionTable) };
  }

  /**
   * The rules a rule uses, transitively, as a solve would resolve them (a reference without a version means the
   * latest published version), callees first; references that resolve to nothing are listed as missing.
   */
  async dependencies(space: string, idOrAlias: string, version: number | undefined): Promise<{
    rule: RuleDocument;
    dependencies: DependencyItem[];
    edges: DependencyEdge[];
    missing: Array<{ idOrAlias: string; version?: number; from: string }>;
  }> {
    const { head, rule } = await this.#ctx.store.management.read(space, async (tx) => {
      const found = findVersion(findRule(await tx.heads(), idOrAlias), version);
      const stored = (await tx.versions(found.ruleId)).find((v) => v.version === found.version)!;
      return { head: found, rule: stored.document };
    });
    const { cache } = this.#ctx;
    let root;
    try {
      root = await cache.load(head);
    } catch (err) {
      throw badRequest(`Rule "${idOrAlias}" cannot be compiled: ${err instanceof Error ? err.message : String(err)}`);
    }
    const session = new SolveSession(await cache.catalog(space), cache);
    await session.use(root);
    let walk: DependencyWalk | undefined;
    for (let round = 0; walk === undefined; round++) {
      try {
        walk = collectDependencies(root.compiled, session);
      } catch (err) {
        if (err instanceof UnresolvedRuleError && round < MAX_LOAD_ROUNDS) {
          await session.load(err.idOrAlias, err.version);
          continue;
        }
        if (err instanceof RuleError) throw badRequest(`Rule "${idOrAlias}": ${err.message}`);
        throw err;
      }
    }
    return {
      rule,
      dependencies: walk.rules.map((r) => ({
        ruleId: r.ruleId ?? '',
        baseId: r.ruleId ?? '',
        version: r.version,
        ruleAlias: r.ruleAlias,
        name: r.name,
        type: r.type,
      })),
      edges: edgesOf([root.compiled, ...walk.rules], session),
      missing: walk.missing.map((ref) => ({ idOrAlias: ref.idOrAlias, ...(ref.version === undefined ? {} : { version: ref.version }), from: ref.from.ruleId ?? '' })),
    };
  }

  /** Unreachable rows, overlaps, gaps, contradictions, duplicates and type mismatches of a decision table version. */
  analysis(space: string, idOrAlias: string, version: number | undefined): Promise<AnalysisReport> {
    return analyseStoredTable(this.#ctx, space, idOrAlias, version);
  }

  async #document(space: string, idOrAlias: string, version: number | undefined): Promise<RuleDocument> {
    return this.#ctx.store.management.read(space, async (tx) => {
      const head = findVersion(findRule(await tx.heads(), idOrAlias), version);
      return (await tx.versions(head.ruleId)).find((v) => v.version === head.version)!.document;
    });
  }
}
