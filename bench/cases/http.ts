// HTTP: autocannon against `verdict serve` (SQLite in a temp dir, rules imported through the CLI) and against a
// bare Fastify route answering the same JSON, alternating run by run in the same process. Also the wall time of a
// 10,000-input bulk solve over HTTP.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { compileRule, solveSync } from '../../src/engine/index.ts';
import { difference } from '../lib/answers.ts';
import type { BenchCase, BenchContext, CaseResult } from '../lib/case.ts';
import { profileFlags, ratio } from '../lib/case.ts';
import { summarise } from '../lib/measure.ts';
import type { Sample } from '../lib/measure.ts';
import type { Started } from '../lib/processes.ts';
import { cpuSeconds, freePort, runToEnd, start, waitForHttp } from '../lib/processes.ts';
import { toVerdictTable, verdictStrategy } from '../lib/to-verdict.ts';
import { loanInputs, loanTable, smallInputs, smallTable } from './tables.ts';
import { BULK_SIZE, smallBulkInputs } from './engine-bulk.ts';

const CONNECTIONS = 32;

interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  failed: number;
  /** Server CPU time per request (µs), when /proc can tell. */
  cpuUs: number | undefined;
}

async function load(url: string, headers: Record<string, string>, body: string, seconds: number, server?: Started): Promise<Load> {
  const cpuBefore = cpuSeconds(server?.child.pid);
  const r = await autocannon({ url, method: 'POST', headers, body, connections: CONNECTIONS, pipelining: 1, duration: seconds });
  const cpuAfter = cpuSeconds(server?.child.pid);
  const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / r.requests.total : undefined;
  return { reqPerSec: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts, cpuUs };
}

function cli(ctx: BenchContext, args: string[], env: Record<string, string>): Promise<string> {
  return runToEnd(process.execPath, [path.join(ctx.repoRoot, 'src', 'cli', 'main.ts'), ...args], env, ctx.repoRoot);
}

/** The last JSON object a `--json` command printed. */
function jsonOut(text: string): Record<string, unknown> {
  const line = text.trim().split('\n').reverse().find((l) => l.trim().startsWith('{'));
  if (!line) throw new Error(`expected JSON output, got: ${text}`);
  return JSON.parse(line) as Record<string, unknown>;
}

/** Creates a space and imports the rule files through the CLI; returns the space's solver key. */
async function prepareStore(ctx: BenchContext, env: Record<string, string>, files: string[]): Promise<string> {
  const space = jsonOut(await cli(ctx, ['space', 'create', 'bench', '--json'], env));
  if (typeof space.solverKey !== 'string') throw new Error(`space create printed no solverKey: ${JSON.stringify(space)}`);
  for (const file of files) await cli(ctx, ['import', file, '--space', 'bench', '--json'], env);
  return space.solverKey;
}

