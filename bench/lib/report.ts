// Turns the case results into bench/results/latest.json (for tools), latest.md (for people) and chart.svg.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CaseResult } from './case.ts';
import { renderChart } from './chart.ts';
import type { TimingOptions } from './measure.ts';

export interface ReportMeta {
  date: string;
  quick: boolean;
  timing: TimingOptions;
  node: string;
  cpu: string;
  cores: number;
  commit: string | null;
  totalSeconds: number;
}

export interface Target {
  id: string;
  text: string;
  value: number | null;
  unit: string;
  met: boolean | null;
}

export interface Report {
  meta: ReportMeta;
  engine: Record<string, Record<string, unknown>>;
  http: Record<string, unknown>;
  kafka: Record<string, unknown>;
  /** The Studio in Chromium: open time and scroll frame times of the 10,000-row table (reported only). */
  studio: Record<string, unknown>;
  targets: Target[];
  cases: CaseResult[];
}

/** Keys every latest.json carries, null when not measured, so tools can rely on them. */
const REQUIRED: Record<string, string[]> = {
  'engine.small': ['verdict', 'zen', 'ratio'],
  'engine.zen8k': ['verdict', 'zen', 'ratio'],
  'engine.rows40k': ['compileMs', 'retainedMB', 'verdict'],
  http: ['verdict', 'fastify', 'ratio', 'p99Ms'],
  kafka: ['verdict', 'raw', 'ratio', 'p99Ms'],
  studio: ['openMs', 'scrollFrameMedianMs', 'scrollFrameP95Ms'],
};

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function at(report: Pick<Report, 'engine' | 'http' | 'kafka'>, dotted: string): unknown {
  let node: unknown = report;
  for (const key of dotted.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

function targets(report: Pick<Report, 'engine' | 'http' | 'kafka'>): Target[] {
  const t = (id: string, text: string, key: string, unit: string, test: (v: number) => boolean): Target => {
    const value = num(at(report, key));
    return { id, text, value, unit, met: value === null ? null : test(value) };
  };
  return [
    t('a-ratio', '(a) small table: at least 20x zen-engine', 'engine.small.ratio', 'x', (v) => v >= 20),
    t('a-rate', '(a) small table: at least 2,000,000 solves/s on one core', 'engine.small.verdict', 'solves/s', (v) => v >= 2_000_000),
    t('c-ratio', '(c) zen 8k table: at least 1000x zen-engine (geometric mean of early/late/never)', 'engine.zen8k.ratio', 'x', (v) => v >= 1000),
    t('c-flat', '(c) indexed column: solve rate on 7,990 rows at least 0.8x the rate on 101 rows', 'engine.zen8k.scaling.largestOverSmallest', 'x', (v) => v >= 0.8),
    t('d-compile', '(d) 40,000 rows: compile under 1 s', 'engine.rows40k.compileMs', 'ms', (v) => v < 1000),
    t('d-memory', '(d) 40,000 rows: under 100 MB retained', 'engine.rows40k.retainedMB', 'MB', (v) => v < 100),
    t('h-analysis500', '(h) analysis of a 500-row table under 50 ms', 'engine.analysis.rows500Ms', 'ms', (v) => v < 50),
    t('h-analysis10k', '(h) analysis of a 10,000-row x 10-column table under 2 s', 'engine.analysis.rows10000Ms', 'ms', (v) => v < 2000),
    t('http-ratio', 'HTTP solve: at least 80% of bare Fastify req/s', 'http.ratio', 'x', (v) => v >= 0.8),
    t('http-bulk', 'HTTP: a 10,000-input bulk under 100 ms', 'http.bulk10kMs', 'ms', (v) => v < 100),
    t('kafka-rate', 'Kafka: at least 10,000 solves/s on one instance', 'kafka.verdict', 'solves/s', (v) => v >= 10_000),
    t('kafka-ratio', 'Kafka: at least 50% of the raw consume-then-produce pipe', 'kafka.ratio', 'x', (v) => v >= 0.5),
    // Issue 15 ("twenty times zen-engine on every benchmark case"): ratios to zen's best, and the HTTP path.
    t('b-ratio', '(b) 500-row table: at least 30x zen-engine (issue 15)', 'engine.table500.ratio', 'x', (v) => v >= 30),
    t('e-ratio', '(e) expression-heavy table: at least 20x zen-engine (issue 15)', 'engine.expression.ratio', 'x', (v) => v >= 20),
    t('f-ratio', '(f) decision flow: at least 20x zen-engine (issue 15)', 'engine.flow.ratio', 'x', (v) => v >= 20),
    t('f-rule-flow', '(f) rule flow: at least 20x zen-engine (issue 15)', 'engine.flow.ratioRuleFlow', 'x', (v) => v >= 20),
    // Issue 30: JDM decision graphs, Verdict and zen solving the same JDM (geometric mean over the scenarios).
    t('i-ratio', '(i) JDM decision graphs: at least 20x zen-engine (issue 30)', 'engine.jdm.ratio', 'x', (v) => v >= 20),
    // Issue 31: the same DMN models in Verdict and Drools DMN (geometric mean over the TCK's table models and the
    // 1,000-rule table; the 1,000-rule table on its own).
    t('dmn-ratio', 'DMN decision tables: at least 3x Drools DMN (issue 31)', 'engine.dmn.ratio', 'x', (v) => v >= 3),
    t('dmn-table1000', 'DMN 1,000-rule decision table: at least 3x Drools DMN (issue 31)', 'engine.dmn.table1000.ratio', 'x', (v) => v >= 3),
    t('g-ratio', '(g) bulk of 10,000 on the 500-row table: at least 25x zen-engine (issue 15)', 'engine.bulk.ratio', 'x', (v) => v >= 25),
    t('http-ratio-95', 'HTTP solve: at least 95% of bare Fastify req/s (issue 15)', 'http.ratio', 'x', (v) => v >= 0.95),
  ];
}

export function buildReport(cases: CaseResult[], meta: ReportMeta): Report {
  const sections: Pick<Report, 'engine' | 'http' | 'kafka' | 'studio'> = { engine: {}, http: {}, kafka: {}, studio: {} };
  for (const c of cases) {
    const key = KEY_OF[c.id] ?? c.id;
    const summary = { status: c.status, ...c.summary, ...(c.notes.length ? { notes: c.notes } : {}) };
    if (key.startsWith('engine.')) sections.engine[key.slice('engine.'.length)] = summary;
    else if (key === 'http') sections.http = summary;
    else if (key === 'kafka') sections.kafka = summary;
    else if (key === 'studio') sections.studio = summary;
  }
  for (const [key, fields] of Object.entries(REQUIRED)) {
    const section = (key.startsWith('engine.') ? ((sections.engine[key.slice(7)] ??= { status: 'not run' })) : sections[key as 'http' | 'kafka' | 'studio']) as Record<string, unknown>;
    if (!('status' in section)) section.status = 'not run';
    for (const field of fields) section[field] ??= null;
  }
  return { meta, ...sections, targets: targets(sections), cases };
}

// Case ids to latest.json keys (kept here so the report does not need to load the case modules).
const KEY_OF: Record<string, string> = {
  'engine-small': 'engine.small',
  'engine-table500': 'engine.table500',
  'engine-zen8k': 'engine.zen8k',
  'engine-rows40k': 'engine.rows40k',
  'engine-expression': 'engine.expression',
  'engine-flow': 'engine.flow',
  'engine-jdm': 'engine.jdm',
  'engine-bulk': 'engine.bulk',
  'engine-analysis': 'engine.analysis',
  'engine-dmn': 'engine.dmn',
  http: 'http',
  studio: 'studio',
  kafka: 'kafka',
};

export function formatNumber(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit ? `${text} ${unit}` : text;
}

function markdown(report: Report): string {
  const m = report.meta;
  const lines: string[] = [];
  lines.push('# Verdict benchmark results', '');
  lines.push(
    `${m.date} · ${m.quick ? '**quick run** (short timings, indicative only)' : 'full run'} · Node ${m.node} · ${m.cpu} · ${m.cores} cores · commit ${m.commit ?? 'unknown'} · ${m.totalSeconds} s`,
    '',
    `Each figure is the median of ${m.timing.runs} measured runs of ${m.timing.runMs} ms after ${m.timing.warmupMs} ms of warm-up (min–max in brackets). ` +
      'Every engine is first checked to give the same answers on every input of its case. zen-engine is measured awaited one ' +
      `at a time and with ${m.quick ? '16 (64 in a full run)' : '64'} calls in flight; its best is used for the ratio. Ratios are Verdict divided by the peer ` +
      '(for durations and latencies the peer divided by Verdict): above 1 means Verdict is ahead.',
    '',
    '## Targets',
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
  );
  for (const t of report.targets) {
    lines.push(`| ${t.text} | ${formatNumber(t.value, t.unit)} | ${t.met === null ? 'not measured' : t.met ? 'yes' : '**no**'} |`);
  }
  for (const c of report.cases) {
    lines.push('', `## ${c.title}`, '', `Status: **${c.status}** (${(c.durationMs / 1000).toFixed(1)} s)`);
    if (c.notes.length) {
      lines.push('');
      for (const note of c.notes) lines.push(`- ${note.replace(/\n/g, ' ')}`);
    }
    if (c.agreement.length) {
      lines.push('', 'Same answers: ' + c.agreement.map((a) => `${a.scenario}: ${a.inputs} inputs (${a.nonEmpty} with a match), ${a.engines.join(' = ')}`).join('; ') + '.');
    }
    if (c.measurements.length) {
      lines.push('', '| scenario | engine | median | min–max | vs Verdict |', '| --- | --- | --- | --- | --- |');
      for (const meas of c.measurements) {
        const verdict = c.measurements
          .filter((v) => v.scenario === meas.scenario && v.engine === 'verdict')
          .map((v) => v.sample.median)[0];
        const s = meas.sample;
        let versus = '';
        if (verdict !== undefined && meas.engine !== 'verdict') {
          versus = s.unit === 'ops/s' ? `${formatNumber(verdict / s.median)}x` : `${formatNumber(s.median / verdict)}x`;
        }
        lines.push(`| ${meas.scenario} | ${meas.label} | ${formatNumber(s.median, s.unit)} | ${formatNumber(s.min)}–${formatNumber(s.max)} | ${versus} |`);
      }
    }
    const flat = Object.entries(c.summary).filter(([, v]) => typeof v === 'number' || v === null);
    if (flat.length) lines.push('', 'Summary: ' + flat.map(([k, v]) => `${k} ${formatNumber(v as number | null)}`).join(' · '));
  }
  lines.push('', '![chart](chart.svg)', '');
  return lines.join('\n');
}

export function writeReport(report: Report, outDir: string): string[] {
  const json = path.join(outDir, 'latest.json');
  const md = path.join(outDir, 'latest.md');
  const svg = path.join(outDir, 'chart.svg');
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(md, markdown(report));
  writeFileSync(svg, renderChart(report.cases));
  return [md, json, svg];
}

export function printRatios(report: Report): void {
  const rows: [string, unknown, unknown, unknown, string][] = [
    ['engine.small', report.engine.small?.verdict, report.engine.small?.zen, report.engine.small?.ratio, 'zen'],
    ['engine.table500', report.engine.table500?.verdict, report.engine.table500?.zen, report.engine.table500?.ratio, 'zen'],
    ['engine.zen8k', report.engine.zen8k?.verdict, report.engine.zen8k?.zen, report.engine.zen8k?.ratio, 'zen'],
    ['engine.rows40k', report.engine.rows40k?.verdict, report.engine.rows40k?.zen, report.engine.rows40k?.ratio, 'zen'],
    ['engine.expression', report.engine.expression?.verdict, report.engine.expression?.zen, report.engine.expression?.ratio, 'zen'],
    ['engine.flow', report.engine.flow?.verdict, report.engine.flow?.zen, report.engine.flow?.ratio, 'zen'],
    ['engine.jdm', report.engine.jdm?.verdict, report.engine.jdm?.zen, report.engine.jdm?.ratio, 'zen'],
    ['engine.bulk', report.engine.bulk?.verdict, report.engine.bulk?.zen, report.engine.bulk?.ratio, 'zen'],
    ['http', report.http.verdict, report.http.fastify, report.http.ratio, 'fastify'],
    ['kafka', report.kafka.verdict, report.kafka.raw, report.kafka.ratio, 'raw pipe'],
    ['kafka exactly once', report.kafka.exactlyOnce, report.kafka.raw, report.kafka.exactlyOnceRatio, 'raw pipe'],
  ];
  console.log('\nRatios (Verdict / peer; ops/s medians):');
  for (const [key, verdict, peer, r, peerName] of rows) {
    const pad = key.padEnd(18);
    if (num(r) === null) {
      console.log(`  ${pad} not measured`);
      continue;
    }
    console.log(`  ${pad} ${formatNumber(num(r))}x   (Verdict ${formatNumber(num(verdict))}/s vs ${peerName} ${formatNumber(num(peer))}/s)`);
  }
  console.log('\nTargets:');
  for (const t of report.targets) {
    console.log(`  [${t.met === null ? ' -- ' : t.met ? ' ok ' : 'MISS'}] ${t.text}: ${formatNumber(t.value, t.unit)}`);
  }
}
