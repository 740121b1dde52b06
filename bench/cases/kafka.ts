// Kafka: end-to-end solves/s and p99 over the real broker, Verdict's channel (`verdict serve` with KAFKA_ENABLED)
// in both delivery modes (at least once, the default, and KAFKA_EXACTLY_ONCE=true) against a raw consume-then-produce
// pipe written with the same client, alternating run by run. Reports "not available" while the channel or
// `npm run kafka:start` do not exist.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Admin } from '@platformatic/kafka';
import type { BenchCase, BenchContext, CaseResult } from '../lib/case.ts';
import { errorText, profileFlags, ratio } from '../lib/case.ts';
import { KafkaLoadClient } from '../lib/kafka-load.ts';
import type { KafkaRunResult } from '../lib/kafka-load.ts';
import { summarise } from '../lib/measure.ts';
import type { Started } from '../lib/processes.ts';
import { cpuSeconds, freePort, runToEnd, start, waitForHttp } from '../lib/processes.ts';
import { toVerdictTable } from '../lib/to-verdict.ts';
import { smallInputs, smallTable } from './tables.ts';

const WINDOW = 1000;

function reachable(hostPort: string, timeoutMs = 1500): Promise<boolean> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function hasStartScript(repoRoot: string): boolean {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return pkg.scripts?.['kafka:start'] !== undefined;
}

/** What is missing for this case to run, or an empty list. */
function missingParts(repoRoot: string): string[] {
  const missing: string[] = [];
  if (!['index.ts', 'channel.ts'].some((f) => existsSync(path.join(repoRoot, 'src', 'kafka', f)))) missing.push('the Kafka channel (src/kafka/index.ts)');
  if (!existsSync(path.join(repoRoot, 'src', 'cli', 'commands', 'kafka.ts'))) missing.push('`verdict kafka enable` (src/cli/commands/kafka.ts)');
  return missing;
}

function jsonOut(text: string): Record<string, unknown> {
  const line = text.trim().split('\n').reverse().find((l) => l.trim().startsWith('{'));
  if (!line) throw new Error(`expected JSON output, got: ${text}`);
  return JSON.parse(line) as Record<string, unknown>;
}

