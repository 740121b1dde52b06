// GoRules zen's own expression suites (test/fixtures/zen, copied from zen's repository) run against our ZEN
// engine. Each suite's pass count must stay at or above its recorded floor, and every case that fails must be
// listed in known-failures.txt with its reason (a new failure, or a listed case that now passes, fails here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileZenExpression, compileZenUnary } from '../../src/engine/zen/index.ts';
import { parseJson5 } from './zen-json5.ts';

/** zen's harness fixes the clock here (issue 30); its date suite runs with TZ=UTC. */
const NOW = Date.parse('2025-08-19T16:55:02.078Z');

/** The lowest pass count each suite may reach; raise it as cases are fixed. */
const FLOORS: Record<string, number> = { 'standard.csv': 517, 'date.csv': 210, 'unary.csv': 89 };

interface Case {
  id: string;
  expression: string;
  input: string;
  output: string;
}

function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/zen/${name}`, import.meta.url), 'utf8');
}

/** Splits one `;`-separated CSV line; a field that starts with `"` is quoted (`""` escapes a quote). */
function fields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else field += line[i++];
      }
    }
    while (i < line.length && line[i] !== ';') field += line[i++];
    out.push(field);
    if (i >= line.length) return out;
    i++;
  }
}

/**
 * The cases of a suite: rows of three fields (expression, input, output) as zen's harness reads them, and the
 * four two-field rows of standard.csv's "Interval iterator" section (expression, output), which zen's csv
 * reader skips as malformed; we run them with no input.
 */
function cases(name: string): Case[] {
  const out: Case[] = [];
  fixture(name)
    .split('\n')
    .forEach((line, index) => {
      if (index === 0 || line.trim() === '' || line.startsWith('#')) return;
      const row = fields(line.replace(/\r$/, ''));
      const id = `${name}:${index + 1}`;
      if (row.length === 3) out.push({ id, expression: row[0], input: row[1], output: row[2] });
      else if (row.length === 2) out.push({ id, expression: row[0], input: '', output: row[1] });
    });
  return out;
}

/** known-failures.txt: `suite:line<TAB>reason` per line; `#` comments. */
function knownFailures(): Map<string, string> {
  const known = new Map<string, string>();
  for (const line of fixture('known-failures.txt').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [id, ...reason] = line.split('\t');
    known.set(id.trim(), reason.join('\t'));
  }
  return known;
}

function seeded(): () => number {
  let state = 42;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function run(kase: Case, unary: boolean): string | undefined {
  try {
    const expected = parseJson5(kase.output.trim());
    const input = kase.input.trim() === '' ? {} : parseJson5(kase.input.trim());
    const compiled = unary ? compileZenUnary(kase.expression) : compileZenExpression(kase.expression);
    const actual = compiled.evaluate(input, { now: NOW, random: seeded() });
    return JSON.stringify(actual) === JSON.stringify(expected) ? undefined : `got ${JSON.stringify(actual)}`;
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

const known = knownFailures();

for (const [suite, unary] of [['standard.csv', false], ['date.csv', false], ['unary.csv', true]] as const) {
  test(`zen ${suite}: every case passes or is a known failure, passes at or above the floor`, () => {
    const all = cases(suite);
    const unexpected: string[] = [];
    const fixed: string[] = [];
    let passed = 0;
    for (const kase of all) {
      const failure = run(kase, unary);
      if (failure === undefined) {
        passed++;
        if (known.has(kase.id)) fixed.push(`${kase.id} ${kase.expression}`);
      } else if (!known.has(kase.id)) {
        unexpected.push(`${kase.id}\t${kase.expression} -> ${failure} (expected ${kase.output.trim()})`);
      }
    }
    console.log(`zen ${suite}: ${passed}/${all.length} pass`);
    assert.deepEqual(unexpected, [], 'cases failing that known-failures.txt does not list');
    assert.deepEqual(fixed, [], 'known failures that now pass: remove them from known-failures.txt');
    assert.ok(passed >= FLOORS[suite], `${suite}: ${passed} pass, below the floor of ${FLOORS[suite]}`);
  });
}

test('zen: bad expressions fail with an error naming what and where, never a crash', () => {
  assert.throws(() => compileZenExpression('1 +'), /unexpected 'end of expression' at the end of '1 \+'/);
  assert.throws(() => compileZenExpression("'open"), /unterminated string starting at 0/);
  assert.throws(() => compileZenExpression('nope(1)'), /unknown function 'nope'/);
  assert.throws(() => compileZenUnary('> 5 xor < 3'), /invalid join operator 'xor'|unexpected/);
  const typed = compileZenExpression('upper(x)');
  assert.throws(() => typed.evaluate({ x: 5 }, { now: NOW }), /upper\(\) expects a string, got number/);
  assert.throws(() => compileZenExpression("d('2023-10-15').add(1, 'fortnight')").evaluate({}, { now: NOW }), /unknown date unit "fortnight"/);
});

test('zen: unary tests compare the input $ and assignments leave the caller input untouched', () => {
  const cell = compileZenUnary('[1..5], > 10');
  assert.deepEqual([0, 1, 5, 7, 11].map(($) => cell.evaluate({ $ }, { now: NOW })), [false, true, true, false, true]);
  const input = { counter: 5 };
  assert.deepEqual(compileZenExpression('counter = counter + 1').evaluate(input, { now: NOW }), { counter: 6 });
  assert.deepEqual(input, { counter: 5 });
});

test('zen: edge cases answer as @gorules/zen-engine 0.54 does (errors included)', () => {
  const recorded = JSON.parse(fixture('zen-engine-0.54.json')) as
    { expression: string; input: Record<string, unknown>; unary?: true; output?: unknown; error?: true }[];
  const differing: string[] = [];
  for (const { expression, input, unary, output, error } of recorded) {
    let actual: string;
    try {
      const compiled = unary ? compileZenUnary(expression) : compileZenExpression(expression);
      actual = JSON.stringify(compiled.evaluate(input, { now: NOW }));
    } catch {
      actual = 'an error';
    }
    const expected = error ? 'an error' : JSON.stringify(output);
    if (actual !== expected) differing.push(`${expression}: ${actual}, zen ${expected}`);
  }
  assert.ok(recorded.length > 200);
  assert.deepEqual(differing, []);
});
