// Planted defects: each kind of finding on a table built to have it, with the right rows and an example input the
// engine confirms (an overlap example matches both rows, a gap example matches none).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyse, cond, matchedRows, ofKind, table } from './helpers.ts';

describe('decision table analysis: planted defects', () => {
  test('an unreachable row: inside an earlier row', () => {
    const t = table(['age'], [{ when: { age: cond('>=', '18') } }, { when: { age: cond('<', '18') } }, { when: { age: cond('between', ['20', '30']) } }]);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'unreachable').map((f) => f.rows), [[2, 0]]);
    assert.deepEqual(ofKind(report, 'unreachable')[0]!.columns, ['age']);
  });

  test('an unreachable row covered only by several earlier rows together', () => {
    const t = table(['x', 'y'], [
      { when: { x: cond('<', '5'), y: cond('anything') } },
      { when: { x: cond('>=', '5'), y: cond('IN', ['a', 'b']) } },
      { when: { x: cond('>=', '5'), y: cond('NOT IN', ['a', 'b']) } },
      { when: { x: cond('between', ['1', '9']), y: cond('=', 'c') } },
    ]);
    assert.deepEqual(ofKind(analyse(t), 'unreachable').map((f) => f.rows), [[3, 0, 2]]);
  });

  test('an ELSE row after rows that cover everything never fires; one after a real gap does', () => {
    const dead = table(['x'], [{ when: { x: cond('>', '0') } }, { when: { x: cond('anything') } }, { when: { x: cond('ELSE') } }]);
    assert.deepEqual(ofKind(analyse(dead), 'unreachable').map((f) => f.rows), [[2, 1]]);
    assert.match(ofKind(analyse(dead), 'unreachable')[0]!.message, /ELSE/);
    // A text input ("abc") is neither <= 0 nor > 0: the ELSE row fires for it, so it is not reported.
    const live = table(['x'], [{ when: { x: cond('>', '0') } }, { when: { x: cond('<=', '0') } }, { when: { x: cond('isNull') } }, { when: { x: cond('ELSE') } }]);
    assert.deepEqual(ofKind(analyse(live), 'unreachable'), []);
    assert.deepEqual(matchedRows(live, { x: 'abc' }), [3]);
  });

  test('an overlap: two rows with different results both match the example', () => {
    const t = table(['x', 'tier'], [
      { when: { x: cond('<', '50'), tier: cond('=', 'gold') }, out: 'A' },
      { when: { x: cond('>', '30'), tier: cond('IN', ['gold', 'silver']) }, out: 'B' },
      { when: { x: cond('>', '30'), tier: cond('=', 'silver') }, out: 'B' },
    ]);
    const overlaps = ofKind(analyse(t), 'overlap');
    assert.deepEqual(overlaps.map((f) => f.rows), [[0, 1]]);
    assert.deepEqual(overlaps[0]!.columns.sort(), ['tier', 'x']);
    assert.deepEqual(matchedRows(t, overlaps[0]!.example), [0, 1]);
    // Rows 1 and 2 overlap too, but give the same result: not a finding.
  });

  test('an overlap with an ELSE row in the middle: only inputs no row above matched', () => {
    const t = table(['x'], [{ when: { x: cond('<', '10') } }, { when: { x: cond('ELSE') } }, { when: { x: cond('>', '5') } }]);
    const overlaps = ofKind(analyse(t), 'overlap');
    assert.deepEqual(overlaps.map((f) => f.rows), [[0, 2], [1, 2]]);
    assert.deepEqual(matchedRows(t, overlaps[0]!.example), [0, 2]);
    const example = overlaps[1]!.example!;
    assert.deepEqual(matchedRows(t, example), [1, 2]);
    assert.ok((example.x as number) >= 10);
  });

  test('gaps: one example per missing region, each matched by no row', () => {
    const t = table(['age', 'tier'], [
      { when: { age: cond('<', '18'), tier: cond('anything') } },
      { when: { age: cond('between', ['18', '65']), tier: cond('IN', ['gold', 'silver']) } },
      { when: { age: cond('>', '65'), tier: cond('anything') } },
    ]);
    const report = analyse(t);
    const gaps = ofKind(report, 'gap');
    assert.ok(gaps.length >= 2, JSON.stringify(gaps));
    for (const gap of gaps) {
      assert.deepEqual(matchedRows(t, gap.example), [], `${gap.message}: ${JSON.stringify(gap.example)}`);
      assert.deepEqual(gap.rows, []);
    }
    const examples = gaps.map((gap) => JSON.stringify(gap.example));
    assert.ok(examples.some((e) => e.includes('"tier":"other"') || e.includes('"tier":null') || !e.includes('tier')), examples.join(' '));
    assert.ok(gaps.some((gap) => gap.example!.age === undefined || gap.example!.age === null), 'a missing or null age is a gap');
    assert.equal(report.omitted.gaps, false);
  });

  test('the number of gaps listed is bounded by maxGaps', () => {
    const t = table(['a', 'b'], [{ when: { a: cond('=', '1'), b: cond('=', '1') } }, { when: { a: cond('=', '2'), b: cond('=', '2') } }]);
    const report = analyse(t, { maxGaps: 2 });
    assert.equal(ofKind(report, 'gap').length, 2);
    assert.equal(report.omitted.gaps, true);
  });

  test('contradictions: an empty range, and two columns on one input that exclude each other', () => {
    const t = table(['x', ['x2', 'x']], [
      { when: { x: cond('between', ['5', '3']), x2: cond('anything') } },
      { when: { x: cond('>', '10'), x2: cond('<', '5') } },
      { when: { x: cond('>', '1'), x2: cond('<', '5') } },
    ]);
    const found = ofKind(analyse(t), 'contradiction');
    assert.deepEqual(found.map((f) => f.rows), [[0], [1]]);
    assert.deepEqual(found[0]!.columns, ['x']);
    assert.deepEqual(found[1]!.columns.sort(), ['x', 'x2']);
    for (const input of [{ x: 4 }, { x: 11 }, { x: 2 }, {}]) assert.ok(!matchedRows(t, input).includes(0) && !matchedRows(t, input).includes(1));
  });

  test('duplicates: identical conditions (however written) with the same or different results', () => {
    const t = table(['x', 'y'], [
      { when: { x: cond('=', '5'), y: cond('IN', ['a']) }, out: 'A' },
      { when: { x: cond('=', 5), y: cond('=', 'a') }, out: 'A' },
      { when: { x: cond('between', ['1', '2']), y: cond('anything') }, out: 'B' },
      { when: { x: cond('between', ['1', '2']) }, out: 'C' },
    ]);
    const report = analyse(t);
    const duplicates = ofKind(report, 'duplicate');
    assert.deepEqual(duplicates.map((f) => f.rows), [[0, 1], [2, 3]]);
    assert.match(duplicates[0]!.message, /the same results/);
    assert.match(duplicates[1]!.message, /different results/);
    assert.deepEqual(ofKind(report, 'overlap'), [], 'duplicates are not reported again as overlaps');
  });

  test('type: a numeric comparison in a column of text, and a range whose bounds are a number and text', () => {
    const t = table(['tier', 'x'], [
      { when: { tier: cond('=', 'gold'), x: cond('>', '1') } },
      { when: { tier: cond('=', 'silver'), x: cond('between', ['1', 'z']) } },
      { when: { tier: cond('>', '5'), x: cond('<', '0') } },
    ]);
    const report = analyse(t);
    const types = ofKind(report, 'type');
    assert.deepEqual(types.map((f) => [f.columns, f.rows]), [[['tier'], [2]], [['x'], [1]]].sort((a, b) => (a[1]![0] as number) - (b[1]![0] as number)));
    // The range with mixed bounds accepts no value at all: the row is also a contradiction.
    assert.deepEqual(ofKind(report, 'contradiction').map((f) => f.rows), [[1]]);
  });

  test('unknown cells never cause a false unreachable or gap, and are listed as undecided', () => {
    const t = table(['x', 'y'], [
      { when: { x: { operator: 'function', type: 'function', stringValue: 'GT({x}, 5)', value: 'GT({x}, 5)' }, y: cond('anything') } },
      { when: { x: cond('>', '5'), y: cond('=', '{x}') } },
      { when: { x: cond('>', '5'), y: cond('anything') } },
    ]);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'unreachable'), [], 'the function row may not match, so it covers nothing');
    assert.deepEqual(report.undecided.rows, [0, 1]);
    assert.deepEqual(report.undecided.columns.sort(), ['x', 'y']);
    assert.deepEqual(report.undecided.reasons.map((r) => r.reason), ['function cell (column x)', 'the cell refers to another input or variable (column y)']);
    // Gaps exist (x <= 5 and not matched by the function cell... which may match): none is claimed where the function row might match.
    for (const gap of ofKind(report, 'gap')) assert.deepEqual(matchedRows(t, gap.example), []);
  });

  test('inactive rows cover nothing; time-limited rows cover nothing and leave no false gap', () => {
    const t = table(['x'], [
      { when: { x: cond('anything') }, active: false },
      { when: { x: cond('>', '0') }, timeValidation: { from: '2020-01-01 00:00 +00:00', to: '2020-12-31 +00:00' } },
      { when: { x: cond('>', '5') } },
    ]);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'unreachable'), []);
    assert.deepEqual(report.undecided.rows, [1]);
    for (const gap of ofKind(report, 'gap')) assert.ok(!((gap.example!.x as number) > 0), 'x > 0 may be matched by the time-limited row');
  });

  test('null, missing and empty text are told apart', () => {
    const t = table(['x'], [{ when: { x: cond('isNull') } }, { when: { x: cond('=', '') } }, { when: { x: cond('isNotNull') } }]);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'unreachable'), [], '"" is not null, and [] is null but not matched by "="');
    assert.deepEqual(ofKind(report, 'overlap').map((f) => f.rows), [[1, 2]]);
    assert.deepEqual(matchedRows(t, ofKind(report, 'overlap')[0]!.example), [1, 2]);
    assert.deepEqual(ofKind(report, 'gap'), []);
  });

  test('numbers and numeric text are one value; text that is not a number fails numeric comparisons', () => {
    const t = table(['x'], [{ when: { x: cond('>=', '10') } }, { when: { x: cond('<', '10') } }, { when: { x: cond('=', '12') } }]);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'unreachable').map((f) => f.rows), [[2, 0]]);
    assert.deepEqual(ofKind(report, 'gap').map((f) => f.example), [{ x: null }], 'text is outside a numeric column\'s domain; null and missing are one region');
  });

  test('substring operators are analysed on the texts the column mentions', () => {
    const t = table(['name'], [{ when: { name: cond('containsText', 'VIP') } }, { when: { name: cond('=', 'VIP gold') } }, { when: { name: cond('notContainsIn', ['VIP', 'STAFF']) } }]);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'unreachable').map((f) => f.rows), [[1, 0]]);
    const gaps = ofKind(report, 'gap');
    assert.ok(gaps.some((gap) => typeof gap.example!.name === 'string' && (gap.example!.name as string).includes('STAFF')), JSON.stringify(gaps));
    for (const gap of gaps) assert.deepEqual(matchedRows(t, gap.example), []);
  });

  test('date cells: ranges of instants', () => {
    const date = (operator: string, value: unknown) => cond(operator, value, 'date');
    const t = table(['day'], [
      { when: { day: date('<', '2024-01-01 00:00 +00:00') } },
      { when: { day: date('between', ['2024-01-01 00:00 +00:00', '2024-12-31 00:00 +00:00']) } },
      { when: { day: date('=', '2024-06-01T00:00:00Z') } },
    ]);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'unreachable').map((f) => f.rows), [[2, 1]]);
    const gaps = ofKind(report, 'gap');
    assert.ok(gaps.some((gap) => typeof gap.example!.day === 'string' && (gap.example!.day as string) > '2024-12-31'), JSON.stringify(gaps));
    for (const gap of gaps) assert.deepEqual(matchedRows(t, gap.example), []);
  });

  test('a column bound to a rule variable is decided by the variable\'s value', () => {
    const doc = table(['x'], [{ when: { x: cond('>', '0') } }]).doc;
    const columns = (doc.decisionTable as { columns: Record<string, unknown>[] }).columns;
    columns.unshift({ columnId: 'mode', type: 'input', condition: { type: 'simple', name: 'mode', inputVariable: 'Mode' } });
    const rows = (doc.decisionTable as { rows: { cells: Record<string, unknown>[] }[] }).rows;
    rows.push({ cells: [{ column: 'x', type: 'input', scalarCondition: cond('>', '0') }, { column: 'out', type: 'output', outputScalarValue: { type: 'common', value: 'second' } }] } as never);
    rows[0]!.cells.push({ column: 'mode', type: 'input', scalarCondition: cond('=', 'live') });
    doc.userVariables = [{ name: 'Mode', value: 'test' }];
    // Row 0 needs Mode = live but Mode is "test": it can never match.
    const t = { doc, rule: compileRuleOf(doc), active: [0, 1] };
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'contradiction').map((f) => f.rows), [[0]]);
    assert.deepEqual(ofKind(report, 'unreachable'), []);
  });
});