async function measure(ctx: BenchContext, result: CaseResult, brokers: string[]): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-bench-kafka-'));
  const servers: Started[] = [];
  const clients: KafkaLoadClient[] = [];
  const topics: string[] = [];
  const admin = new Admin({ clientId: 'bench-admin', bootstrapBrokers: brokers });
  const suffix = `${process.pid}${Date.now().toString(36)}`;
  try {
    const cli = (args: string[], env: Record<string, string>) => runToEnd(process.execPath, [path.join(ctx.repoRoot, 'src', 'cli', 'main.ts'), ...args], env, ctx.repoRoot);
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'verdict.db')}`, LOG_LEVEL: 'warn', TIMEZONE: 'UTC', KAFKA_BROKERS: brokers.join(',') };
    const ruleFile = path.join(dir, 'bench-small.json');
    writeFileSync(ruleFile, JSON.stringify(toVerdictTable(smallTable(), { ruleAlias: 'bench-small' })));
    const input = smallInputs().find((i) => (i.customer as { tier: string }).tier === 'gold')!;
    /** One space and topic pair per delivery mode, each answered by its own `verdict serve`. */
    // Each server has its own SQLite file (SQLite is the single-instance store).
    const spaceFor = async (name: string) => {
      const own = { ...env, DATABASE_URL: `sqlite:${path.join(dir, `${name}.db`)}` };
      const space = jsonOut(await cli(['space', 'create', name, '--json'], own));
      await cli(['import', ruleFile, '--space', name, '--json'], own);
      const pair = jsonOut(await cli(['kafka', 'enable', '--space', name, '--company', `${name}${suffix}`, '--json'], own));
      topics.push(String(pair.requestTopic), String(pair.responseTopic));
      return { name, env: own, key: String(space.solverKey), requestTopic: String(pair.requestTopic), responseTopic: String(pair.responseTopic) };
    };
    const spaces = [await spaceFor('bench'), await spaceFor('bencheos')];
    const verdictIn = async ({ name, env: ownEnv, key, requestTopic, responseTopic }: (typeof spaces)[number], extraEnv: Record<string, string>) => {
      const port = await freePort();
      const server = start(process.execPath, [...profileFlags(ctx, `verdict-serve-${name}`), path.join(ctx.repoRoot, 'src', 'cli', 'main.ts'), 'serve'], {
        ...ownEnv, PORT: String(port), HOST: '127.0.0.1', KAFKA_ENABLED: 'true', KAFKA_GROUP_ID: `${name}-verdict-${suffix}`, ...extraEnv,
      }, ctx.repoRoot);
      servers.push(server);
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, server, 60_000);
      const request = { headers: { 'api-key': key, 'rule-id': 'bench-small' }, value: JSON.stringify(input) };
      const client = await KafkaLoadClient.open(brokers, responseTopic);
      clients.push(client);
      const answer = JSON.parse(await client.probe({ requestTopic, ...request }, 60_000)) as { data?: unknown; errors?: unknown };
      if (answer.errors !== undefined || !Array.isArray(answer.data)) throw new Error(`Verdict's channel (${name}) answered ${JSON.stringify(answer)}`);
      return { server, client, requestTopic, request, answer };
    };
    const atLeastOnce = await verdictIn(spaces[0]!, {});
    // The load client reads read_committed (the client's default), as exactly-once readers must.
    const exactlyOnce = await verdictIn(spaces[1]!, { KAFKA_EXACTLY_ONCE: 'true', KAFKA_TRANSACTIONAL_ID: `bench-eos-${suffix}` });
    const { server: verdict, client: toVerdict, requestTopic, request, answer } = atLeastOnce;
    result.agreement.push({ scenario: 'kafka', inputs: 1, engines: ['Verdict channel', 'Verdict channel exactly once', 'raw pipe (same answer)'], nonEmpty: 1 });

    // The raw pipe answers with exactly Verdict's `data`, on topics of the same partition count.
    const metadata = await admin.metadata({ topics: [requestTopic] });
    const partitions = metadata.topics.get(requestTopic)?.partitionsCount ?? 3;
    const rawIn = `bench-raw-${suffix}-request`;
    const rawOut = `bench-raw-${suffix}-response`;
    await admin.createTopics({ topics: [rawIn, rawOut], partitions, replicas: 1 });
    topics.push(rawIn, rawOut);
    const responseFile = path.join(dir, 'data.json');
    writeFileSync(responseFile, JSON.stringify(answer.data));
    const pipe = start(process.execPath, [...profileFlags(ctx, 'kafka-raw-pipe'), path.join(ctx.repoRoot, 'bench', 'servers', 'kafka-raw-pipe.ts')], {
      BROKERS: brokers.join(','), IN_TOPIC: rawIn, OUT_TOPIC: rawOut, GROUP_ID: `bench-raw-${suffix}`, RESPONSE_FILE: responseFile,
    }, ctx.repoRoot);
    servers.push(pipe);
    const toRaw = await KafkaLoadClient.open(brokers, rawOut);
    clients.push(toRaw);
    await toRaw.probe({ requestTopic: rawIn, ...request }, 60_000);

    const total = ctx.quick ? 3000 : 20_000;
    const cpuUs: Record<'verdict' | 'eos' | 'raw', number[]> = { verdict: [], eos: [], raw: [] };
    const run = async (client: KafkaLoadClient, topic: string, server?: Started, into?: number[], headers = request) => {
      const before = cpuSeconds(server?.child.pid);
      const outcome = await client.run({ requestTopic: topic, ...headers, total, window: WINDOW, timeoutMs: 30_000 });
      const after = cpuSeconds(server?.child.pid);
      if (into && before !== undefined && after !== undefined) into.push(((after - before) * 1e6) / outcome.received);
      return outcome;
    };
    ctx.log(`  kafka: warm-up (${total} messages each, ${WINDOW} unanswered at most, ${partitions} partitions)`);
    await run(toVerdict, requestTopic);
    await run(exactlyOnce.client, exactlyOnce.requestTopic, undefined, undefined, exactlyOnce.request);
    await run(toRaw, rawIn);
    const runs: Record<'verdict' | 'eos' | 'raw', KafkaRunResult[]> = { verdict: [], eos: [], raw: [] };
    const shown = (r: KafkaRunResult) => `${Math.round(r.perSecond)}/s (p99 ${r.p99Ms.toFixed(1)} ms)`;
    for (let r = 0; r < ctx.timing.runs; r++) {
      runs.verdict.push(await run(toVerdict, requestTopic, verdict, cpuUs.verdict));
      runs.eos.push(await run(exactlyOnce.client, exactlyOnce.requestTopic, exactlyOnce.server, cpuUs.eos, exactlyOnce.request));
      runs.raw.push(await run(toRaw, rawIn, pipe, cpuUs.raw));
      ctx.log(`  kafka run ${r + 1}: Verdict ${shown(runs.verdict[r])}, exactly once ${shown(runs.eos[r])}, raw ${shown(runs.raw[r])}`);
    }
    const errors = [...runs.verdict, ...runs.eos].reduce((n, r) => n + r.errors, 0);
    if (errors > 0) {
      result.status = 'partial';
      result.notes.push(`${errors} Verdict responses carried errors`);
    }
    const rate = (rs: KafkaRunResult[]) => summarise(rs.map((r) => r.perSecond), 'ops/s');
    const lat = (rs: KafkaRunResult[], key: 'p50Ms' | 'p99Ms') => summarise(rs.map((r) => r[key]), 'ms');
    result.measurements.push(
      { scenario: 'kafka', engine: 'verdict', label: 'Verdict channel (solves/s)', sample: rate(runs.verdict) },
      { scenario: 'kafka', engine: 'verdict-eos', label: 'Verdict channel, KAFKA_EXACTLY_ONCE=true (solves/s)', sample: rate(runs.eos) },
      { scenario: 'kafka', engine: 'raw-pipe', label: 'raw consume-then-produce pipe (messages/s)', sample: rate(runs.raw) },
      { scenario: 'latency p50', engine: 'verdict', label: 'Verdict channel p50', sample: lat(runs.verdict, 'p50Ms') },
      { scenario: 'latency p50', engine: 'verdict-eos', label: 'Verdict channel exactly once p50', sample: lat(runs.eos, 'p50Ms') },
      { scenario: 'latency p50', engine: 'raw-pipe', label: 'raw pipe p50', sample: lat(runs.raw, 'p50Ms') },
      { scenario: 'latency p99', engine: 'verdict', label: 'Verdict channel p99', sample: lat(runs.verdict, 'p99Ms') },
      { scenario: 'latency p99', engine: 'verdict-eos', label: 'Verdict channel exactly once p99', sample: lat(runs.eos, 'p99Ms') },
      { scenario: 'latency p99', engine: 'raw-pipe', label: 'raw pipe p99', sample: lat(runs.raw, 'p99Ms') },
    );
    const cpuOf = (values: number[]) => (values.length === ctx.timing.runs ? summarise(values, 'µs') : undefined);
    const verdictCpu = cpuOf(cpuUs.verdict);
    const eosCpu = cpuOf(cpuUs.eos);
    const rawCpu = cpuOf(cpuUs.raw);
    if (verdictCpu && rawCpu) {
      result.measurements.push(
        { scenario: 'process CPU per message', engine: 'verdict', label: 'verdict serve', sample: verdictCpu },
        ...(eosCpu ? [{ scenario: 'process CPU per message', engine: 'verdict-eos', label: 'verdict serve, exactly once', sample: eosCpu }] : []),
        { scenario: 'process CPU per message', engine: 'raw-pipe', label: 'raw pipe', sample: rawCpu },
      );
    }
    const v = rate(runs.verdict).median;
    const raw = rate(runs.raw).median;
    const eos = rate(runs.eos).median;
    result.summary = {
      verdict: v, raw, ratio: ratio(v, raw), p99Ms: lat(runs.verdict, 'p99Ms').median, p50Ms: lat(runs.verdict, 'p50Ms').median,
      exactlyOnce: eos, exactlyOnceRatio: ratio(eos, raw), exactlyOnceP99Ms: lat(runs.eos, 'p99Ms').median, exactlyOnceP50Ms: lat(runs.eos, 'p50Ms').median,
      rawP99Ms: lat(runs.raw, 'p99Ms').median, messagesPerRun: total, window: WINDOW, partitions,
      verdictCpuUsPerMessage: verdictCpu?.median ?? null, exactlyOnceCpuUsPerMessage: eosCpu?.median ?? null, rawCpuUsPerMessage: rawCpu?.median ?? null,
    };
    result.notes.push(`${total} messages per run, at most ${WINDOW} unanswered; latency from produce call to response read; one verdict serve instance per delivery mode`);
  } finally {
    for (const c of clients) await c.close();
    for (const s of servers) await s.stop();
    if (topics.length) await admin.deleteTopics({ topics }).catch((error: unknown) => result.notes.push(`could not delete the bench topics: ${errorText(error)}`));
    await admin.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

export const kafkaCase: BenchCase = {
  id: 'kafka',
  title: 'Kafka: Verdict channel vs raw consume-then-produce pipe',
  key: 'kafka',
  async run(ctx, result) {
    const missing = missingParts(ctx.repoRoot);
    if (missing.length) {
      result.status = 'skipped';
      result.notes.push(`not available: ${missing.join(', ')} missing`);
      return;
    }
    const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:29092').split(',').map((b) => b.trim());
    let startedBroker = false;
    if (!(await reachable(brokers[0]))) {
      if (!hasStartScript(ctx.repoRoot)) {
        result.status = 'skipped';
        result.notes.push(`not available: no broker at ${brokers[0]} and no npm script kafka:start to start one`);
        return;
      }
      if (ctx.quick) {
        // Starting a broker (first time: fetching its jars) does not fit the quick budget.
        result.status = 'skipped';
        result.notes.push(`not available in --quick: no broker at ${brokers[0]} (npm run kafka:start starts one; a full run starts it itself)`);
        return;
      }
      ctx.log('  kafka: no broker; npm run kafka:start ...');
      try {
        await runToEnd('npm', ['run', 'kafka:start'], {}, ctx.repoRoot);
        startedBroker = true;
      } catch (error) {
        result.status = 'skipped';
        result.notes.push(`not available: no broker at ${brokers[0]} and npm run kafka:start failed: ${errorText(error).slice(0, 500)}`);
        return;
      }
    }
    try {
      await measure(ctx, result, brokers);
    } finally {
      if (startedBroker) await runToEnd('npm', ['run', 'kafka:stop'], {}, ctx.repoRoot).catch(() => undefined);
    }
  },
};
