// ZEN arithmetic answers zen's decimals (src/engine/zen/values.ts): the fast paths of `decimal` (numbers with few
// decimals) and `quotient` (whole numbers) must answer exactly what the text and BigInt reckoning they short-cut
// answers, on many seeded random decimals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimal, quotient } from '../../src/engine/zen/values.ts';

/** The 15-significant-digit rounding as text: what `decimal` answered before its fast path. */
function byText(n: number): number {
  if (Number.isInteger(n)) return n;
  const short = Number(n.toPrecision(15));
  return Math.abs(short - n) <= 4 * Math.abs(n) * Number.EPSILON ? short : n;
}

function digitsOf(x: number): [bigint, number] | undefined {
  const text = String(x);
  if (text.includes('e')) return undefined;
  const dot = text.indexOf('.');
  return dot < 0 ? [BigInt(text), 0] : [BigInt(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1];
}

/** The quotient of the two numbers as written, in BigInt decimals (34 digits), as the nearest double. */
function byDigits(a: number, b: number): number {
  const q = a / b;
  if (Number.isInteger(a) && Number.isInteger(b) && Number.isInteger(q)) return q;
  const x = digitsOf(a);
  const y = digitsOf(b);
  if (!x || !y) return byText(q);
  return Number(`${(x[0] * 10n ** BigInt(y[1] + 34)) / (y[0] * 10n ** BigInt(x[1]))}e-34`);
}

test('decimal and quotient answer as the text and BigInt reckoning on random decimals', () => {
  let seed = 20_261_127;
  const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  // Up to ten digits, up to six of them decimals, a fifth negative: prices, rates, percentages, counts.
  const number = (): number => ((random() < 0.2 ? -1 : 1) * Math.floor(random() * 10 ** Math.floor(random() * 10))) / 10 ** Math.floor(random() * 7);
  const differences: string[] = [];
  for (let i = 0; i < 200_000; i++) {
    const [a, b] = [number(), number()];
    const pairs: [string, number, number][] = [
      ['+', decimal(a + b, '+'), byText(a + b)],
      ['-', decimal(a - b, '-'), byText(a - b)],
      ['*', decimal(a * b, '*'), byText(a * b)],
    ];
    if (b !== 0) pairs.push(['/', quotient(a, b), byDigits(a, b)]);
    for (const [op, fast, reference] of pairs) if (!Object.is(fast, reference)) differences.push(`${a} ${op} ${b}: ${fast}, expected ${reference}`);
  }
  assert.deepEqual(differences.slice(0, 5), []);
  // The cases the fast paths exist for.
  assert.equal(decimal(1234.5 * 1.1, '*'), 1357.95);
  assert.equal(decimal(0.1 + 0.2, '+'), 0.3);
  assert.equal(quotient(515, 6), 85.83333333333333);
  assert.equal(quotient(0.3, 0.1), 3);
});