import { compileRule } from '../../src/engine/index.ts';
function compileRuleOf(doc: Record<string, unknown>) {
  return compileRule(doc);
}

describe('decision table analysis: edge cases', () => {
  test('a table without rows is one gap; rows without conditions repeat the first one', () => {
    const empty = table(['x'], []);
    assert.deepEqual(analyse(empty).findings.map((f) => [f.kind, f.example]), [['gap', {}]]);
    const t = table(['x'], [{ when: {} }, { when: {} }]);
    assert.deepEqual(analyse(t).findings.map((f) => [f.kind, f.rows]), [['unreachable', [1, 0]], ['duplicate', [0, 1]]]);
  });

  test('only inactive rows: everything is a gap, nothing else is reported', () => {
    const t = table(['x'], [{ when: { x: cond('>', '1') }, active: false }]);
    assert.deepEqual(analyse(t).findings.map((f) => f.kind), ['gap']);
  });

  test('extreme numbers and many distinct values stay exact', () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ when: { x: cond('=', String(i * 1e300)) } }));
    rows.push({ when: { x: cond('>=', '-1.7976931348623157e308') } }, { when: { x: cond('<', '-1.7976931348623157e308') } });
    const t = table(['x'], rows);
    const report = analyse(t);
    assert.deepEqual(ofKind(report, 'contradiction').map((f) => f.rows), [[201]]);
    for (const gap of ofKind(report, 'gap')) assert.deepEqual(matchedRows(t, gap.example), []);
  });
});
