// Starting and stopping the servers a case measures (each its own process), and waiting for them to answer.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface Started {
  child: ChildProcess;
  /** Everything the process wrote, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a server process. `discardStdout`: its stdout goes to /dev/null (request logs must not load our process). */
export function start(command: string, args: string[], env: Record<string, string>, cwd: string, discardStdout = false): Started {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', discardStdout ? 'ignore' : 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Polls `url` until it answers 2xx; fails early when the process exits, and after `timeoutMs`. */
export async function waitForHttp(url: string, process: Started, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) throw new Error(`process exited (code ${process.child.exitCode}) before ${url} answered:\n${process.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${process.output()}`);
}

/** Runs a command to completion and returns its stdout; throws with stderr on a non-zero exit. */
export function runToEnd(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${[command, ...args].join(' ')} exited ${code}: ${stderr || stdout}`))));
  });
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. Per-request CPU
 * is a steadier figure than req/s on a shared machine: other processes take wall time, not our CPU time.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / CLOCK_TICKS : undefined;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;
