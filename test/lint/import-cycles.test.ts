// No two modules of src/ import each other, directly or through others (type-only and dynamic imports count: a
// cycle of types is still two modules that cannot be understood apart). Reads the relative import specifiers of
// every src/ file and looks for strongly connected components.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)'(\.{1,2}\/[^']+)'/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(SPECIFIER)].map((m) => resolve(dirname(file), m[1]!)).filter((target) => known.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Tarjan's strongly connected components with more than one module: each is a cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('the cycle finder finds a two-module cycle and a longer one, and nothing in a tree', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['a', 'c']],
    ['c', ['d']],
    ['d', ['e']],
    ['e', ['c']],
    ['f', ['a']],
  ]);
  assert.deepEqual(cycles(graph).map((c) => c.sort()).sort(), [['a', 'b'], ['c', 'd', 'e']]);
  assert.deepEqual(cycles(new Map([['a', ['b']], ['b', []]])), []);
});

test('no import cycles in src/', () => {
  const files = sourceFiles(join(ROOT, 'src'));
  const found = cycles(importGraph(files))
    .map((component) => component.map((file) => relative(ROOT, file)).sort().join(' <-> '));
  assert.deepEqual(found, []);
});
