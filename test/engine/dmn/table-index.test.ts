// Large decision tables look their candidate rules up in an index over a literal column (table-index.ts): the
// rules that match must be exactly those a scan of every rule finds, in rule order, for values in, on and
// between the literals, and for values the index cannot place (null, another kind), which run every rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, definitions, escape, input, requirementsXml, solve } from './helpers.ts';

interface Rule {
  x: string;
  s: string;
  /** The oracle: whether each entry accepts its input. */
  xTest(x: unknown): boolean;
  sTest(s: unknown): boolean;
}

const isNum = (v: unknown): v is number => typeof v === 'number';

/** 60 rules mixing ranges, comparisons, number literals, string literals, string lists, `-` and a non-literal. */
function rules(): Rule[] {
  const out: Rule[] = [];
  // FEEL: `null = "s1"` is false (so not("s1") accepts null) and `5 = "s1"` is null (so it rejects 5).
  for (let i = 0; i < 60; i++) {
    const lo = i * 5;
    const xForms: [string, (x: unknown) => boolean][] = [
      [`[${lo}..${lo + 10})`, (x) => isNum(x) && x >= lo && x < lo + 10],
      [`(${lo}..${lo + 5}]`, (x) => isNum(x) && x > lo && x <= lo + 5],
      [`${lo}`, (x) => x === lo],
      [`< ${lo - 100}`, (x) => isNum(x) && x < lo - 100],
      [`>= ${lo + 200}`, (x) => isNum(x) && x >= lo + 200],
      [`[${lo}..${lo + 2.5}]`, (x) => isNum(x) && x >= lo && x <= lo + 2.5],
      ['-', () => true],
    ];
    const sForms: [string, (s: unknown) => boolean][] = [
      [`"s${i % 7}"`, (s) => s === `s${i % 7}`],
      [`"s${i % 3}","s${(i % 3) + 4}"`, (s) => s === `s${i % 3}` || s === `s${(i % 3) + 4}`],
      [`"s${i % 5}"`, (s) => s === `s${i % 5}`],
      i % 4 === 0 ? ['-', () => true] : [`"s${i % 2}"`, (s) => s === `s${i % 2}`],
      i % 8 === 1 ? ['not("s1")', (s) => s === null || (typeof s === 'string' && s !== 's1')] : [`"s${i % 6}"`, (s) => s === `s${i % 6}`],
    ];
    const [xText, xTest] = xForms[i % xForms.length]!;
    const [sText, sTest] = sForms[(i * 3) % sForms.length]!;
    out.push({ x: xText, s: sText, xTest, sTest });
  }
  return out;
}

function model(table: Rule[], hitPolicy: string): string {
  const xml = table
    .map((rule, i) => `<rule><inputEntry><text>${escape(rule.x)}</text></inputEntry><inputEntry><text>${escape(rule.s)}</text></inputEntry><outputEntry><text>${i + 1}</text></outputEntry></rule>`)
    .join('');
  return definitions(`${input('i1', 'x', 'Any')}${input('i2', 's', 'Any')}
    <decision id="d" name="D">${requirementsXml(['i1', 'i2'])}
      <decisionTable hitPolicy="${hitPolicy}">
        <input><inputExpression><text>x</text></inputExpression></input>
        <input><inputExpression><text>s</text></inputExpression></input>
        <output name="rule"/>${xml}
      </decisionTable></decision>`);
}

const xs: unknown[] = [null, 'text', -200, -101, -1, 0, 0.5, 1, 2.5, 3, 5, 7.5, 10, 12, 99, 150, 199, 200, 201, 295, 300, 301, 450, 1000];
const ss: unknown[] = [null, 5, 's0', 's1', 's2', 's3', 's4', 's5', 's6', 'other'];

test('an indexed table matches exactly the rules a scan matches, in rule order', async () => {
  const table = rules();
  const compiled = await compile(model(table, 'COLLECT'));
  let nonEmpty = 0;
  for (const x of xs) {
    for (const s of ss) {
      const expected = table.flatMap((rule, i) => ((rule.xTest(x) && rule.sTest(s)) ? [i + 1] : []));
      if (expected.length > 0) nonEmpty++;
      const { results } = solve(compiled, { x, s });
      assert.deepEqual(results.D, expected, `x=${JSON.stringify(x)} s=${JSON.stringify(s)}`);
    }
  }
  assert.ok(nonEmpty > 50, `the inputs hit rules (${nonEmpty} combinations match some rule)`);
});

test('an indexed FIRST table answers the first matching rule', async () => {
  const table = rules();
  const compiled = await compile(model(table, 'FIRST'));
  for (const x of xs) {
    for (const s of ss) {
      const first = table.findIndex((rule) => (rule.xTest(x) && rule.sTest(s)));
      assert.equal(solve(compiled, { x, s }).results.D, first < 0 ? null : first + 1, `x=${JSON.stringify(x)} s=${JSON.stringify(s)}`);
    }
  }
});

test('a table indexed on its string column runs `-` and non-literal rules for values it does not list', async () => {
  // Every x entry is `-`: only the string column can be indexed.
  const table = rules().map((rule) => ({ ...rule, x: '-', xTest: () => true }));
  const compiled = await compile(model(table, 'RULE ORDER'));
  for (const s of ss) {
    const expected = table.flatMap((rule, i) => (rule.sTest(s) ? [i + 1] : []));
    assert.deepEqual(solve(compiled, { x: 0, s }).results.D, expected, `s=${JSON.stringify(s)}`);
  }
});
