// A single-node Apache Kafka broker (KRaft, combined broker+controller) for development and tests.
//
//   node scripts/kafka/broker.ts start [--clean]   (npm run kafka:start)
//   node scripts/kafka/broker.ts stop [--clean]    (npm run kafka:stop; --clean also deletes the data)
//   node scripts/kafka/broker.ts status
//
// Jars come from Maven Central through scripts/kafka/pom.xml into a cache outside the checkout
// ($VERDICT_KAFKA_CACHE, default ~/.cache/verdict-kafka/<version>/lib), so a fresh clone reuses them. Runtime state
// (config, TLS material, data, logs, pid) lives in .kafka/ (gitignored). Listeners:
//   127.0.0.1:29092  PLAINTEXT (clients, inter-broker)
//   127.0.0.1:29093  CONTROLLER (KRaft)
//   127.0.0.1:29094  SASL_SSL with PLAIN (security tests); CA certificate in .kafka/tls/ca.pem
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { processIsOurs, readPidFile, runWhenMain, stopProcess, tailOf } from '../dev-process.ts';
import { addLease, dropLease, withLock } from '../leases.ts';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '..', '..');

/** 4.4.0 is listed on Maven Central without its kafka-tools-api jar; 4.3.1 is the newest complete release. */
export const KAFKA_VERSION = process.env.KAFKA_VERSION ?? '4.3.1';

export const broker = {
  host: '127.0.0.1',
  plaintextPort: 29092,
  controllerPort: 29093,
  saslSslPort: 29094,
  /** PLAIN users of the SASL_SSL listener. Development-only credentials. */
  saslUsername: 'verdict',
  saslPassword: 'verdict-secret',
  stateDir: process.env.VERDICT_KAFKA_STATE ?? join(projectRoot, '.kafka'),
};

export const paths = {
  config: join(broker.stateDir, 'server.properties'),
  log4j: join(broker.stateDir, 'log4j2.properties'),
  data: join(broker.stateDir, 'data'),
  logs: join(broker.stateDir, 'logs'),
  tls: join(broker.stateDir, 'tls'),
  caFile: join(broker.stateDir, 'tls', 'ca.pem'),
  pid: join(broker.stateDir, 'broker.pid'),
  out: join(broker.stateDir, 'logs', 'broker.out'),
  /** Present while the running broker was started by test runs (acquireBroker), which then also stop it. */
  testOwned: join(broker.stateDir, 'started-by-tests'),
  leases: join(broker.stateDir, 'leases'),
  lock: join(broker.stateDir, 'lock'),
};

export const plaintextBootstrap = `${broker.host}:${broker.plaintextPort}`;
export const saslSslBootstrap = `${broker.host}:${broker.saslSslPort}`;

const STORE_PASSWORD = 'verdict-dev-store';

function cacheDir(): string {
  const base = process.env.VERDICT_KAFKA_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'verdict-kafka');
  return join(base, KAFKA_VERSION);
}

function log(line: string): void {
  process.stderr.write(`kafka: ${line}\n`);
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw new Error(`${what}: cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${what} failed (${command} exit ${result.status}):\n${(result.stdout + result.stderr).trim().slice(-4000)}`);
  }
}

