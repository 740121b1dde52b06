// Test harness for the Kafka channel against a real broker: starts the development broker (scripts/kafka) when
// KAFKA_BROKERS is not set, runs Verdict instances in-process (startServer with KAFKA_ENABLED, exactly what
// `verdict serve` does) or as `verdict serve` child processes, and talks to the topics as a client would.
import { spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import { Admin, Consumer, Producer, stringSerializer } from '@platformatic/kafka';
import type { MessagesStream } from '@platformatic/kafka';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server/start.ts';
import type { RunningServer } from '../../src/server/start.ts';
import { withServices } from '../../src/server/one-shot.ts';
import type { KafkaBinding } from '../../src/store/ports.ts';
import { fruitTable } from './fixtures.ts';
import { acquireBroker, broker, hasTool, paths, releaseBroker, saslSslBootstrap } from '../../scripts/kafka/broker.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CI = process.env.CI === 'true';

export interface SaslTarget {
  bootstrap: string;
  caFile: string;
  username: string;
  password: string;
}

export interface KafkaEnvironment {
  bootstrap: string;
  /** The SASL_SSL listener of the development broker; undefined with an external KAFKA_BROKERS and no KAFKA_TEST_SASL_*. */
  sasl: SaslTarget | undefined;
  stop(): Promise<void>;
}

/** One test file's use of the broker: its skip reason (or false), the broker, and the topics to delete afterwards. */
export interface KafkaSuite {
  skip: string | false;
  kafka: KafkaEnvironment;
  /** Topics the file created; deleted, and the broker released, after its last test. */
  createdTopics: string[];
}

/** kafkaEnvironment() for a test file, with the clean-up after its last test registered. Call at top level. */
export async function kafkaSuite(): Promise<KafkaSuite> {
  const environment = await kafkaEnvironment();
  const skip = 'skip' in environment ? environment.skip : false;
  const kafka = environment as KafkaEnvironment;
  const createdTopics: string[] = [];
  after(async () => {
    if (skip) return;
    await deleteTopics(kafka.bootstrap, createdTopics);
    await kafka.stop();
  });
  return { skip, kafka, createdTopics };
}

/**
 * The broker to test against, or a skip reason. With KAFKA_BROKERS set that broker is used as is; otherwise the
 * development broker is started when none runs, and stopped after the last test run using it. Without Java (or Maven and no
 * cached jars) the suites skip loudly, except under CI=true where that is a failure.
 */
export async function kafkaEnvironment(): Promise<KafkaEnvironment | { skip: string }> {
  const external = process.env.KAFKA_BROKERS?.trim();
  if (external) {
    const sasl = process.env.KAFKA_TEST_SASL_BROKERS
      ? {
          bootstrap: process.env.KAFKA_TEST_SASL_BROKERS,
          caFile: process.env.KAFKA_TEST_SASL_CA_FILE ?? '',
          username: process.env.KAFKA_TEST_SASL_USERNAME ?? '',
          password: process.env.KAFKA_TEST_SASL_PASSWORD ?? '',
        }
      : undefined;
    return { bootstrap: external, sasl, stop: () => Promise.resolve() };
  }
  const missing = !hasTool('java') ? 'Java' : !hasTool('mvn', '-v') && !jarsCached() ? 'Maven' : undefined;
  if (missing !== undefined) {
    const reason = `${missing} is not installed, so the Kafka broker cannot start (or set KAFKA_BROKERS)`;
    if (CI) throw new Error(`The Kafka integration tests are required when CI=true: ${reason}`);
    console.warn(`\n*** ${reason}: SKIPPING the Kafka integration tests ***\n`);
    return { skip: reason };
  }
  const bootstrap = await acquireBroker();
  return {
    bootstrap,
    sasl: { bootstrap: saslSslBootstrap, caFile: paths.caFile, username: broker.saslUsername, password: broker.saslPassword },
    stop: () => releaseBroker(),
  };
}

function jarsCached(): boolean {
  const base = process.env.VERDICT_KAFKA_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? '', '.cache'), 'verdict-kafka');
  return existsSync(base);
}

/** kcat from Debian's packages; installed on demand when running as root. Undefined: not available. */
export function ensureKcat(): string | undefined {
  if (hasTool('kcat', '-V')) return 'kcat';
  if (process.getuid?.() === 0 && hasTool('apt-get', '--version')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    let result = spawnSync('apt-get', ['install', '-y', '-q', 'kcat'], { env, stdio: 'ignore' });
    if (result.status !== 0) {
      spawnSync('apt-get', ['update', '-q'], { env, stdio: 'ignore' });
      result = spawnSync('apt-get', ['install', '-y', '-q', 'kcat'], { env, stdio: 'ignore' });
    }
    if (result.status === 0 && hasTool('kcat', '-V')) return 'kcat';
  }
  return undefined;
}

