// A Keycloak server (OpenID Connect provider) for development and the identity tests, with the test realm of
// test/fixtures/keycloak/verdict-realm.json imported at every start (in-memory database: nothing persists).
//
//   node scripts/keycloak/server.ts start|stop|status   (npm run keycloak:start|stop)
//
// The distribution comes from Maven Central (org.keycloak:keycloak-quarkus-dist, a 165 MB zip) through Maven into
// a cache outside the checkout ($VERDICT_KEYCLOAK_CACHE, default ~/.cache/verdict-keycloak/<version>), unpacked
// once. It needs Java 21+: $KEYCLOAK_JAVA_HOME, else $JAVA_HOME, else the newest JDK under /usr/lib/jvm that is 21
// or newer, else `java` on PATH. Runtime state (pid, log, leases) lives in .keycloak/ (gitignored).
// The realm `verdict` on http://127.0.0.1:28180 (KEYCLOAK_PORT) has: clients verdict-studio (authorization code +
// PKCE), verdict-machine (client credentials; verdict_role editor), verdict-solver (role solver) and
// verdict-other-audience; users erin (verdict-editors), paul (verdict-publishers), vera (verdict-viewers), each
// with password `<name>-password`. Development-only credentials.
// The server runs from a copy of the distribution built once for its options (`kc.sh build`, then `start
// --optimized`): `start-dev` re-augments the distribution at every start, tens of seconds of CPU that a test run
// paid while its suites ran.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { processIsOurs, readPidFile, runWhenMain, stopProcess, tailOf } from '../dev-process.ts';
import { addLease, dropLease, withLock } from '../leases.ts';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '..', '..');

export const KEYCLOAK_VERSION = process.env.KEYCLOAK_VERSION ?? '26.5.6';

const port = Number(process.env.KEYCLOAK_PORT ?? 28180);
const stateDir = process.env.VERDICT_KEYCLOAK_STATE ?? join(projectRoot, '.keycloak');

export const keycloak = {
  port,
  /** The management interface (health); kept off Keycloak's default 9000. */
  managementPort: port + 10,
  baseUrl: `http://127.0.0.1:${port}`,
  realm: 'verdict',
  issuer: `http://127.0.0.1:${port}/realms/verdict`,
  realmFile: join(projectRoot, 'test', 'fixtures', 'keycloak', 'verdict-realm.json'),
  adminUsername: 'admin',
  adminPassword: 'verdict-keycloak-admin',
  /** Clients and users of the test realm (development-only secrets). */
  clients: {
    studio: { id: 'verdict-studio', secret: 'verdict-studio-secret' },
    machine: { id: 'verdict-machine', secret: 'verdict-machine-secret' },
    solver: { id: 'verdict-solver', secret: 'verdict-solver-secret' },
    otherAudience: { id: 'verdict-other-audience', secret: 'verdict-other-secret' },
  },
  audience: 'verdict-api',
  users: { erin: 'erin-password', paul: 'paul-password', vera: 'vera-password' },
};

export const paths = {
  stateDir,
  pid: join(stateDir, 'keycloak.pid'),
  out: join(stateDir, 'keycloak.out'),
  testOwned: join(stateDir, 'started-by-tests'),
  leases: join(stateDir, 'leases'),
  lock: join(stateDir, 'lock'),
};

/** How long a start may take: about 40 s on an idle machine, much more on two cores busy with a test run. */
const START_TIMEOUT_MS = 240_000;

function log(line: string): void {
  process.stderr.write(`keycloak: ${line}\n`);
}

function cacheDir(): string {
  const base = process.env.VERDICT_KEYCLOAK_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'verdict-keycloak');
  return join(base, KEYCLOAK_VERSION);
}

function javaMajor(java: string): number | undefined {
  const result = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return undefined;
  const match = /version "(\d+)/.exec(result.stderr + result.stdout);
  return match ? Number(match[1]) : undefined;
}

/** A java executable of version 21 or newer, or undefined (Keycloak 26 needs 21+). */
export function findJava(): string | undefined {
  const homes = [process.env.KEYCLOAK_JAVA_HOME, process.env.JAVA_HOME].filter((home): home is string => !!home);
  let jvms: string[];
  try {
    jvms = readdirSync('/usr/lib/jvm').map((name) => join('/usr/lib/jvm', name));
  } catch {
    jvms = [];
  }
  const candidates = [...homes.map((home) => join(home, 'bin', 'java')), ...jvms.map((home) => join(home, 'bin', 'java')).filter(existsSync)];
  const ranked = candidates
    .map((java) => ({ java, major: javaMajor(java) ?? 0 }))
    .filter((candidate) => candidate.major >= 21);
  // Explicit homes first, in order; then the newest JDK found.
  const explicit = ranked.find((candidate) => homes.some((home) => candidate.java.startsWith(home)));
  if (explicit) return explicit.java;
  const newest = ranked.sort((a, b) => b.major - a.major)[0];
  if (newest) return newest.java;
  return (javaMajor('java') ?? 0) >= 21 ? 'java' : undefined;
}

