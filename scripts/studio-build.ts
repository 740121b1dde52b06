// Builds the Studio (studio/ -> studio/dist) when the build is missing or older than its sources. One place for
// "is the build stale" so `./dev start`, the end-to-end tests and the Studio benchmark agree.
// CLI: `node scripts/studio-build.ts` builds only when stale; `--force` always builds.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const studioDist = path.join(repoRoot, 'studio', 'dist');

/** Everything the bundle is made from: the Studio's sources and config, the engine code it imports, the lock file. */
const SOURCES = ['studio/src', 'studio/index.html', 'studio/vite.config.ts', 'studio/tsconfig.json', 'src/engine', 'package-lock.json'];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function studioBuildIsStale(): boolean {
  const index = path.join(studioDist, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(repoRoot, source)) > built);
}

/** Runs Vite (the same as `npm run build:studio`) in this process's Node. */
export function buildStudio(): void {
  const vite = path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', path.join(repoRoot, 'studio', 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** Builds when missing or stale; returns whether it built. */
export function ensureStudioBuilt(): boolean {
  if (!studioBuildIsStale()) return false;
  buildStudio();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--force')) buildStudio();
  else if (ensureStudioBuilt()) console.error('studio: built studio/dist');
}
