// Reports of `verdict test`: spec (for people), TAP 13 and JUnit XML (for CI systems). Each takes the runs of the
// command, one per rule version tested, and returns the whole report as text.
import type { OutputDifference, RuleTestResult } from '../store/ports.ts';

export const REPORTERS = ['spec', 'tap', 'junit'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** The tests of one rule version, as the command ran them. */
export interface ReportedRun {
  /** `pricing v3`, or the file name offline. */
  label: string;
  results: RuleTestResult[];
}

export interface Totals {
  tests: number;
  passed: number;
  failed: number;
  errors: number;
}

export function totals(runs: readonly ReportedRun[]): Totals {
  const all = runs.flatMap((r) => r.results);
  return {
    tests: all.length,
    passed: all.filter((r) => r.status === 'passed').length,
    failed: all.filter((r) => r.status === 'failed').length,
    errors: all.filter((r) => r.status === 'error').length,
  };
}

/** The closing line: `3 passed, 1 failed` (and errors when any). */
export function summaryLine(t: Totals): string {
  return `${t.passed} passed, ${t.failed} failed${t.errors > 0 ? `, ${t.errors} errors` : ''}`;
}

function value(v: unknown): string {
  return v === undefined ? '(missing)' : JSON.stringify(v);
}

export function describeDifference(d: OutputDifference): string {
  const path = d.path === '' ? '(output)' : d.path;
  if (d.kind === 'missing') return `${path}: expected ${value(d.expected)}, missing`;
  if (d.kind === 'unexpected') return `${path}: not expected, received ${value(d.received)}`;
  return `${path}: expected ${value(d.expected)}, received ${value(d.received)}`;
}

/** What went wrong with a test, one line per difference (or the solve's error). */
function details(result: RuleTestResult): string[] {
  if (result.status === 'error') return [`error: ${result.error ?? 'unknown error'}`];
  return result.differences.map(describeDifference);
}

/** Suites of a run in the order their tests ran. */
function bySuite(results: readonly RuleTestResult[]): Array<[string, RuleTestResult[]]> {
  const suites = new Map<string, RuleTestResult[]>();
  for (const r of results) {
    let list = suites.get(r.suiteName);
    if (!list) suites.set(r.suiteName, (list = []));
    list.push(r);
  }
  return [...suites.entries()];
}

const MARK: Record<RuleTestResult['status'], string> = { passed: '✔', failed: '✖', error: '!' };

function spec(runs: readonly ReportedRun[]): string {
  const lines: string[] = [];
  for (const run of runs) {
    lines.push(run.label);
    for (const [suite, results] of bySuite(run.results)) {
      lines.push(`  ${suite}`);
      for (const r of results) {
        lines.push(`    ${MARK[r.status]} ${r.testName} (${r.durationMs.toFixed(1)} ms)`);
        for (const line of details(r)) lines.push(`        ${line}`);
      }
    }
  }
  lines.push(summaryLine(totals(runs)));
  return `${lines.join('\n')}\n`;
}

/** A YAML scalar that is always valid: JSON strings are YAML double-quoted strings. */
function yamlString(text: string): string {
  return JSON.stringify(text);
}

function tap(runs: readonly ReportedRun[]): string {
  const all = runs.flatMap((run) => run.results.map((r) => ({ run, r })));
  const lines = ['TAP version 13', `1..${all.length}`];
  all.forEach(({ run, r }, index) => {
    const name = `${run.label} > ${r.suiteName} > ${r.testName}`.replace(/#/g, '\\#').replace(/\s*\n\s*/g, ' ');
    lines.push(`${r.status === 'passed' ? 'ok' : 'not ok'} ${index + 1} - ${name}`);
    if (r.status === 'passed') return;
    lines.push('  ---', `  status: ${r.status}`);
    if (r.status === 'error') lines.push(`  message: ${yamlString(r.error ?? '')}`);
    else {
      lines.push('  differences:');
      for (const d of r.differences) lines.push(`    - ${yamlString(describeDifference(d))}`);
    }
    lines.push('  ...');
  });
  lines.push(`# ${summaryLine(totals(runs))}`);
  return `${lines.join('\n')}\n`;
}

/** Text for XML character data and attribute values: escaped, and characters XML 1.0 cannot hold replaced. */
export function xmlEscape(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 forbids
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function junit(runs: readonly ReportedRun[]): string {
  const t = totals(runs);
  const allMs = runs.flatMap((r) => r.results).reduce((sum, r) => sum + r.durationMs, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="verdict" tests="${t.tests}" failures="${t.failed}" errors="${t.errors}" time="${seconds(allMs)}">`,
  ];
  for (const run of runs) {
    for (const [suite, results] of bySuite(run.results)) {
      const failures = results.filter((r) => r.status === 'failed').length;
      const errors = results.filter((r) => r.status === 'error').length;
      const ms = results.reduce((sum, r) => sum + r.durationMs, 0);
      out.push(`  <testsuite name="${xmlEscape(`${run.label} > ${suite}`)}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(ms)}">`);
      for (const r of results) {
        const open = `    <testcase name="${xmlEscape(r.testName)}" classname="${xmlEscape(`${run.label}.${suite}`)}" time="${seconds(r.durationMs)}"`;
        if (r.status === 'passed') {
          out.push(`${open}/>`);
          continue;
        }
        const body = xmlEscape(details(r).join('\n'));
        const element = r.status === 'failed'
          ? `<failure message="${xmlEscape(`${r.differences.length} output difference${r.differences.length === 1 ? '' : 's'}`)}" type="OutputMismatch">${body}</failure>`
          : `<error message="${xmlEscape(r.error ?? 'error')}" type="SolveError">${body}</error>`;
        out.push(`${open}>`, `      ${element}`, '    </testcase>');
      }
      out.push('  </testsuite>');
    }
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

export function report(name: ReporterName, runs: readonly ReportedRun[]): string {
  if (name === 'tap') return tap(runs);
  if (name === 'junit') return junit(runs);
  return spec(runs);
}
