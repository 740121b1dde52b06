// (h) Static analysis of decision tables (issue 14): the generated loan table at 500 and 10,000 rows, analysed
// whole (unreachable rows, overlaps, gaps, contradictions, duplicates, types). Targets: under 50 ms and under 2 s.
import { compileRule } from '../../src/engine/index.ts';
import { analyseDecisionTable } from '../../src/engine/analysis/index.ts';
import type { AnalysisReport } from '../../src/engine/analysis/index.ts';
import type { BenchCase } from '../lib/case.ts';
import { measureDuration } from '../lib/measure.ts';
import { toVerdictTable } from '../lib/to-verdict.ts';
import { loanTable } from './tables.ts';

function counts(report: AnalysisReport): Record<string, number> {
  const byKind: Record<string, number> = {};
  for (const finding of report.findings) byKind[finding.kind] = (byKind[finding.kind] ?? 0) + 1;
  return { ...byKind, undecidedRows: report.undecided.rows.length, omittedOverlaps: report.omitted.overlaps };
}

export const engineAnalysis: BenchCase = {
  id: 'engine-analysis',
  title: '(h) decision table analysis: 500 and 10,000 rows',
  key: 'engine.analysis',
  async run(ctx, result) {
    const summary: Record<string, unknown> = {};
    for (const rows of [500, 10_000]) {
      const rule = compileRule(toVerdictTable(loanTable(rows)));
      let report: AnalysisReport | undefined;
      const runs = ctx.quick ? 1 : rows > 1000 ? 5 : 30;
      const sample = await measureDuration(() => (report = analyseDecisionTable(rule)), runs, ctx.quick ? 0 : 1);
      const scenario = `rows${rows}`;
      result.measurements.push({ scenario, engine: 'verdict', label: `analysis of ${rows} rows`, sample });
      summary[`${scenario}Ms`] = Math.round(sample.median * 10) / 10;
      summary[`${scenario}Findings`] = counts(report!);
      ctx.log(`${rows} rows: median ${sample.median.toFixed(1)} ms; ${JSON.stringify(counts(report!))}`);
    }
    result.summary = summary;
  },
};
