// `npm run bench`: runs every case (each in its own process), checks that the engines agree before timing,
// and writes bench/results/latest.md, latest.json and chart.svg. Prints the ratios at the end. No timing is
// asserted: CI runs `--quick` to keep the harness working and to show the figures.
import { execFileSync, fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseResult } from './lib/case.ts';
import { emptyResult, profileFlags } from './lib/case.ts';
import { parseOptions, USAGE } from './lib/options.ts';
import type { BenchOptions } from './lib/options.ts';
import { buildReport, printRatios, writeReport } from './lib/report.ts';
import { CASES, findCase } from './cases/index.ts';
import type { RunnerRequest } from './case-runner.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');

function runCase(id: string, options: BenchOptions): Promise<CaseResult> {
  const bench = findCase(id);
  const request: RunnerRequest = {
    caseId: id,
    context: {
      quick: options.quick, timing: options.timing, repoRoot, sharedDir: path.resolve(repoRoot, '..', 'shared'),
      ...(options.profileDir ? { profileDir: path.resolve(options.profileDir, id) } : {}),
    },
  };
  const limitMs = options.quick ? 120_000 : 900_000;
  return new Promise((resolve) => {
    const child = fork(path.join(here, 'case-runner.ts'), [JSON.stringify(request)], {
      execArgv: ['--expose-gc', ...profileFlags({ profileDir: request.context.profileDir }, 'case')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: CaseResult | undefined;
    const timer = setTimeout(() => {
      console.error(`${id}: no result after ${limitMs / 1000} s, stopping it`);
      child.kill('SIGKILL');
    }, limitMs);
    child.on('message', (message) => (result = message as CaseResult));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (result) return resolve(result);
      const failed = emptyResult(bench);
      failed.status = 'failed';
      failed.notes.push(`case process ended without a result (exit code ${code ?? 'none'}, signal ${signal ?? 'none'})`);
      resolve(failed);
    });
  });
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const ids = options.only.length ? options.only : CASES.map((c) => c.id);
  for (const id of ids) findCase(id);
  const started = Date.now();
  const results: CaseResult[] = [];
  for (const id of ids) {
    console.log(`\n== ${findCase(id).title} (${id})`);
    const result = await runCase(id, options);
    for (const note of result.notes) console.log(`  note: ${note}`);
    console.log(`  -> ${result.status} in ${(result.durationMs / 1000).toFixed(1)} s`);
    results.push(result);
  }
  const report = buildReport(results, {
    date: new Date(started).toISOString(),
    quick: options.quick,
    timing: options.timing,
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    commit: gitCommit(),
    totalSeconds: Math.round((Date.now() - started) / 100) / 10,
  });
  const outDir = options.outDir ? path.resolve(options.outDir) : path.join(here, 'results');
  mkdirSync(outDir, { recursive: true });
  const files = writeReport(report, outDir);
  printRatios(report);
  console.log(`\nwrote ${files.map((f) => path.relative(process.cwd(), f)).join(', ')} in ${report.meta.totalSeconds} s`);
  return 0;
}

process.exitCode = await main();