async function startVerdict(ctx: BenchContext, env: Record<string, string>, name = 'verdict-serve', discardStdout = false): Promise<{ server: Started; base: string }> {
  const port = await freePort();
  const server = start(process.execPath, [...profileFlags(ctx, name), path.join(ctx.repoRoot, 'src', 'cli', 'main.ts'), 'serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, ctx.repoRoot, discardStdout);
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/health-check`, server);
  return { server, base };
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/**
 * Median wall time of a bulk request, after checking it answers one result per input. Warmed up like every other
 * measurement (for the run's warm-up time, at least one request): one request leaves the server's bulk path
 * half-compiled, and the runs after it then measure V8's tiering rather than the server.
 */
async function bulkOverHttp(ctx: BenchContext, result: CaseResult, scenario: string, url: string, headers: Record<string, string>, inputs: readonly unknown[]): Promise<number> {
  const body = JSON.stringify({ data: inputs });
  const answer = await post(url, headers, body);
  if (!Array.isArray(answer) || answer.length !== inputs.length) {
    throw new Error(`${scenario}: answered ${Array.isArray(answer) ? answer.length : typeof answer} results for ${inputs.length} inputs`);
  }
  ctx.log(`  http: ${scenario} (${(body.length / 1_048_576).toFixed(1)} MB request) ...`);
  for (const warmEnd = performance.now() + ctx.timing.warmupMs; performance.now() < warmEnd;) await post(url, headers, body);
  const times: number[] = [];
  for (let r = 0; r < ctx.timing.runs; r++) {
    const t = performance.now();
    await post(url, headers, body);
    times.push(performance.now() - t);
  }
  const sample = summarise(times, 'ms');
  result.measurements.push({ scenario, engine: 'verdict', label: 'verdict serve, one request', sample });
  return sample.median;
}

async function measure(ctx: BenchContext, result: CaseResult): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-bench-http-'));
  const servers: Started[] = [];
  try {
    const small = smallTable();
    const loan = loanTable(500);
    const files = [path.join(dir, 'bench-small.json'), path.join(dir, 'bench-loan.json')];
    writeFileSync(files[0], JSON.stringify(toVerdictTable(small, { ruleAlias: 'bench-small' })));
    writeFileSync(files[1], JSON.stringify(toVerdictTable(loan, { ruleAlias: 'bench-loan' })));
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'verdict.db')}`, LOG_LEVEL: 'warn', TIMEZONE: 'UTC' };
    const key = await prepareStore(ctx, env, files);
    const verdict = await startVerdict(ctx, env);
    servers.push(verdict.server);
    const input = smallInputs().find((i) => (i.customer as { tier: string }).tier === 'gold')!;
    const body = JSON.stringify({ data: input });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-strategy': verdictStrategy(small) };
    const verdictUrl = `${verdict.base}/rule/solve/bench-small`;

    // The answer over HTTP must be the engine's answer, and the baseline answers with exactly that JSON.
    const answer = await post(verdictUrl, headers, body);
    const expected = solveSync(compileRule(toVerdictTable(small)), input, { strategy: verdictStrategy(small) }).result;
    const d = difference(expected, answer);
    if (d) throw new Error(`verdict serve answered ${JSON.stringify(answer)}, the engine ${JSON.stringify(expected)}: ${d}`);
    result.agreement.push({ scenario: 'solve', inputs: 1, engines: ['verdict serve', 'engine'], nonEmpty: 1 });
    const responseFile = path.join(dir, 'response.json');
    writeFileSync(responseFile, JSON.stringify(answer));
    const fastifyPort = await freePort();
    const bare = start(process.execPath, [...profileFlags(ctx, 'fastify-bare'), path.join(ctx.repoRoot, 'bench', 'servers', 'fastify-bare.ts')], { PORT: String(fastifyPort), RESPONSE_FILE: responseFile }, ctx.repoRoot);
    servers.push(bare);
    const fastifyUrl = `http://127.0.0.1:${fastifyPort}/rule/solve/bench-small`;
    await waitForHttp(`http://127.0.0.1:${fastifyPort}/health-check`, bare);

    const seconds = ctx.quick ? 1 : 5;
    ctx.log(`  http: warm-up (${CONNECTIONS} connections)`);
    await load(verdictUrl, headers, body, ctx.quick ? 1 : 3);
    await load(fastifyUrl, headers, body, ctx.quick ? 1 : 3);
    const runs: Record<'verdict' | 'fastify', Load[]> = { verdict: [], fastify: [] };
    for (let r = 0; r < ctx.timing.runs; r++) {
      runs.verdict.push(await load(verdictUrl, headers, body, seconds, verdict.server));
      runs.fastify.push(await load(fastifyUrl, headers, body, seconds, bare));
      ctx.log(`  http run ${r + 1}: Verdict ${Math.round(runs.verdict[r].reqPerSec)} req/s, Fastify ${Math.round(runs.fastify[r].reqPerSec)} req/s`);
    }
    for (const [name, server, loads] of [['verdict serve', verdict.server, runs.verdict], ['bare Fastify', bare, runs.fastify]] as const) {
      const failed = loads.reduce((n, l) => n + l.failed, 0);
      if (failed > 0) {
        result.status = 'partial';
        const exited = server.child.exitCode !== null || server.child.signalCode !== null;
        result.notes.push(`${name}: ${failed} requests failed (non-2xx, errors or timeouts)${exited ? `; the server exited (${server.child.exitCode ?? server.child.signalCode}): ${server.output().slice(-1500)}` : ''}`);
      }
    }
    const rate = (loads: Load[]): Sample => summarise(loads.map((l) => l.reqPerSec), 'ops/s');
    const cpu = (loads: Load[]): Sample | undefined =>
      loads.every((l) => l.cpuUs !== undefined) ? summarise(loads.map((l) => l.cpuUs!), 'µs') : undefined;
    const latency = (loads: Load[], key: 'p50' | 'p99'): Sample => summarise(loads.map((l) => l[key]), 'ms');
    result.measurements.push(
      { scenario: 'solve', engine: 'verdict', label: 'verdict serve (req/s)', sample: rate(runs.verdict) },
      { scenario: 'solve', engine: 'fastify', label: 'bare Fastify route (req/s)', sample: rate(runs.fastify) },
      { scenario: 'latency p50', engine: 'verdict', label: 'verdict serve p50', sample: latency(runs.verdict, 'p50') },
      { scenario: 'latency p50', engine: 'fastify', label: 'bare Fastify p50', sample: latency(runs.fastify, 'p50') },
      { scenario: 'latency p99', engine: 'verdict', label: 'verdict serve p99', sample: latency(runs.verdict, 'p99') },
      { scenario: 'latency p99', engine: 'fastify', label: 'bare Fastify p99', sample: latency(runs.fastify, 'p99') },
    );
    const verdictCpu = cpu(runs.verdict);
    const fastifyCpu = cpu(runs.fastify);
    if (verdictCpu && fastifyCpu) {
      result.measurements.push(
        { scenario: 'server CPU per request', engine: 'verdict', label: 'verdict serve', sample: verdictCpu },
        { scenario: 'server CPU per request', engine: 'fastify', label: 'bare Fastify', sample: fastifyCpu },
      );
    }

    // 10,000-input bulks, one request at a time: on the 500-row table (as case (g)) and on the small table.
    const bulk = await bulkOverHttp(ctx, result, 'bulk 10,000 (500-row table)', `${verdict.base}/rule/solve/bench-loan`, { ...headers, 'x-strategy': verdictStrategy(loan) }, loanInputs(BULK_SIZE, 7));
    const bulkSmall = await bulkOverHttp(ctx, result, 'bulk 10,000 (small table)', verdictUrl, headers, smallBulkInputs());

    // The default log level writes one line per request: what that costs, in full runs (stdout to /dev/null).
    let infoRate: number | null = null;
    if (!ctx.quick) {
      await verdict.server.stop();
      const info = await startVerdict(ctx, { ...env, LOG_LEVEL: 'info' }, 'verdict-serve-info', true);
      servers.push(info.server);
      const infoUrl = `${info.base}/rule/solve/bench-small`;
      await load(infoUrl, headers, body, 3);
      const loads: Load[] = [];
      for (let r = 0; r < ctx.timing.runs; r++) loads.push(await load(infoUrl, headers, body, seconds));
      result.measurements.push({ scenario: 'solve, LOG_LEVEL=info', engine: 'verdict', label: 'verdict serve, LOG_LEVEL=info (req/s)', sample: rate(loads) });
      infoRate = rate(loads).median;
    }

    const v = rate(runs.verdict).median;
    const f = rate(runs.fastify).median;
    result.summary = {
      verdict: v, fastify: f, ratio: ratio(v, f),
      p50Ms: latency(runs.verdict, 'p50').median, p99Ms: latency(runs.verdict, 'p99').median,
      fastifyP50Ms: latency(runs.fastify, 'p50').median, fastifyP99Ms: latency(runs.fastify, 'p99').median,
      verdictCpuUsPerRequest: verdictCpu?.median ?? null, fastifyCpuUsPerRequest: fastifyCpu?.median ?? null,
      // Server capacity per core, Verdict / Fastify: steadier than the req/s ratio on a shared machine.
      cpuRatio: verdictCpu && fastifyCpu ? Math.round((fastifyCpu.median / verdictCpu.median) * 100) / 100 : null,
      bulk10kMs: bulk, bulk10kSmallMs: bulkSmall, connections: CONNECTIONS, logLevel: 'warn', verdictLogInfo: infoRate, ratioLogInfo: ratio(infoRate, f),
    };
    result.notes.push(`autocannon with ${CONNECTIONS} connections, ${seconds} s per run, Verdict and Fastify runs alternating; verdict serve at LOG_LEVEL=warn`);
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const httpCase: BenchCase = {
  id: 'http',
  title: 'HTTP: verdict serve vs bare Fastify',
  key: 'http',
  async run(ctx, result) {
    if (!existsSync(path.join(ctx.repoRoot, 'src', 'cli', 'main.ts'))) {
      result.status = 'skipped';
      result.notes.push('not available: src/cli/main.ts (verdict serve) does not exist yet');
      return;
    }
    await measure(ctx, result);
  },
};
