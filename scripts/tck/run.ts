// Runs the TCK test cases under a directory: every folder holding `*-test-*.xml` files, its `.dmn` models read
// (imports found among them by namespace), each test case evaluated and compared as the TCK does. One row per
// test case, in the TCK's result format (tck_results.csv).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { compileDmn } from '../../src/engine/dmn/index.ts';
import type { CompiledDmn } from '../../src/engine/dmn/index.ts';
import type { FeelValue } from '../../src/engine/feel/index.ts';
import { readDmn } from '../../src/rules/dmn/index.ts';
import type { DmnModel } from '../../src/rules/dmn/index.ts';
import { readTestFile } from './test-file.ts';
import type { TckTestCase } from './test-file.ts';
import { difference, toFeel } from './values.ts';

export type TckOutcome = 'SUCCESS' | 'FAILURE' | 'ERROR';

export interface TckRow {
  /** The test folder relative to the run's directory's parent of the compliance levels (`compliance-level-3/0050-...`). */
  folder: string;
  /** The test file's name without `.xml`. */
  file: string;
  testCase: string;
  outcome: TckOutcome;
  detail: string;
  /** The evaluation's first warning (why a value became null), for grouping failures by cause. */
  warning?: string;
  /** Result nodes of the test case and how many matched. */
  results: number;
  passedResults: number;
}

function folders(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    const names = readdirSync(current).sort();
    if (names.some((name) => /-test-.*\.xml$/.test(name))) found.push(current);
    for (const name of names) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
    }
  };
  walk(dir);
  return found;
}

/** The folder name as the TCK prints it: from the compliance level down. */
function folderName(root: string, folder: string): string {
  const parts = relative(root, folder).split(/[\\/]/);
  const level = parts.findIndex((part) => part.startsWith('compliance-level-') || part === 'non-compliant');
  if (level >= 0) return parts.slice(level).join('/');
  return relative(join(root, '..'), folder).split(/[\\/]/).slice(-2).join('/');
}

export async function runTck(dir: string, now = Date.now()): Promise<TckRow[]> {
  const rows: TckRow[] = [];
  for (const folder of folders(dir)) {
    const name = folderName(dir, folder);
    const models = new Map<string, { model?: DmnModel; problems: string[] }>();
    for (const file of readdirSync(folder).filter((file) => file.endsWith('.dmn'))) {
      const read = await readDmn(readFileSync(join(folder, file), 'utf8'));
      models.set(file, { ...(read.model ? { model: read.model } : {}), problems: read.problems.map((problem) => `${problem.path}: ${problem.message}`) });
    }
    const all = [...models.values()].flatMap((entry) => (entry.model ? [entry.model] : []));
    for (const testFileName of readdirSync(folder).filter((file) => /-test-.*\.xml$/.test(file)).sort()) {
      const file = basename(testFileName, '.xml');
      let testFile;
      try {
        testFile = readTestFile(readFileSync(join(folder, testFileName), 'utf8'), testFileName);
      } catch (error) {
        rows.push({ folder: name, file, testCase: '', outcome: 'ERROR', detail: (error as Error).message, results: 0, passedResults: 0 });
        continue;
      }
      const entry = models.get(testFile.modelName);
      let compiled: CompiledDmn | undefined;
      let failure = entry?.model ? undefined : `the model ${testFile.modelName} does not read: ${entry?.problems[0] ?? 'missing'}`;
      if (entry?.model) {
        try {
          compiled = compileDmn(entry.model, { imports: all.filter((model) => model !== entry.model) });
        } catch (error) {
          failure = `the model does not compile: ${(error as Error).message}`;
        }
      }
      for (const testCase of testFile.testCases) {
        const results = testCase.results.length;
        if (!compiled) {
          rows.push({ folder: name, file, testCase: testCase.id, outcome: 'ERROR', detail: failure ?? '', results, passedResults: 0 });
          continue;
        }
        rows.push({ folder: name, file, ...runCase(compiled, testCase, now) });
      }
    }
  }
  return rows;
}

