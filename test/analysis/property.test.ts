// Property: on random small tables over finite domains, brute-force evaluation of every input agrees with the
// analysis. Every reported example really is a gap / an overlap, every reported unreachable row and contradiction
// really is one, and (the tables use only exactly analysed operators) nothing enumeration finds is missed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyse, cond, matchedRows, ofKind, table, type Table } from './helpers.ts';

const NUMBERS = ['0', '1', '2', '3', '4', '5'];
const TEXTS = ['a', 'b', 'ab', 'ba', 'c', ''];

type Kind = 'number' | 'text';

const numericCell = fc.oneof(
  fc.constantFrom('anything', 'isNull', 'isNotNull', 'ELSE').map((op) => cond(op)),
  fc.tuple(fc.constantFrom('=', '<>', '<', '<=', '>', '>='), fc.constantFrom(...NUMBERS)).map(([op, v]) => cond(op, v)),
  fc.tuple(fc.constantFrom('between', 'betweenLeftOpen', 'betweenRightOpen', 'notBetween'), fc.constantFrom(...NUMBERS), fc.constantFrom(...NUMBERS)).map(([op, a, b]) => cond(op, [a, b])),
  fc.tuple(fc.constantFrom('IN', 'NOT IN'), fc.uniqueArray(fc.constantFrom(...NUMBERS), { minLength: 1, maxLength: 3 })).map(([op, vs]) => cond(op, vs)),
);

const textCell = fc.oneof(
  fc.constantFrom('anything', 'isNull', 'isNotNull', 'ELSE').map((op) => cond(op)),
  fc.tuple(fc.constantFrom('=', '<>', 'containsText'), fc.constantFrom(...TEXTS.filter((t) => t !== '' ))).map(([op, v]) => cond(op, v)),
  fc.constantFrom('').map(() => cond('=', '')),
  fc.tuple(fc.constantFrom('IN', 'NOT IN', 'containsIn', 'notContainsIn'), fc.uniqueArray(fc.constantFrom('a', 'b', 'ab', 'ba', 'c'), { minLength: 1, maxLength: 3 })).map(([op, vs]) => cond(op, vs)),
);

// Values that hit every atom the cells above can cut: each mentioned value, values between and around them,
// texts with every combination of the substrings, booleans, null, missing, empty containers.
const MISSING = Symbol('missing');
const NUMBER_VALUES: unknown[] = [-1, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, '3', '4.0'];
const NEEDLES = ['a', 'b', 'ab', 'ba', 'c'];
// Every combination of the substrings, joined by a space (a text holding exactly those substrings and the ones
// inside them), also with " x" appended, for when the combination itself is a value a cell mentions.
const COMBINATIONS = Array.from({ length: 1 << NEEDLES.length }, (_, mask) => NEEDLES.filter((_, i) => mask & (1 << i)).join(' ')).flatMap((text) => [text, `${text} x`]);
const TEXT_VALUES: unknown[] = [...new Set([...NEEDLES, '', 'zzz', 'xab', 'xba', 'aba', 'bab', 'cab', ...COMBINATIONS])];
const OTHER_VALUES: unknown[] = [true, false, 'true', null, MISSING, [], {}];
const ALL_VALUES = [...NUMBER_VALUES, ...TEXT_VALUES, ...OTHER_VALUES];

/** The domain gaps are looked for in: the kind of value the column's cells mention, null and missing. */
function domainOf(kind: Kind, mentions: boolean): unknown[] {
  const base: unknown[] = [null, MISSING];
  if (!mentions) return [...base, 'zzz'];
  return kind === 'number' ? [...base, ...NUMBER_VALUES.filter((v) => typeof v === 'number')] : [...base, ...TEXT_VALUES];
}

interface Spec {
  kinds: [Kind, Kind];
  samePath: boolean;
  rows: { cells: [Record<string, unknown>, Record<string, unknown>]; out: string }[];
}

const spec: fc.Arbitrary<Spec> = fc
  .record({ k0: fc.constantFrom<Kind>('number', 'text'), k1: fc.constantFrom<Kind>('number', 'text'), samePath: fc.boolean() })
  .chain(({ k0, k1, samePath }) => {
    const kinds: [Kind, Kind] = [k0, samePath ? k0 : k1];
    const cellOf = (kind: Kind) => (kind === 'number' ? numericCell : textCell);
    const row = fc.record({ cells: fc.tuple(cellOf(kinds[0]), cellOf(kinds[1])), out: fc.constantFrom('A', 'B', 'C') });
    return fc.record({ kinds: fc.constant(kinds), samePath: fc.constant(samePath), rows: fc.array(row, { minLength: 1, maxLength: 6 }) });
  });

