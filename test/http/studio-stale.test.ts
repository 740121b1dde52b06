// scripts/studio-stale.sh, which `./dev start` asks whether to build the Studio: a missing build, or any source of
// it newer than studio/dist/index.html, means build; files inside studio/dist never do. Run on a temporary tree
// of the checkout's shape with chosen modification times.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from './process.ts';

let tree: string;
const T0 = new Date('2026-01-01T00:00:00Z');
const LATER = new Date('2026-01-02T00:00:00Z');

function file(path: string, at: Date = T0): void {
  const full = join(tree, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, 'x');
  utimesSync(full, at, at);
}

function stale(): { stale: boolean; reason: string } {
  const run = spawnSync('bash', [join(ROOT, 'scripts/studio-stale.sh'), tree], { encoding: 'utf8' });
  assert.ok(run.status === 0 || run.status === 1, `exit ${run.status}: ${run.stderr}`);
  return { stale: run.status === 0, reason: run.stdout.trim() };
}

before(() => {
  tree = mkdtempSync(join(tmpdir(), 'verdict-studio-stale-'));
  for (const path of ['package-lock.json', 'studio/index.html', 'studio/src/main.tsx', 'studio/vite.config.ts', 'src/engine/expression/lexer.ts', 'src/rules/operators.ts', 'src/server.ts']) file(path);
});
after(() => rmSync(tree, { recursive: true, force: true }));

test('no build: build', () => {
  assert.deepEqual(stale(), { stale: true, reason: 'studio/dist is missing' });
});

test('a build newer than every source is up to date; files inside the build never count', () => {
  file('studio/dist/index.html', LATER);
  file('studio/dist/assets/index-abc.js', new Date('2026-02-01T00:00:00Z'));
  assert.equal(stale().stale, false);
});

test('a server file newer than the build does not rebuild the Studio', () => {
  file('src/server.ts', new Date('2026-03-01T00:00:00Z'));
  assert.equal(stale().stale, false);
});

for (const source of ['studio/src/main.tsx', 'studio/vite.config.ts', 'package-lock.json', 'src/engine/expression/lexer.ts', 'src/rules/operators.ts']) {
  test(`${source} newer than the build: build, naming it`, () => {
    file('studio/dist/index.html', LATER);
    file(source, new Date('2026-03-01T00:00:00Z'));
    assert.deepEqual(stale(), { stale: true, reason: `${source} is newer than the build` });
    file(source, T0);
  });
}
