// TSV as spreadsheets write it, and copy / paste / clear on blocks of cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTsv, serialiseTsv } from '../../studio/src/designer/model/tsv.ts';
import { blockTexts, clearBlock, copyBlock, pasteText } from '../../studio/src/designer/model/clipboard.ts';
import { addColumn, blankTable, tableOf } from '../../studio/src/designer/model/table.ts';

test('TSV: Excel line ends, a trailing line break, and empty fields', () => {
  assert.deepEqual(parseTsv('a\tb\r\nc\td\r\n'), [['a', 'b'], ['c', 'd']]);
  assert.deepEqual(parseTsv('a\tb\nc\td'), [['a', 'b'], ['c', 'd']]);
  assert.deepEqual(parseTsv('a\t\t\n\tx\n'), [['a', '', ''], ['', 'x']]);
  assert.deepEqual(parseTsv('single'), [['single']]);
  assert.deepEqual(parseTsv(''), []);
  assert.deepEqual(parseTsv('\n'), [['']], 'one empty line is one empty cell');
  assert.deepEqual(parseTsv('a\n\nb\n'), [['a'], [''], ['b']], 'blank lines in the middle are rows');
});

test('TSV: quoted fields with tabs, line breaks and doubled quotes', () => {
  assert.deepEqual(parseTsv('"a\tb"\t"line1\nline2"\r\n"say ""hi"""\tz\r\n'), [
    ['a\tb', 'line1\nline2'],
    ['say "hi"', 'z'],
  ]);
  assert.deepEqual(parseTsv('"multi\r\nline"\n'), [['multi\r\nline']]);
});

test('TSV: a quote that does not open a field is text', () => {
  assert.deepEqual(parseTsv('5" inch\tx'), [['5" inch', 'x']]);
  assert.deepEqual(parseTsv('"5" inch\tx'), [['"5" inch', 'x']]);
  assert.deepEqual(parseTsv('{"a":1}\tb'), [['{"a":1}', 'b']]);
});

test('TSV: serialise quotes what needs it and parses back to the same rows', () => {
  const rows = [['plain', 'with\ttab', 'with\nnewline'], ['say "hi"', '', '{"a":"b"}']];
  const text = serialiseTsv(rows);
  assert.equal(text, 'plain\t"with\ttab"\t"with\nnewline"\r\n"say ""hi"""\t\t"{""a"":""b""}"\r\n');
  assert.deepEqual(parseTsv(text), rows);
});

function table3x2(): any {
  let rule: any = blankTable('T');
  rule = addColumn(rule, 'input', { binding: 'b' }).rule;
  rule = addColumn(rule, 'output', { binding: 'o2' }).rule;
  return rule; // columns: input, input, output, output; one row
}

test('paste: 50 rows below the last row create 50 rows', () => {
  const rule = table3x2();
  const lines = Array.from({ length: 50 }, (_, i) => `${i}\t> ${i}\tfx SUM(${i},1)\tr${i}`).join('\r\n') + '\r\n';
  const result = pasteText(rule, { top: 0, left: 0, bottom: 0, right: 0 }, lines)!;
  assert.equal(tableOf(result.rule).rows.length, 50);
  assert.equal(result.createdRows, 49);
  assert.deepEqual(result.range, { top: 0, left: 0, bottom: 49, right: 3 });
  assert.deepEqual(blockTexts(result.rule, { top: 49, left: 0, bottom: 49, right: 3 }), [['49', '> 49', 'fx SUM(49,1)', 'r49']]);
  const row = tableOf(result.rule).rows[49];
  assert.deepEqual(row.cells.find((c: any) => c.type === 'input' && c.scalarCondition.operator === '>').scalarCondition.value, '49');
  const appended = pasteText(result.rule, { top: 50, left: 0, bottom: 50, right: 0 }, lines)!;
  assert.equal(tableOf(appended.rule).rows.length, 100, 'pasting below the last row appends');
});

test('paste: fields past the last column are dropped and counted', () => {
  const result = pasteText(table3x2(), { top: 0, left: 2, bottom: 0, right: 2 }, 'a\tb\tc\td\n')!;
  assert.equal(result.droppedFields, 2);
  assert.deepEqual(blockTexts(result.rule, { top: 0, left: 2, bottom: 0, right: 3 }), [['a', 'b']]);
  assert.deepEqual(result.range, { top: 0, left: 2, bottom: 0, right: 3 });
});

test('paste: one value fills the selection; a block tiles a selection of a multiple size', () => {
  let rule: any = pasteText(table3x2(), { top: 0, left: 0, bottom: 3, right: 0 }, 'x\n')!.rule;
  const filled = pasteText(rule, { top: 0, left: 0, bottom: 3, right: 1 }, 'NULL')!;
  assert.deepEqual(blockTexts(filled.rule, { top: 0, left: 0, bottom: 3, right: 1 }), Array(4).fill(['NULL', 'NULL']));
  rule = pasteText(table3x2(), { top: 0, left: 0, bottom: 3, right: 0 }, 'a\nb\n')!.rule;
  assert.deepEqual(blockTexts(rule, { top: 0, left: 0, bottom: 3, right: 0 }), [['a'], ['b'], ['a'], ['b']]);
});

test('copy then paste elsewhere reproduces the cells exactly', () => {
  const base = table3x2();
  const source = pasteText(base, { top: 0, left: 0, bottom: 0, right: 0 }, 'IN a|b\tBTW [1, 5]\t"fx CONCAT(""x\ty"")"\t{"k":[1,2]}\nELSE\tDATE > 2024-01-01 +00:00\t"multi\nline"\t\n')!.rule;
  assert.equal(blockTexts(source, { top: 0, left: 2, bottom: 0, right: 2 })[0]![0], 'fx CONCAT("x\ty")');
  const text = copyBlock(source, { top: 0, left: 0, bottom: 1, right: 3 });
  const target = pasteText(base, { top: 0, left: 0, bottom: 0, right: 0 }, text)!.rule;
  assert.deepEqual(tableOf(target).rows.map((r: any) => r.cells), tableOf(source).rows.map((r: any) => r.cells));
  assert.equal(blockTexts(source, { top: 1, left: 2, bottom: 1, right: 2 })[0]![0], 'multi\nline');
});

test('clear resets a block to empty cells of each column kind', () => {
  const source = pasteText(table3x2(), { top: 0, left: 0, bottom: 0, right: 0 }, '1\t2\t3\t4\n5\t6\t7\t8\n')!.rule;
  const cleared = clearBlock(source, { top: 0, left: 1, bottom: 1, right: 2 });
  assert.deepEqual(blockTexts(cleared, { top: 0, left: 0, bottom: 1, right: 3 }), [['1', '', '', '4'], ['5', '', '', '8']]);
});

test('paste ignores empty clipboard text', () => {
  assert.equal(pasteText(table3x2(), { top: 0, left: 0, bottom: 0, right: 0 }, ''), undefined);
});