function build(s: Spec): Table {
  return table(['p', s.samePath ? ['q', 'p'] : 'q'], s.rows.map((row) => ({ when: { p: row.cells[0], q: row.cells[1] }, out: row.out })));
}

function inputOf(samePath: boolean, p: unknown, q: unknown): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (p !== MISSING) input.p = p;
  if (!samePath && q !== MISSING) input.q = q;
  return input;
}

function mentions(s: Spec, column: 0 | 1): boolean {
  return s.rows.some((row) => {
    const op = row.cells[column].operator as string;
    return !['anything', 'isNull', 'isNotNull', 'ELSE'].includes(op);
  });
}

test('analysis agrees with brute-force evaluation on random tables', () => {
  fc.assert(
    fc.property(spec, (s) => {
      const t = build(s);
      const report = analyse(t, { maxOverlaps: 1000, maxGaps: 1000 });
      assert.deepEqual(report.undecided.rows, [], 'these tables use only exactly analysed cells');
      const rowCount = s.rows.length;
      const qValues = s.samePath ? [MISSING] : ALL_VALUES;
      const matchedBy: number[][] = [];
      for (const p of ALL_VALUES) for (const q of qValues) matchedBy.push(matchedRows(t, inputOf(s.samePath, p, q)));

      // Unreachable: never the first match; exactly the rows enumeration finds.
      const firstMatches = new Set(matchedBy.filter((m) => m.length > 0).map((m) => m[0]!));
      const everMatched = new Set(matchedBy.flat());
      const contradictions = new Set(ofKind(report, 'contradiction').map((f) => f.rows[0]!));
      const unreachable = new Set(ofKind(report, 'unreachable').map((f) => f.rows[0]!));
      for (let r = 0; r < rowCount; r++) {
        const hasElse = s.rows[r]!.cells.some((c) => c.operator === 'ELSE');
        const never = !everMatched.has(r);
        if (contradictions.has(r)) assert.ok(never, `row ${r} reported contradictory but matches`);
        if (!hasElse) assert.equal(contradictions.has(r), never, `row ${r}: contradiction iff it never matches`);
        if (!contradictions.has(r)) assert.equal(unreachable.has(r), !firstMatches.has(r), `row ${r}: unreachable iff never first`);
      }

      // Overlaps: each example matches both rows; every pair that enumeration sees matching together with
      // different results is reported (unless the rows are duplicates of each other).
      const reported = new Set<string>();
      for (const overlap of ofKind(report, 'overlap')) {
        const [i, j] = overlap.rows as [number, number];
        const matched = matchedRows(t, overlap.example);
        assert.ok(matched.includes(i) && matched.includes(j), `overlap ${i},${j}: example ${JSON.stringify(overlap.example)} matches ${matched}`);
        reported.add(`${i},${j}`);
      }
      const duplicateOf = new Map<number, number>();
      ofKind(report, 'duplicate').forEach((f, g) => f.rows.forEach((r) => duplicateOf.set(r, g)));
      for (const m of matchedBy) {
        for (let a = 0; a < m.length; a++) {
          for (let b = a + 1; b < m.length; b++) {
            const [i, j] = [m[a]!, m[b]!];
            if (s.rows[i]!.out === s.rows[j]!.out) continue;
            if (duplicateOf.has(i) && duplicateOf.get(i) === duplicateOf.get(j)) continue;
            assert.ok(reported.has(`${i},${j}`), `rows ${i} and ${j} overlap but were not reported`);
          }
        }
      }

      // Gaps: each example matches no row; when enumeration over the columns' domains finds an input no row
      // matches, at least one gap is reported.
      const gaps = ofKind(report, 'gap');
      for (const gap of gaps) assert.deepEqual(matchedRows(t, gap.example), [], `gap example ${JSON.stringify(gap.example)}`);
      const pDomain = s.samePath ? domainOf(s.kinds[0], mentions(s, 0) || mentions(s, 1)) : domainOf(s.kinds[0], mentions(s, 0));
      const qDomain = s.samePath ? [MISSING] : domainOf(s.kinds[1], mentions(s, 1));
      let uncovered = false;
      for (const p of pDomain) for (const q of qDomain) if (matchedRows(t, inputOf(s.samePath, p, q)).length === 0) uncovered = true;
      assert.equal(gaps.length > 0, uncovered, `gaps reported: ${gaps.length}, enumeration finds one: ${uncovered}`);
    }),
    { numRuns: 300 },
  );
});