/** True when `command -version`-style probing finds the tool on PATH. */
export function hasTool(command: string, versionFlag = '-version'): boolean {
  const result = spawnSync(command, [versionFlag], { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

/** Resolves the broker's jars once per version; later calls return the cached folder immediately. */
export function ensureJars(): string {
  const lib = join(cacheDir(), 'lib');
  const marker = join(cacheDir(), '.complete');
  if (existsSync(marker)) return lib;
  if (!hasTool('mvn', '-v')) throw new Error('Maven (mvn) is not on PATH: it is needed once to fetch the Kafka jars');
  log(`resolving org.apache.kafka:kafka_2.13:${KAFKA_VERSION} from Maven Central into ${lib}`);
  const started = Date.now();
  rmSync(lib, { recursive: true, force: true });
  run(
    'mvn',
    ['-q', '-B', '-f', join(here, 'pom.xml'), `-Dkafka.version=${KAFKA_VERSION}`, `-Dkafka.lib=${lib}`, 'dependency:copy-dependencies'],
    'resolving the Kafka jars',
  );
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  log(`jars resolved in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return lib;
}

/** A development CA and a broker certificate signed by it (SAN localhost and 127.0.0.1), made with keytool. */
function ensureTls(): void {
  const keystore = join(paths.tls, 'broker.p12');
  if (existsSync(keystore) && existsSync(paths.caFile)) return;
  rmSync(paths.tls, { recursive: true, force: true });
  mkdirSync(paths.tls, { recursive: true });
  const ca = join(paths.tls, 'ca.p12');
  const csr = join(paths.tls, 'broker.csr');
  const crt = join(paths.tls, 'broker.crt');
  const store = ['-storetype', 'PKCS12', '-storepass', STORE_PASSWORD];
  const san = 'SAN=dns:localhost,ip:127.0.0.1';
  const kt = (args: string[], what: string) => run('keytool', args, what);
  kt(['-genkeypair', '-alias', 'ca', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '3650', '-dname', 'CN=Verdict development CA', '-ext', 'bc:c', '-keystore', ca, ...store], 'creating the CA key');
  kt(['-exportcert', '-rfc', '-alias', 'ca', '-keystore', ca, ...store, '-file', paths.caFile], 'exporting the CA certificate');
  kt(['-genkeypair', '-alias', 'broker', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '3650', '-dname', 'CN=localhost', '-ext', san, '-keystore', keystore, ...store], 'creating the broker key');
  kt(['-certreq', '-alias', 'broker', '-keystore', keystore, ...store, '-file', csr], 'creating the broker certificate request');
  kt(['-gencert', '-rfc', '-alias', 'ca', '-keystore', ca, ...store, '-infile', csr, '-outfile', crt, '-validity', '3650', '-ext', san, '-ext', 'ku:c=digitalSignature,keyEncipherment', '-ext', 'eku=serverAuth'], 'signing the broker certificate');
  kt(['-importcert', '-noprompt', '-alias', 'ca', '-file', paths.caFile, '-keystore', keystore, ...store], 'importing the CA into the broker keystore');
  kt(['-importcert', '-noprompt', '-alias', 'broker', '-file', crt, '-keystore', keystore, ...store], 'importing the broker certificate');
}

function serverProperties(): string {
  const { host, plaintextPort, controllerPort, saslSslPort, saslUsername, saslPassword } = broker;
  return `# Written by scripts/kafka/broker.ts: single-node KRaft broker for development and tests.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@${host}:${controllerPort}
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://${host}:${plaintextPort},CONTROLLER://${host}:${controllerPort},SASL_SSL://${host}:${saslSslPort}
advertised.listeners=PLAINTEXT://${host}:${plaintextPort},SASL_SSL://${host}:${saslSslPort}
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL
inter.broker.listener.name=PLAINTEXT
log.dirs=${paths.data}

# One node: every internal topic has one replica.
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
auto.create.topics.enable=false
# Tests join and leave groups often; do not wait for more members before the first assignment.
group.initial.rebalance.delay.ms=0
group.classic.min.session.timeout.ms=1000

# SASL_SSL listener: PLAIN over TLS; the CA that signed the broker certificate is ${paths.caFile}.
sasl.enabled.mechanisms=PLAIN
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${saslUsername}="${saslPassword}";
ssl.keystore.type=PKCS12
ssl.keystore.location=${join(paths.tls, 'broker.p12')}
ssl.keystore.password=${STORE_PASSWORD}
ssl.key.password=${STORE_PASSWORD}
ssl.client.auth=none
`;
}

function log4jProperties(): string {
  return `# Written by scripts/kafka/broker.ts
status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = ${join(paths.logs, 'server.log')}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.kafka.name = kafka
logger.kafka.level = info
logger.state.name = state.change.logger
logger.state.level = warn
logger.request.name = kafka.request.logger
logger.request.level = warn
`;
}

const readPid = () => readPidFile(paths.pid);

/** The pid file may outlive the process, and the pid may be reused: check it really is our broker. */
const brokerAlive = (pid: number) => processIsOurs(pid, ['kafka.Kafka']);

export function runningPid(): number | undefined {
  const pid = readPid();
  return pid !== undefined && brokerAlive(pid) ? pid : undefined;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect({ host: broker.host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolvePromise(false);
    });
    socket.once('error', () => resolvePromise(false));
  });
}

/** Ready means the broker answers a metadata request on the plaintext listener and the SASL_SSL port accepts. */
async function waitReady(pid: number | undefined, timeoutMs: number): Promise<void> {
  const { Admin } = await import('@platformatic/kafka');
  const deadline = Date.now() + timeoutMs;
  let lastError = 'not reachable';
  while (Date.now() < deadline) {
    if (pid !== undefined && !brokerAlive(pid)) {
      throw new Error(`the broker exited during start-up; last lines of ${paths.out} and ${join(paths.logs, 'server.log')}:\n${tail(paths.out)}\n${tail(join(paths.logs, 'server.log'))}`);
    }
    if (await portOpen(broker.plaintextPort)) {
      const admin = new Admin({ clientId: 'verdict-broker-probe', bootstrapBrokers: [plaintextBootstrap], retries: 0, timeout: 2000 });
      try {
        const metadata = await admin.metadata({ topics: [] });
        if (metadata.brokers.size > 0 && (await portOpen(broker.saslSslPort))) return;
        lastError = 'no broker registered yet';
      } catch (error) {
        lastError = (error as Error).message;
      } finally {
        await admin.close().catch(() => undefined);
      }
    }
    await delay(250);
  }
  throw new Error(`the broker did not become ready within ${timeoutMs / 1000} s (${lastError}); see ${paths.out}`);
}

const tail = (file: string) => tailOf(file);

export interface StartResult {
  /** False when a broker of ours was already running (the caller should then not stop it). */
  started: boolean;
  bootstrap: string;
}

/**
 * How long a start may take. A JVM starting on two cores that a test run keeps busy has been seen to need most of
 * a minute; the wait is a guard against a broker that never comes up, not a performance bound.
 */
const START_TIMEOUT_MS = 180_000;

export async function startBroker(options: { clean?: boolean; timeoutMs?: number } = {}): Promise<StartResult> {
  const existing = runningPid();
  if (existing !== undefined && !options.clean) {
    await waitReady(existing, options.timeoutMs ?? START_TIMEOUT_MS);
    return { started: false, bootstrap: plaintextBootstrap };
  }
  if (existing !== undefined) await stopBroker();
  if (!hasTool('java')) throw new Error('Java is not on PATH: the Kafka broker needs a JRE 17 or newer');
  if (await portOpen(broker.plaintextPort)) {
    throw new Error(`port ${broker.plaintextPort} is taken by another process; stop it or set KAFKA_BROKERS to use that broker`);
  }
  const lib = ensureJars();
  if (options.clean) rmSync(paths.data, { recursive: true, force: true });
  mkdirSync(paths.logs, { recursive: true });
  ensureTls();
  writeFileSync(paths.config, serverProperties());
  writeFileSync(paths.log4j, log4jProperties());
  const classpath = join(lib, '*');
  const jvm = ['-Xms256m', '-Xmx1g', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError', '-Djava.awt.headless=true'];
  const logging = [`-Dlog4j2.configurationFile=${paths.log4j}`, `-Dkafka.logs.dir=${paths.logs}`];

  if (!existsSync(join(paths.data, 'meta.properties'))) {
    // A KRaft cluster id is a base64url UUID (16 bytes, 22 characters). One starting with '-' (1 in 64) would be
    // read by the storage tool as an option ("--cluster-id: expected one argument"), so draw again.
    let clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
    run('java', ['-cp', classpath, ...logging, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', paths.config], 'formatting the broker storage');
  }

  const out = openSync(paths.out, 'a');
  const child = spawn('java', ['-cp', classpath, ...jvm, ...logging, 'kafka.Kafka', paths.config], {
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  if (child.pid === undefined) throw new Error('could not start java');
  writeFileSync(paths.pid, `${child.pid}\n`);
  child.unref();
  const started = Date.now();
  await waitReady(child.pid, options.timeoutMs ?? START_TIMEOUT_MS);
  log(`broker ${KAFKA_VERSION} ready on ${plaintextBootstrap} (SASL_SSL ${saslSslBootstrap}) in ${((Date.now() - started) / 1000).toFixed(1)} s, pid ${child.pid}`);
  return { started: true, bootstrap: plaintextBootstrap };
}

/** SIGTERM (controlled shutdown), SIGKILL after the timeout. */
export async function stopBroker(options: { clean?: boolean; timeoutMs?: number } = {}): Promise<boolean> {
  const pid = runningPid();
  let stopped = false;
  if (pid !== undefined) {
    await stopProcess(pid, { alive: brokerAlive, signal: (signal) => process.kill(pid, signal), timeoutMs: options.timeoutMs ?? 30_000, log });
    stopped = true;
  }
  rmSync(paths.pid, { force: true });
  rmSync(paths.testOwned, { force: true });
  if (options.clean) rmSync(paths.data, { recursive: true, force: true });
  return stopped;
}

/**
 * Test runs share one broker: each holds a lease while it uses it. The first starts the broker when none runs (and
 * marks it test-owned); the last one to release a test-owned broker stops it. A broker started by `npm run
 * kafka:start` is never stopped by tests.
 */
export async function acquireBroker(): Promise<string> {
  return locked(async () => {
    if (runningPid() === undefined) {
      await startBroker();
      writeFileSync(paths.testOwned, `${process.pid}\n`);
    } else {
      await waitReady(runningPid(), START_TIMEOUT_MS);
    }
    addLease(leasePaths);
    return plaintextBootstrap;
  });
}

/**
 * The test runner's hold on the broker for a whole run (test/global-setup.ts): starts nothing, but while this
 * process lives, a test-owned broker the first Kafka test file started keeps running after that file ends, so the
 * run starts the broker once. releaseBroker() at the end of the run stops it.
 */
export async function holdBrokerForRun(): Promise<void> {
  await locked(async () => addLease(leasePaths));
}

export async function releaseBroker(): Promise<void> {
  await locked(async () => {
    if (dropLease(leasePaths) && existsSync(paths.testOwned)) {
      await stopBroker();
      rmSync(paths.testOwned, { force: true });
    }
  });
}

const leasePaths = { stateDir: broker.stateDir, lock: paths.lock, leases: paths.leases };

/** A live owner may hold the lock for a whole broker start, so waiters wait longer than START_TIMEOUT_MS. */
function locked<T>(work: () => Promise<T>): Promise<T> {
  return withLock(leasePaths, START_TIMEOUT_MS + 60_000, work);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const clean = rest.includes('--clean');
  switch (command) {
    case 'start': {
      const result = await startBroker({ clean });
      // Started by hand, the broker is the user's: a test run that started it earlier (and was killed before its
      // clean-up) must not stop it when its next run ends.
      rmSync(paths.testOwned, { force: true });
      if (!result.started) log(`broker already running on ${result.bootstrap}`);
      return 0;
    }
    case 'stop':
      log((await stopBroker({ clean })) ? 'broker stopped' : 'no broker running');
      return 0;
    case 'status': {
      const pid = runningPid();
      process.stdout.write(pid === undefined ? 'stopped\n' : `running (pid ${pid}) on ${plaintextBootstrap}\n`);
      return pid === undefined ? 1 : 0;
    }
    default:
      process.stderr.write('usage: node scripts/kafka/broker.ts start|stop|status [--clean]\n');
      return 2;
  }
}

runWhenMain(import.meta.url, main, log);
