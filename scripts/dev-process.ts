// A development service's process as its scripts track it (the Kafka broker, Keycloak): a pid file that may
// outlive the process, a check that a pid is still ours, the last lines of its output, a stop that escalates.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

export function readPidFile(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The pid may be reused by another program: alive and its command line contains one of `marks`. */
export function processIsOurs(pid: number, marks: readonly string[]): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return marks.some((mark) => cmdline.includes(mark));
  } catch {
    return true;
  }
}

export function tailOf(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** SIGTERM, then SIGKILL after `timeoutMs`; returns once `alive` says no. */
export async function stopProcess(
  pid: number,
  options: { alive: (pid: number) => boolean; signal: (signal: NodeJS.Signals) => void; timeoutMs: number; log: (line: string) => void },
): Promise<void> {
  options.signal('SIGTERM');
  const deadline = Date.now() + options.timeoutMs;
  while (options.alive(pid) && Date.now() < deadline) await delay(100);
  if (options.alive(pid)) {
    options.log(`process ${pid} did not stop within the timeout; killing it`);
    options.signal('SIGKILL');
    while (options.alive(pid)) await delay(50);
  }
}

/** Runs `main` with the arguments when the module at `moduleUrl` is the one node was started with; exits with its code. */
export function runWhenMain(moduleUrl: string, main: (argv: string[]) => Promise<number>, log: (line: string) => void): void {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      log(`error: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
