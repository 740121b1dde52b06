// Spawns `verdict serve` as a real process and waits until it listens.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
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

/** Starts `verdict serve`; it is ready when it logs its URL, so LOG_LEVEL is always info here. */
export async function spawnServe(env: Record<string, string>, timeoutMs = 30_000): Promise<ServeProcess> {
  return spawnUntilListening(process.execPath, [CLI, 'serve'], cleanEnv(env), timeoutMs);
}

/**
 * Starts any command that ends in `verdict serve` (`./dev start`, bin/verdict.js under another Node) with the
 * given complete environment, and waits until it logs its URL.
 */
export async function spawnUntilListening(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<ServeProcess> {
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { PORT: '0', HOST: '127.0.0.1', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
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
      reject(new Error(`${file} ${args.join(' ')} exited with ${code}\nstdout:\n${out}\nstderr:\n${err}`));
    });
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
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
