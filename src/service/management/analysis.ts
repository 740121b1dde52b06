// GET /api/tools/analysis (issue 14): the static analysis of a stored decision table version, the same report
// `verdict lint --json` prints. The compiled rule comes from the rule cache, so the analysis reads exactly what a
// solve would run.
import { analyseDecisionTable, type AnalysisReport } from '../../engine/analysis/index.ts';
import type { ManagementContext } from './context.ts';
import { badRequest } from './errors.ts';
import { findRule, findVersion } from './lookup.ts';

export async function analyseStoredTable(ctx: ManagementContext, space: string, idOrAlias: string, version: number | undefined): Promise<AnalysisReport> {
  const { head, document } = await ctx.store.management.read(space, async (tx) => {
    const found = findVersion(findRule(await tx.heads(), idOrAlias), version);
    // The document too: valid values are editor-only, so the compiled table does not carry them.
    return { head: found, document: (await tx.versions(found.ruleId)).find((v) => v.version === found.version)?.document };
  });
  if (head.type !== 'decision-table') {
    throw badRequest(`Rule "${idOrAlias}" version ${head.version} is a ${head.type}; the analysis reads decision tables only`);
  }
  let loaded;
  try {
    loaded = await ctx.cache.load(head);
  } catch (err) {
    throw badRequest(`Rule "${idOrAlias}" version ${head.version} cannot be compiled: ${err instanceof Error ? err.message : String(err)}`);
  }
  return analyseDecisionTable(loaded.compiled, { document });
}
