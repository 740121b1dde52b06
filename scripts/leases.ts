// Leases on a development service (the Kafka broker, Keycloak) shared by concurrent test runs and files: each user
// writes a lease file named by its pid; the last one to release a service that tests started stops it. A directory
// lock serialises starts and releases across processes.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface LeasePaths {
  /** The service's state folder (holds the lock and the leases). */
  stateDir: string;
  lock: string;
  leases: string;
}

/**
 * A directory lock across processes; a lock left by a dead process (or older than ten minutes) is broken. A live
 * owner may hold it for a whole service start, so waiters wait `waitMs` (longer than the start timeout).
 */
export async function withLock<T>(paths: LeasePaths, waitMs: number, work: () => Promise<T>): Promise<T> {
  mkdirSync(paths.stateDir, { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(paths.lock);
      writeFileSync(join(paths.lock, 'owner'), `${process.pid}\n`);
      break;
    } catch {
      let stale: boolean;
      try {
        const owner = Number(readFileSync(join(paths.lock, 'owner'), 'utf8').trim());
        stale = !processAlive(owner) || Date.now() - statSync(paths.lock).mtimeMs > 600_000;
      } catch {
        stale = Date.now() - (statSync(paths.lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 5_000;
      }
      if (stale) rmSync(paths.lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`could not lock ${paths.lock}`);
      else await delay(100);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(paths.lock, { recursive: true, force: true });
  }
}

/** Records this process's lease (call under the lock). */
export function addLease(paths: LeasePaths): void {
  mkdirSync(paths.leases, { recursive: true });
  writeFileSync(join(paths.leases, String(process.pid)), '');
}

/** Drops this process's lease (call under the lock); true when no live process holds one any more. */
export function dropLease(paths: LeasePaths): boolean {
  rmSync(join(paths.leases, String(process.pid)), { force: true });
  let names: string[];
  try {
    names = readdirSync(paths.leases);
  } catch {
    names = [];
  }
  return names.filter((pid) => processAlive(Number(pid))).length === 0;
}
