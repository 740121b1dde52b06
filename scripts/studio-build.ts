// Builds the Studio (studio/ -> studio/dist) for the end-to-end tests and the Studio benchmark when the build is
// missing or stale. Staleness is decided in one place, scripts/studio-stale.sh (also used by `./dev start`).
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const studioDist = path.join(repoRoot, 'studio', 'dist');

export function studioBuildIsStale(): boolean {
  const check = spawnSync('bash', [path.join(repoRoot, 'scripts', 'studio-stale.sh'), repoRoot], { encoding: 'utf8' });
  if (check.status !== 0 && check.status !== 1) throw new Error(`scripts/studio-stale.sh failed: ${check.stderr || check.error?.message}`);
  return check.status === 0;
}

/** Runs Vite (the same as `npm run build:studio`) in this process's Node. */
export function buildStudio(): void {
  const vite = path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', path.join(repoRoot, 'studio', 'vite.config.ts'), '--logLevel', 'error'], {
    cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** Builds when missing or stale; returns whether it built. */
export function ensureStudioBuilt(): boolean {
  if (!studioBuildIsStale()) return false;
  buildStudio();
  return true;
}