export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export interface TempDb {
  url: string;
  path: string;
  cleanup(): void;
}

export function tempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-kafka-test-'));
  const path = join(dir, 'verdict.db');
  return { url: `sqlite:${path}`, path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Instance {
  running: RunningServer;
  logs: Array<Record<string, unknown>>;
  /** Emits 'log' for every log line. */
  events: EventEmitter;
  /** Partitions this instance was assigned in its latest assignment. */
  assigned(): string[];
  close(): Promise<void>;
}

/** A Verdict server with the Kafka channel, in this process: the code path of `verdict serve`. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', VERDICT_SEED_EXAMPLES: 'false', LOG_LEVEL: 'info', ...env, KAFKA_ENABLED: 'true' });
  const logs: Array<Record<string, unknown>> = [];
  const events = new EventEmitter();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        events.emit('log', entry);
      }
      done();
    },
  });
  const logger = pino({ level: config.logLevel }, sink);
  const running = await startServer({ config, logger, services: { defaultMetrics: false } });
  return {
    running,
    logs,
    events,
    assigned: () => {
      const last = logs.filter((l) => l.msg === 'kafka partitions assigned').at(-1);
      return (last?.partitions as string[] | undefined) ?? [];
    },
    close: () => running.close(),
  };
}

/** Env for an instance of the channel against the test broker. */
export function channelEnv(bootstrap: string, db: TempDb, groupId: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    KAFKA_ENABLED: 'true',
    KAFKA_BROKERS: bootstrap,
    KAFKA_GROUP_ID: groupId,
    KAFKA_TOPIC_REFRESH_MS: '300',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    ...extra,
  };
}

export interface ServeProcess {
  child: ChildProcess;
  /** stdout and stderr lines so far. */
  lines: string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** `verdict serve` as a child process; resolves once its Kafka channel has started. */
export async function spawnServe(env: Record<string, string>, timeoutMs = 90_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'src/cli/main.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VERDICT_SEED_EXAMPLES: 'false', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`verdict serve did not start its Kafka channel within ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
    const onLine = (line: string) => {
      lines.push(line);
      if (line.includes('"kafka channel started"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    for (const stream of [child.stdout!, child.stderr!]) {
      let buffered = '';
      stream.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        for (const part of parts) onLine(part);
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`verdict serve exited (${code}) before its Kafka channel started:\n${lines.join('\n')}`));
    });
  });
  await started;
  return { child, lines, exited };
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface ClientTarget {
  bootstrap: string;
  sasl?: SaslTarget;
}

function connectionOf(target: ClientTarget, role: string) {
  const base = { clientId: uniqueId(`test-${role}`), bootstrapBrokers: [target.bootstrap] };
  if (target.sasl === undefined) return base;
  return {
    ...base,
    tls: { ca: readFileSync(target.sasl.caFile) },
    sasl: { mechanism: 'PLAIN' as const, username: target.sasl.username, password: target.sasl.password },
  };
}

export interface Request {
  key?: string;
  /** Sent as is; undefined: a null value. */
  value?: string | Buffer;
  headers?: Record<string, string>;
  partition?: number;
}

export interface Response {
  key: string | undefined;
  partition: number;
  offset: bigint;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/** What a client of the channel does: write requests, read responses. */
export class TestClient {
  readonly #target: ClientTarget;
  readonly #producer: Producer<Buffer, Buffer, string, string>;
  readonly #collectors: ResponseCollector[] = [];