/** True when this machine can run the test Keycloak (Java 21+, and Maven or an already unpacked distribution). */
export function keycloakAvailable(): boolean {
  if (findJava() === undefined) return false;
  if (existsSync(join(cacheDir(), '.complete'))) return true;
  return !spawnSync('mvn', ['-v'], { stdio: 'ignore' }).error;
}

/** Fetches and unpacks the distribution once per version; later calls return the cached folder immediately. */
export function ensureDistribution(): string {
  const dist = join(cacheDir(), `keycloak-${KEYCLOAK_VERSION}`);
  const marker = join(cacheDir(), '.complete');
  if (existsSync(marker)) return dist;
  log(`fetching org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION} from Maven Central into ${cacheDir()}`);
  const started = Date.now();
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(cacheDir(), { recursive: true });
  const result = spawnSync(
    'mvn',
    ['-q', '-B', 'dependency:unpack', `-Dartifact=org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION}:zip`, `-DoutputDirectory=${cacheDir()}`],
    { encoding: 'utf8', cwd: cacheDir() },
  );
  if (result.error) throw new Error(`cannot run mvn (needed once to fetch Keycloak): ${result.error.message}`);
  if (result.status !== 0 || !existsSync(join(dist, 'bin', 'kc.sh'))) {
    throw new Error(`fetching Keycloak failed (mvn exit ${result.status}):\n${(result.stdout + result.stderr).trim().slice(-4000)}`);
  }
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  log(`distribution fetched and unpacked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return dist;
}

/** The build-time options (persisted by `kc.sh build`): an in-memory database and a local cache, as start-dev had. */
const BUILD_OPTIONS = ['--db=dev-mem', '--cache=local'];

/**
 * The distribution built for BUILD_OPTIONS, once per version and options. A copy of its own: `kc.sh start-dev`
 * (an older checkout's tests) rewrites the build of the distribution it runs from, and would undo this one.
 */
export function ensureBuilt(): string {
  const dist = ensureDistribution();
  const built = join(cacheDir(), `keycloak-${KEYCLOAK_VERSION}-built`);
  const marker = join(cacheDir(), '.built');
  const wanted = BUILD_OPTIONS.join(' ');
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === wanted && existsSync(join(built, 'bin', 'kc.sh'))) return built;
  const java = findJava();
  if (java === undefined) throw new Error('no Java 21 or newer found (KEYCLOAK_JAVA_HOME, JAVA_HOME, /usr/lib/jvm): Keycloak 26 needs one');
  log(`building Keycloak for ${wanted} into ${built}`);
  const started = Date.now();
  rmSync(marker, { force: true });
  rmSync(built, { recursive: true, force: true });
  cpSync(dist, built, { recursive: true });
  const result = spawnSync(join(built, 'bin', 'kc.sh'), ['build', ...BUILD_OPTIONS], { encoding: 'utf8', env: { ...process.env, JAVA: java } });
  if (result.error || result.status !== 0) {
    throw new Error(`kc.sh build failed (exit ${result.status ?? result.error?.message}):\n${(result.stdout + result.stderr).trim().slice(-4000)}`);
  }
  writeFileSync(marker, `${wanted}\n`);
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return built;
}

const readPid = () => readPidFile(paths.pid);

/** The pid file may outlive the process and the pid be reused: check it is our kc.sh (or the JVM it exec'd into). */
const serverAlive = (pid: number) => processIsOurs(pid, ['kc.sh', '-Dkc.home.dir=']);

export function runningPid(): number | undefined {
  const pid = readPid();
  return pid !== undefined && serverAlive(pid) ? pid : undefined;
}

/** Ready means the test realm answers OpenID Connect discovery. */
async function waitReady(pid: number | undefined, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'not reachable';
  while (Date.now() < deadline) {
    if (pid !== undefined && !serverAlive(pid)) {
      throw new Error(`Keycloak exited during start-up; last lines of ${paths.out}:\n${tailOf(paths.out, 40)}`);
    }
    try {
      const response = await fetch(`${keycloak.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await delay(500);
  }
  throw new Error(`Keycloak did not become ready within ${timeoutMs / 1000} s (${lastError}); see ${paths.out}`);
}

/** Resident memory of the server's JVM (kc.sh's child), MB; undefined when not known. */
export function residentMb(pid = runningPid()): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // kc.sh runs the JVM as its child, or becomes it (exec) after a first-start re-augmentation.
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const target = children[0] ?? String(pid);
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${target}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

export interface StartResult {
  /** False when a server of ours was already running (the caller should then not stop it). */
  started: boolean;
  issuer: string;
}

export async function startKeycloak(options: { timeoutMs?: number } = {}): Promise<StartResult> {
  const existing = runningPid();
  if (existing !== undefined) {
    await waitReady(existing, options.timeoutMs ?? START_TIMEOUT_MS);
    return { started: false, issuer: keycloak.issuer };
  }
  const java = findJava();
  if (java === undefined) throw new Error('no Java 21 or newer found (KEYCLOAK_JAVA_HOME, JAVA_HOME, /usr/lib/jvm): Keycloak 26 needs one');
  const dist = ensureBuilt();
  // --import-realm reads the distribution's data/import; the realm is copied there at every start so an edit of the
  // fixture applies. The database is in memory, so every start imports a clean realm.
  mkdirSync(join(dist, 'data', 'import'), { recursive: true });
  copyFileSync(keycloak.realmFile, join(dist, 'data', 'import', 'verdict-realm.json'));
  mkdirSync(paths.stateDir, { recursive: true });
  const out = openSync(paths.out, 'w');
  const child = spawn(
    join(dist, 'bin', 'kc.sh'),
    [
      // Production mode on the prebuilt distribution, with what start-dev implied: plain HTTP, any hostname.
      'start',
      '--optimized',
      '--http-enabled=true',
      '--hostname-strict=false',
      `--http-port=${keycloak.port}`,
      '--http-host=127.0.0.1',
      `--http-management-port=${keycloak.managementPort}`,
      '--import-realm',
    ],
    {
      detached: true,
      stdio: ['ignore', out, out],
      env: {
        ...process.env,
        JAVA: java,
        JAVA_OPTS_KC_HEAP: '-Xms64m -Xmx512m',
        KC_BOOTSTRAP_ADMIN_USERNAME: keycloak.adminUsername,
        KC_BOOTSTRAP_ADMIN_PASSWORD: keycloak.adminPassword,
      },
    },
  );
  closeSync(out);
  if (child.pid === undefined) throw new Error('could not start kc.sh');
  writeFileSync(paths.pid, `${child.pid}\n`);
  child.unref();
  const started = Date.now();
  await waitReady(child.pid, options.timeoutMs ?? START_TIMEOUT_MS);
  log(`Keycloak ${KEYCLOAK_VERSION} ready at ${keycloak.issuer} in ${((Date.now() - started) / 1000).toFixed(1)} s, pid ${child.pid}, ${residentMb(child.pid) ?? '?'} MB resident`);
  return { started: true, issuer: keycloak.issuer };
}

/** SIGTERM to kc.sh's process group (kc.sh forwards it to the JVM), SIGKILL after the timeout. */
export async function stopKeycloak(options: { timeoutMs?: number } = {}): Promise<boolean> {
  const pid = runningPid();
  let stopped = false;
  if (pid !== undefined) {
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        process.kill(pid, signal);
      }
    };
    await stopProcess(pid, { alive: serverAlive, signal: signalGroup, timeoutMs: options.timeoutMs ?? 30_000, log });
    stopped = true;
  }
  rmSync(paths.pid, { force: true });
  rmSync(paths.testOwned, { force: true });
  return stopped;
}

