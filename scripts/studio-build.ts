// Builds the Studio (studio/ -> studio/dist) for the end-to-end tests and the Studio benchmark when the build is
// missing or stale, and the table designer's harness page for its browser test. Staleness is decided in one place,
// scripts/studio-stale.sh (also used by `./dev start`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
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

/** The table designer's dev harness page (studio/src/designer/dev/harness.html) as built for its browser test. */
export const designerHarnessDist = path.join(repoRoot, 'node_modules', '.cache', 'verdict-designer-harness');

/**
 * Builds the designer's harness page when it is missing, or older than the Studio build or than this file (its
 * build settings): it is built from a part of the Studio's sources, so the Studio build, remade whenever one of
 * them changes (scripts/studio-stale.sh), dates them for it too. Call it after ensureStudioBuilt(). Returns the
 * folder that holds harness.html.
 */
export async function ensureDesignerHarnessBuilt(): Promise<string> {
  const page = path.join(designerHarnessDist, 'harness.html');
  const sources = Math.max(statSync(path.join(studioDist, 'index.html')).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs);
  if (existsSync(page) && statSync(page).mtimeMs >= sources) return designerHarnessDist;
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  const root = path.join(repoRoot, 'studio', 'src', 'designer', 'dev');
  mkdirSync(path.dirname(designerHarnessDist), { recursive: true });
  // Built beside the folder and renamed into place, so a test never serves half a build.
  const staging = mkdtempSync(`${designerHarnessDist}-`);
  try {
    await build({
      configFile: false, root, base: './', logLevel: 'error', plugins: [react()],
      build: { outDir: staging, emptyOutDir: true, rolldownOptions: { input: path.join(root, 'harness.html') } },
    });
    rmSync(designerHarnessDist, { recursive: true, force: true });
    renameSync(staging, designerHarnessDist);
  } catch (error) {
    // Another run may have put its build in place first: that one is as good.
    if (!existsSync(page)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return designerHarnessDist;
}
