// `verdict lint`: read the rule file, pick the decision table, compile it and analyse it (engine/analysis).
import { ValidationError, compileRule } from '../engine/index.ts';
import { analyseDecisionTable, hasDefects, type AnalysisReport } from '../engine/analysis/index.ts';
import { graphTables } from '../formats/jdm/index.ts';
import type { JsonObject } from '../rules/check.ts';
import { joinPaths, ruleIdOf, type ContainerEntry, type RuleContainer } from '../rules/containers.ts';
import { InputError, UsageError } from './errors.ts';
import { readContainerOf, readRuleFile } from './folder-resolver.ts';
import { envTimeZone, selectRule } from './solve-file.ts';

export interface LintCommandOptions {
  json?: boolean;
  rule?: string;
  timezone?: string;
}

export async function runLint(rulePath: string, options: LintCommandOptions): Promise<{ report: AnalysisReport; label: string; defects: boolean }> {
  const container = readContainerOf(await readRuleFile(rulePath), rulePath);
  const entry = selectTable(container, rulePath, options.rule);
  const label = labelOf(entry.document);
  if (entry.document.type === 'dmn') return { report: lintDmn(entry.document, options.timezone ?? envTimeZone(), rulePath), label, defects: false };
  if (entry.document.type === 'decision-graph') {
    const report = lintGraph(entry.document, options.timezone ?? envTimeZone(), rulePath);
    return { report, label, defects: hasDefects(report) };
  }
  if (entry.document.type !== 'decision-table') {
    throw new UsageError(`${label} in ${rulePath} is a ${String(entry.document.type)}; verdict lint analyses decision tables`);
  }
  let compiled;
  try {
    compiled = compileRule(entry.document, { timeZone: options.timezone ?? envTimeZone() });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const problems = error.problems.map((p) => `${joinPaths(entry.path, p.path) || '(document)'}: ${p.message}`);
    throw new InputError(`${rulePath} is not a valid rule: ${problems.join('; ')}`);
  }
  const report = analyseDecisionTable(compiled, { document: entry.document });
  return { report, label, defects: hasDefects(report) };
}

/**
 * A decision graph's analysis: each decision table node that converts exactly to a DecisionRules table is
 * analysed as one (findings say which table); a table that does not convert is listed as undecided, with why.
 */
function lintGraph(document: JsonObject, timeZone: string, rulePath: string): AnalysisReport {
  const report: AnalysisReport = { findings: [], undecided: { rows: [], columns: [], reasons: [] }, omitted: { overlaps: 0, gaps: false } };
  for (const table of graphTables(document)) {
    if (table.table === undefined) {
      const why = (table.unsupported ?? []).map((u) => u.reason).join('; ');
      report.undecided.reasons.push({ reason: `table "${table.name}" (${table.path}) is not analysed: ${why}`, rows: [], columns: [] });
      continue;
    }
    let compiled;
    try {
      compiled = compileRule(table.table, { timeZone });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new InputError(`${rulePath}: table "${table.name}" (${table.path}) is not valid: ${error.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    }
    const found = analyseDecisionTable(compiled, { document: table.table });
    const prefix = `table "${table.name}" (hit policy ${table.hitPolicy}): `;
    report.findings.push(...found.findings.map((f) => ({ ...f, message: prefix + f.message })));
    report.undecided.reasons.push(...found.undecided.reasons.map((r) => ({ ...r, reason: prefix + r.reason })));
    report.omitted.overlaps += found.omitted.overlaps;
    report.omitted.gaps ||= found.omitted.gaps;
  }
  return report;
}

/**
 * A DMN model's lint: every expression that does not compile (read problems stop at readRuleFile) is an error
 * naming its element; its decision tables are not analysed for gaps and overlaps yet, which the report says.
 */
function lintDmn(document: JsonObject, timeZone: string, rulePath: string): AnalysisReport {
  try {
    compileRule(document, { timeZone });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new InputError(`${rulePath} is not a valid DMN model: ${error.problems.map((p) => p.message).join('; ')}`);
  }
  const reason = 'DMN decision tables are checked (every expression compiles) but not analysed for overlaps and gaps';
  return { findings: [], undecided: { rows: [], columns: [], reasons: [{ reason, rows: [], columns: [] }] }, omitted: { overlaps: 0, gaps: false } };
}

/** The table to analyse: --rule, else the file's only rule or its only decision table. */
function selectTable(container: RuleContainer, file: string, wanted: string | undefined): ContainerEntry {
  if (wanted !== undefined || container.kind === 'rule') return selectRule(container, file, wanted);
  const tables = container.rules.filter((entry) => entry.document.type === 'decision-table');
  const distinct = new Map(tables.map((entry) => [ruleIdOf(entry.document) ?? entry.path, entry]));
  if (distinct.size === 0) throw new UsageError(`${file} holds no decision table`);
  if (distinct.size > 1) {
    throw new UsageError(`${file} holds ${distinct.size} decision tables (${[...distinct.values()].map((e) => labelOf(e.document)).join(', ')}); choose one with --rule ID|ALIAS`);
  }
  const only = [...distinct.values()][0]!;
  const id = ruleIdOf(only.document);
  return id === undefined ? only : selectRule(container, file, id);
}

function labelOf(doc: JsonObject): string {
  if (typeof doc.ruleAlias === 'string' && doc.ruleAlias !== '') return doc.ruleAlias;
  return ruleIdOf(doc) ?? (typeof doc.name === 'string' ? JSON.stringify(doc.name) : 'the rule');
}

/** The human-readable report: one block per finding, then what could not be decided. */
export function formatReport(report: AnalysisReport, label: string): string {
  const lines: string[] = [];
  for (const finding of report.findings) {
    lines.push(`${finding.kind}: ${finding.message}`);
    if (finding.example !== undefined) lines.push(`  example input: ${JSON.stringify(finding.example)}`);
  }
  if (report.omitted.overlaps > 0) lines.push(`(${report.omitted.overlaps} more overlapping row pairs not listed)`);
  if (report.omitted.gaps) lines.push('(more gaps may exist than are listed)');
  for (const reason of report.undecided.reasons) {
    const rows = reason.rows.length === 0 ? '' : ` (row${reason.rows.length > 1 ? 's' : ''} ${shortList(reason.rows.map((r) => r + 1))})`;
    lines.push(`undecided: ${reason.reason}${rows}`);
  }
  const counts = new Map<string, number>();
  for (const finding of report.findings) counts.set(finding.kind, (counts.get(finding.kind) ?? 0) + 1);
  const summary = counts.size === 0 ? 'no findings' : [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
  lines.push(`${label}: ${summary}${hasDefects(report) ? '' : ' (no defects)'}`);
  return `${lines.join('\n')}\n`;
}

function shortList(numbers: number[]): string {
  return numbers.length > 10 ? `${numbers.slice(0, 10).join(', ')} and ${numbers.length - 10} more` : numbers.join(', ');
}