  constructor(target: ClientTarget) {
    this.#target = target;
    this.#producer = new Producer<Buffer, Buffer, string, string>({
      ...connectionOf(target, 'producer'),
      idempotent: true,
      serializers: { headerKey: stringSerializer, headerValue: stringSerializer },
    });
  }

  async produce(topic: string, requests: Request[], batchSize = 1000): Promise<void> {
    for (let i = 0; i < requests.length; i += batchSize) {
      await this.#producer.send({
        messages: requests.slice(i, i + batchSize).map((r) => ({
          topic,
          key: r.key === undefined ? undefined : Buffer.from(r.key),
          value: r.value === undefined ? undefined : Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value),
          headers: r.headers ?? {},
          partition: r.partition,
        })),
      });
    }
  }

  /** Reads the topic from its beginning, from now until closed. */
  async collect(topic: string): Promise<ResponseCollector> {
    const collector = new ResponseCollector();
    await collector.start(this.#target, topic);
    this.#collectors.push(collector);
    return collector;
  }

  async close(): Promise<void> {
    for (const collector of this.#collectors) await collector.close();
    await this.#producer.close();
  }
}

export class ResponseCollector {
  readonly responses: Response[] = [];
  /** Responses per x-correlation-id header, kept as they arrive so that waits stay cheap at 20,000 responses. */
  readonly counts = new Map<string, number>();
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #waiters: Array<() => void> = [];
  #wakeScheduled = false;

  async start(target: ClientTarget, topic: string): Promise<void> {
    this.#consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({ ...connectionOf(target, 'reader'), groupId: uniqueId('test-reader'), maxWaitTime: 200 });
    this.#stream = await this.#consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false });
    this.#stream.on('data', (message) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of message.headerEntries) headers[k.toString()] = v?.toString() ?? '';
      const text = message.value?.toString('utf8') ?? '';
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      this.responses.push({ key: message.key?.toString(), partition: message.partition, offset: message.offset, headers, text, body });
      const id = headers['x-correlation-id'];
      if (id !== undefined) this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
      // Waiters are checked once per batch of arrivals, not once per message.
      if (!this.#wakeScheduled) {
        this.#wakeScheduled = true;
        setImmediate(() => {
          this.#wakeScheduled = false;
          for (const wake of this.#waiters.splice(0)) wake();
        });
      }
    });
  }

  /** Resolves when `done(responses)` holds, checked as responses arrive. */
  waitFor(done: (responses: Response[]) => boolean, timeoutMs = 90_000, what = 'responses'): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; got ${this.responses.length} responses`));
      }, timeoutMs);
      const check = () => {
        if (done(this.responses)) {
          clearTimeout(timer);
          resolve();
        } else this.#waiters.push(check);
      };
      check();
    });
  }

  waitForCount(count: number, timeoutMs = 90_000): Promise<void> {
    return this.waitFor((r) => r.length >= count, timeoutMs, `${count} responses`);
  }

  /** Waits until every correlation id `${prefix}-0` .. `${prefix}-${count - 1}` has been answered. */
  waitForAll(prefix: string, count: number, timeoutMs: number): Promise<void> {
    return this.waitFor(() => this.missing(prefix, count).length === 0, timeoutMs, `all ${count} "${prefix}" requests`);
  }

  missing(prefix: string, count: number): string[] {
    const missing: string[] = [];
    for (let i = 0; i < count; i++) if (!this.counts.has(`${prefix}-${i}`)) missing.push(`${prefix}-${i}`);
    return missing;
  }

  /** Correlation ids with this prefix answered more than once. */
  duplicates(prefix: string): string[] {
    return [...this.counts].filter(([id, n]) => id.startsWith(`${prefix}-`) && n > 1).map(([id]) => id);
  }

  byKey(key: string): Response | undefined {
    return this.responses.find((r) => r.key === key);
  }

  async close(): Promise<void> {
    await this.#stream?.close().catch(() => undefined);
    await this.#consumer?.close(true).catch(() => undefined);
  }
}

/** Creates a space with its keys and imports rules, through the running instance's services. */
export async function seedSpace(instance: Instance, name: string, rules: Record<string, unknown>[]) {
  const space = await instance.running.services.spaces.create(name);
  if (rules.length > 0) await instance.running.services.rulesIO.importContainer(name, rules);
  return space;
}

export async function bindSpace(instance: Instance, space: string, company: string, partitions = 3): Promise<KafkaBinding> {
  return instance.running.services.kafka.enable({ space, company, partitions });
}

/** A space with the fruit table and its 3-partition topic pair, written to the store a `verdict serve` will open. */
export async function seedServeSpace(bootstrap: string, db: TempDb, space: string, company: string): Promise<{ key: string; pair: KafkaBinding }> {
  return withServices(
    async (services) => {
      const created = await services.spaces.create(space);
      await services.rulesIO.importContainer(space, [fruitTable()]);
      const pair = await services.kafka.enable({ space, company, partitions: 3 });
      return { key: created.solverKey, pair };
    },
    { DATABASE_URL: db.url, KAFKA_BROKERS: bootstrap },
  );
}

export async function deleteTopics(bootstrap: string, topics: string[]): Promise<void> {
  if (topics.length === 0) return;
  const admin = new Admin({ clientId: uniqueId('test-admin'), bootstrapBrokers: [bootstrap] });
  try {
    await admin.deleteTopics({ topics });
  } catch {
    // Best effort: leftover topics on a development broker are harmless.
  } finally {
    await admin.close().catch(() => undefined);
  }
}

/** Resolves when `condition()` holds, re-checked on every log line of the instances (no polling). */
export function whenLogged(instances: Instance[], condition: () => boolean, timeoutMs = 90_000, what = 'a condition'): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!condition()) return;
      cleanup();
      resolve();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      for (const instance of instances) instance.events.off('log', check);
    };
    for (const instance of instances) instance.events.on('log', check);
    check();
  });
}

/** Solves the Kafka-channel solves counted by an instance's metrics. */
export async function kafkaSolves(instance: Instance): Promise<number> {
  const metric = await instance.running.services.metrics.solves.get();
  return metric.values.filter((v) => v.labels.channel === 'kafka').reduce((sum, v) => sum + v.value, 0);
}
