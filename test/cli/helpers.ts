// Runs the real CLI in a child process, as a user would, and captures its output and exit code; or, for usage
// errors and help texts, parses the same command line in this process (no command action runs there).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliProgram, runProgram } from '../../src/cli/program.ts';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
export const RULE_FIXTURES = fileURLToPath(new URL('../fixtures/rules/', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, TIMEZONE: '', RULE_TIMEOUT_MS: '', VERDICT_DEBUG: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/**
 * `verdict ARGS` in this process: the program a process builds, writing to strings, with the same exit code and
 * failure line. Only for command lines that end before a command's action (usage errors, --help, -V): most actions
 * write to the process's own stdout, so a case that reaches one fails here and needs runCli. Each command keeps
 * real-process tests (runCli) of its exit codes and output; this spares a process start per usage case.
 */
export async function parseInProcess(args: string[]): Promise<CliRun> {
  return inProcess(args, false);
}

/**
 * `verdict solve ARGS` or offline `verdict test ARGS` run to the end in this process: these commands write their
 * result and warnings through the program's output, so the run is what a process prints, without a Node start
 * (about 0.4 s of CPU) per case. Not for what belongs to the process: stdin (`-`), TIMEZONE or RULE_TIMEOUT_MS from
 * the environment (cleared here as runCli clears them), a store (--space, DATABASE_URL), scripting rules (a
 * sandbox), regular expressions that need main.ts's linear-time engine. Real-process tests (runCli) cover each of
 * those, and each command's exit codes and output.
 */
export async function runInProcess(args: string[]): Promise<CliRun> {
  assert.ok(args[0] === 'solve' || args[0] === 'test', 'only verdict solve and verdict test write everything through their program');
  assert.ok(!args.includes('-'), 'stdin belongs to the process: use runCli');
  assert.ok(!args.includes('--space'), 'a store run reads DATABASE_URL from the process: use runCli');
  for (const name of ['TIMEZONE', 'RULE_TIMEOUT_MS', 'VERDICT_DEBUG']) delete process.env[name];
  return inProcess(args, true);
}

async function inProcess(args: string[], actions: boolean): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const output = { writeOut: (text: string) => void (stdout += text), writeErr: (text: string) => void (stderr += text) };
  const program = await cliProgram(args, output);
  let reachedAction = false;
  if (!actions) {
    program.hook('preAction', () => {
      reachedAction = true;
      throw new Error('stopped before the action');
    });
  }
  // runProgram answers process.exitCode when a command set one (lint); this process's own, which node:test sets
  // when a test fails, is not the command's.
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    code = await runProgram(program, args, output);
  } finally {
    process.exitCode ??= exitCode;
  }
  assert.equal(reachedAction, false, `verdict ${args.join(' ')} reached its command action: run it in a process (runCli)`);
  return { code, stdout, stderr };
}

export function fixturePath(name: string): string {
  return join(RULE_FIXTURES, name);
}

export function readFixture(name: string): any {
  return JSON.parse(readFileSync(fixturePath(name), 'utf8'));
}

const created: string[] = [];

/** A fresh temporary directory with the given files (name -> JSON value or raw text). */
export function tempDir(files: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-cli-'));
  created.push(dir);
  for (const [name, content] of Object.entries(files)) {
    const file = join(dir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

/** Removes every directory tempDir() made (call from an `after` hook). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
