// Spawns `verdict serve` as a real process and waits until it listens.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
  return env;
}

/**
 * How long a start may take before the test gives up on it. Only a guard against a start that never comes: a
 * server start is a few seconds of CPU, and a launcher (./dev, bin/verdict.js on an older Node) adds a Node start or
 * two, which at a load average of 8 on two cores is tens of seconds of wall time.
 */
export const START_GUARD_MS = 180_000;

/** Starts `verdict serve`; it is ready when it logs its URL, so LOG_LEVEL is always info here. */
export async function spawnServe(env: Record<string, string>, timeoutMs = START_GUARD_MS): Promise<ServeProcess> {
  return spawnUntilListening(process.execPath, [CLI, 'serve'], cleanEnv(env), timeoutMs);
}

/**
 * Starts any command that ends in `verdict serve` (`./dev start`, bin/verdict.js under another Node) with the
 * given complete environment, and waits until it logs its URL.
 *
 * The command leads a process group of its own: a start that fails or never comes kills the whole group, so a
 * server under a launcher is not left running. Such an orphan keeps the test's output pipes open, and the test file
 * would never end.
 */
export async function spawnUntilListening(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = START_GUARD_MS): Promise<ServeProcess> {
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { PORT: '0', HOST: '127.0.0.1', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${file} ${args.join(' ')} did not start within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /"url":"(http:\/\/[^"]+)","store"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      killGroup(child);
      reject(new Error(`${file} ${args.join(' ')} exited with ${code}\nstdout:\n${out}\nstderr:\n${err}`));
    });
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        killGroup(child);
        return child.exitCode;
      }
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      // What the command left behind (a server under a launcher that died) must not outlive the test.
      killGroup(child);
      return code;
    },
  };
}

/** SIGKILL to every process still in the child's process group (the child was spawned detached, as its leader). */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group is empty: everything in it has exited.
  }
}

/** Runs the CLI to completion. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * PIDs of live processes whose environment holds `NAME=value` (Linux /proc). A test gives its server a unique
 * DATABASE_URL and asks this afterwards: any PID left is an orphan still running.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or another user's process: neither is ours.
    }
  }
  return pids;
}

export interface HeldRule {
  /** A script rule (alias "held"): with `{"hold": true}` it stays in flight until release(); with `{}` it answers at once. */
  rule: Record<string, unknown>;
  /** What the server needs to run it: the HTTP allowlist for the holding server, and limits far beyond the test. */
  env: Record<string, string>;
  /** Resolves when a held solve has reached the server: its script is waiting on the holding server. */
  arrived: Promise<void>;
  /** Lets every held solve finish. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A request that is in flight inside the server for as long as the test wants, instead of a busy loop of some
 * milliseconds and a sleep that hopes the request got there: the rule's script calls an HTTP server of the test
 * (DR.http), which holds the call until release(). The test sees the solve arrive, signals the server, and only
 * then lets it finish, so "the signal came while the request was in flight" holds on a machine of any speed.
 */
export async function heldRule(): Promise<HeldRule> {
  const held: ServerResponse[] = [];
  let released = false;
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const server = createServer((req, res) => {
    if (req.url === '/hold' && !released) {
      held.push(res);
      arrive();
    } else {
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const rule = {
    name: 'Held', type: 'complex-rule', status: 'published', ruleAlias: 'held', inputSchema: {}, outputSchema: {},
    script: `await DR.http.get(input.hold ? "http://127.0.0.1:${port}/hold" : "http://127.0.0.1:${port}/now"); return { done: true };`,
  };
  const release = () => {
    released = true;
    for (const res of held.splice(0)) {
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    }
  };
  return {
    rule,
    env: { HTTP_FUNCTIONS_ALLOW: `127.0.0.1:${port}`, HTTP_FUNCTIONS_TIMEOUT_MS: '120000', RULE_TIMEOUT_MS: '120000', SHUTDOWN_TIMEOUT_MS: '120000' },
    arrived,
    release,
    close: async () => {
      release();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