function runCase(compiled: CompiledDmn, testCase: TckTestCase, now: number): Omit<TckRow, 'folder' | 'file'> {
  const results = testCase.results.length;
  try {
    const inputs = new Map<string, FeelValue>();
    const importedInputs = new Map<string, Map<string, FeelValue>>();
    for (const input of testCase.inputs) {
      const value = toFeel(input.value);
      if (input.namespace && input.namespace !== compiled.model.namespace) {
        let byName = importedInputs.get(input.namespace);
        if (!byName) importedInputs.set(input.namespace, (byName = new Map()));
        byName.set(input.name, value);
      } else {
        inputs.set(input.name, value);
      }
    }
    const evaluation = compiled.evaluate(inputs, {
      now,
      importedInputs,
      ...(testCase.type === 'decisionService' && testCase.invocableName
        ? { decisionService: testCase.invocableName }
        : { decisions: testCase.results.map((result) => result.name) }),
    });
    const reasons: string[] = [];
    let passed = 0;
    for (const result of testCase.results) {
      if (!evaluation.results.has(result.name)) {
        reasons.push(`${result.name}: no result`);
        continue;
      }
      const reason = difference(result.expected, evaluation.results.get(result.name) ?? null);
      if (reason) reasons.push(`${result.name}: ${reason}`);
      else passed++;
    }
    if (reasons.length === 0) return { testCase: testCase.id, outcome: 'SUCCESS', detail: '', results, passedResults: passed };
    const warnings = evaluation.warnings.length > 0 ? ` [${evaluation.warnings.slice(0, 3).join(' | ')}]` : '';
    return {
      testCase: testCase.id,
      outcome: 'FAILURE',
      detail: `${reasons.join('; ')}${warnings}`,
      ...(evaluation.warnings[0] ? { warning: evaluation.warnings[0] } : {}),
      results,
      passedResults: passed,
    };
  } catch (error) {
    return { testCase: testCase.id, outcome: 'ERROR', detail: (error as Error).message, results, passedResults: 0 };
  }
}

function csvField(value: string): string {
  return `"${value.replace(/"/g, '""').replace(/\r?\n/g, ' ')}"`;
}

/** tck_results.csv as the TCK's runners write it: folder, test file, test case, outcome, detail. */
export function toCsv(rows: readonly TckRow[]): string {
  return rows.map((row) => [row.folder, row.file, row.testCase, row.outcome, row.detail].map(csvField).join(',')).join('\n') + '\n';
}

export interface TckSummary {
  level: string;
  testCases: number;
  passedTestCases: number;
  results: number;
  passedResults: number;
}

/** Pass counts per compliance level (the first part of the folder). */
export function summarize(rows: readonly TckRow[]): TckSummary[] {
  const byLevel = new Map<string, TckSummary>();
  for (const row of rows) {
    const level = row.folder.split('/')[0] ?? '';
    let summary = byLevel.get(level);
    if (!summary) byLevel.set(level, (summary = { level, testCases: 0, passedTestCases: 0, results: 0, passedResults: 0 }));
    summary.testCases++;
    summary.results += row.results;
    summary.passedResults += row.passedResults;
    if (row.outcome === 'SUCCESS') summary.passedTestCases++;
  }
  return [...byLevel.values()].sort((a, b) => a.level.localeCompare(b.level));
}

/** A test case's id in expected-failures.json: `folder/file#testCase`. */
export function caseId(row: Pick<TckRow, 'folder' | 'file' | 'testCase'>): string {
  return `${row.folder}/${row.file}#${row.testCase}`;
}

/** A failure's cause, for grouping the expectations file: its first warning or its kind, without case-specific values. */
export function causeOf(row: TckRow): string {
  const generic = (text: string) =>
    text
      .replace(/ at offset \d+/g, '')
      .replace(/'[^']*'|"[^"]*"/g, '…')
      .replace(/\d+/g, 'N')
      .slice(0, 90);
  if (row.outcome === 'ERROR') return `error: ${generic(row.detail)}`;
  if (row.warning) {
    const warning = row.warning.slice(row.warning.indexOf(': ') + 2);
    const compile = /^FEEL (?:expression|unary tests) '[\s\S]*' do(?:es)? not compile: ([\s\S]*)$/.exec(warning);
    return compile ? `FEEL does not compile: ${generic(compile[1]!)}` : `null: ${generic(warning)}`;
  }
  // Without a warning the failure is in what FEEL computed: grouped by the feature the test folder covers.
  const feature = row.folder.split('/').at(-1)!.replace(/^\d+-/, '');
  return `${/expected null/.test(row.detail) ? 'a value where an error (null) is expected' : 'a different value'}: ${feature}`;
}
