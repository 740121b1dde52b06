// Runs the real CLI in a child process, as a user would, and captures its output and exit code.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