const leasePaths = { stateDir: paths.stateDir, lock: paths.lock, leases: paths.leases };

function locked<T>(work: () => Promise<T>): Promise<T> {
  return withLock(leasePaths, START_TIMEOUT_MS + 60_000, work);
}

/**
 * Test files share one server: the first starts it when none runs (and marks it test-owned); the last lease
 * released on a test-owned server stops it. A server started by `npm run keycloak:start` is never stopped by tests.
 */
export async function acquireKeycloak(): Promise<string> {
  return locked(async () => {
    if (runningPid() === undefined) {
      await startKeycloak();
      writeFileSync(paths.testOwned, `${process.pid}\n`);
    } else {
      await waitReady(runningPid(), START_TIMEOUT_MS);
    }
    addLease(leasePaths);
    return keycloak.issuer;
  });
}

/** The test runner's hold for a whole run (test/global-setup.ts): the first suite's server serves the rest. */
export async function holdKeycloakForRun(): Promise<void> {
  await locked(async () => addLease(leasePaths));
}

export async function releaseKeycloak(): Promise<void> {
  await locked(async () => {
    if (dropLease(leasePaths) && existsSync(paths.testOwned)) await stopKeycloak();
  });
}

async function main(argv: string[]): Promise<number> {
  switch (argv[0]) {
    case 'start': {
      const result = await startKeycloak();
      // Started by hand, the server is the user's: a test run must not stop it.
      rmSync(paths.testOwned, { force: true });
      if (!result.started) log(`already running at ${result.issuer}`);
      return 0;
    }
    case 'stop':
      log((await stopKeycloak()) ? 'stopped' : 'not running');
      return 0;
    case 'status': {
      const pid = runningPid();
      process.stdout.write(pid === undefined ? 'stopped\n' : `running (pid ${pid}, ${residentMb(pid) ?? '?'} MB) at ${keycloak.issuer}\n`);
      return pid === undefined ? 1 : 0;
    }
    case 'fetch':
      ensureBuilt();
      return 0;
    default:
      process.stderr.write('usage: node scripts/keycloak/server.ts start|stop|status|fetch\n');
      return 2;
  }
}

runWhenMain(import.meta.url, main, log);
