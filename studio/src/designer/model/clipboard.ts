// Copy, cut, paste and clear on a block of cells, with spreadsheet semantics: pasting N rows below the last
// row creates the rows it needs (50 pasted rows make 50 rows); columns past the last are dropped and counted;
// one copied value pasted onto a larger selection fills the whole selection (as Excel and Sheets do).
import { cellFromText, cellText } from './cells.ts';
import { columnKind, emptyCellValue, newRow, tableOf, withCellValue, withTable } from './table.ts';
import type { Rule } from './table.ts';
import { cellValueOf } from './table.ts';
import type { Range } from './selection.ts';
import { parseTsv, serialiseTsv } from './tsv.ts';

/** The block as rows of cell texts. */
export function blockTexts(rule: Rule, range: Range): string[][] {
  const { columns, rows } = tableOf(rule);
  const out: string[][] = [];
  for (let r = range.top; r <= range.bottom && r < rows.length; r++) {
    const line: string[] = [];
    for (let c = range.left; c <= range.right && c < columns.length; c++) {
      line.push(cellText(cellValueOf(rows[r], columns[c]), columnKind(columns[c])));
    }
    out.push(line);
  }
  return out;
}

export function copyBlock(rule: Rule, range: Range): string {
  return serialiseTsv(blockTexts(rule, range));
}

/** Every cell of the block back to empty (`anything` / empty value). */
export function clearBlock(rule: Rule, range: Range): Rule {
  const { columns, rows } = tableOf(rule);
  if (rows.length === 0 || columns.length === 0) return rule;
  const next = rows.slice();
  for (let r = Math.max(0, range.top); r <= range.bottom && r < rows.length; r++) {
    let row = next[r];
    for (let c = Math.max(0, range.left); c <= range.right && c < columns.length; c++) {
      row = withCellValue(row, columns[c], emptyCellValue(columnKind(columns[c])));
    }
    next[r] = row;
  }
  return withTable(rule, { rows: next });
}

export interface PasteResult {
  rule: Rule;
  /** The block that was written (select it after pasting). */
  range: Range;
  createdRows: number;
  /** Pasted fields that fell right of the last column. */
  droppedFields: number;
}

/**
 * Pastes clipboard text with its top-left at the selection's top-left. A single value fills the whole
 * selection; a block whose size divides the selection is tiled over it; otherwise the block is written once.
 */
export function pasteText(rule: Rule, selection: Range, text: string): PasteResult | undefined {
  const block = parseTsv(text);
  if (block.length === 0) return undefined;
  const { columns } = tableOf(rule);
  if (columns.length === 0) return undefined;
  const width = Math.max(...block.map((line) => line.length));
  const selRows = selection.bottom - selection.top + 1;
  const selCols = selection.right - selection.left + 1;
  const tile = selRows % block.length === 0 && selCols % width === 0 && (selRows > block.length || selCols > width);
  const height = tile ? selRows : block.length;
  const across = tile ? selCols : width;
  const top = Math.max(0, selection.top);
  const left = Math.max(0, selection.left);
  let rows = tableOf(rule).rows.slice();
  const needed = top + height - rows.length;
  let createdRows = 0;
  if (needed > 0) {
    for (let i = 0; i < needed; i++) rows.push(newRow(columns));
    createdRows = needed;
  }
  let droppedFields = 0;
  for (let i = 0; i < height; i++) {
    const line = block[i % block.length]!;
    let row = rows[top + i];
    for (let j = 0; j < across; j++) {
      const field = line[j % width] ?? '';
      const c = left + j;
      if (c >= columns.length) {
        if (!tile && j < line.length) droppedFields++;
        continue;
      }
      row = withCellValue(row, columns[c], cellFromText(field, columnKind(columns[c])));
    }
    rows[top + i] = row;
  }
  rows = rows.slice();
  const right = Math.min(columns.length - 1, left + across - 1);
  return {
    rule: withTable(rule, { rows }),
    range: { top, left, bottom: top + height - 1, right },
    createdRows,
    droppedFields,
  };
}
