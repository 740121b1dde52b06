// Cell selection: an anchor (where the selection started) and a focus (the active cell). The block between
// them is the selected range. Keyboard movement is a pure function of the key, so the grid's keyboard
// behaviour is tested here without a DOM.

export interface CellPos {
  row: number;
  col: number;
}

export interface Selection {
  anchor: CellPos;
  focus: CellPos;
}

export interface Range {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface GridSize {
  rows: number;
  cols: number;
}

export function cellSelection(row: number, col: number): Selection {
  return { anchor: { row, col }, focus: { row, col } };
}

export function rangeOf(selection: Selection): Range {
  const { anchor, focus } = selection;
  return {
    top: Math.min(anchor.row, focus.row),
    bottom: Math.max(anchor.row, focus.row),
    left: Math.min(anchor.col, focus.col),
    right: Math.max(anchor.col, focus.col),
  };
}

export function rangeRows(range: Range): number[] {
  return Array.from({ length: range.bottom - range.top + 1 }, (_, i) => range.top + i);
}

export function inRange(range: Range, row: number, col: number): boolean {
  return row >= range.top && row <= range.bottom && col >= range.left && col <= range.right;
}

export function isSingleCell(selection: Selection): boolean {
  return selection.anchor.row === selection.focus.row && selection.anchor.col === selection.focus.col;
}

function clampPos(pos: CellPos, size: GridSize): CellPos {
  return {
    row: Math.max(0, Math.min(size.rows - 1, pos.row)),
    col: Math.max(0, Math.min(size.cols - 1, pos.col)),
  };
}

/** The selection kept inside the grid (after rows or columns were deleted). */
export function clampSelection(selection: Selection, size: GridSize): Selection {
  if (size.rows === 0 || size.cols === 0) return cellSelection(0, 0);
  return { anchor: clampPos(selection.anchor, size), focus: clampPos(selection.focus, size) };
}

/** Moves the focus to `to`; with `extend` the anchor stays (shift+click, shift+arrow), otherwise it follows. */
export function moveTo(selection: Selection, to: CellPos, extend: boolean, size: GridSize): Selection {
  const focus = clampPos(to, size);
  return { anchor: extend ? selection.anchor : focus, focus };
}

export interface KeyModifiers {
  shift?: boolean;
  /** Ctrl on Windows/Linux, Cmd on macOS. */
  primary?: boolean;
}

/**
 * The selection after a navigation key, or undefined when the key does not navigate. `pageRows` is how many
 * rows PageUp/PageDown move. Tab moves right and wraps to the next row (Shift+Tab left and up) and never
 * extends; Ctrl+Home/End go to the first/last cell of the table.
 */
export function navigate(selection: Selection, key: string, mods: KeyModifiers, size: GridSize, pageRows: number): Selection | undefined {
  if (size.rows === 0 || size.cols === 0) return undefined;
  const { row, col } = selection.focus;
  const extend = !!mods.shift;
  switch (key) {
    case 'ArrowUp':
      return moveTo(selection, { row: mods.primary ? 0 : row - 1, col }, extend, size);
    case 'ArrowDown':
      return moveTo(selection, { row: mods.primary ? size.rows - 1 : row + 1, col }, extend, size);
    case 'ArrowLeft':
      return moveTo(selection, { row, col: mods.primary ? 0 : col - 1 }, extend, size);
    case 'ArrowRight':
      return moveTo(selection, { row, col: mods.primary ? size.cols - 1 : col + 1 }, extend, size);
    case 'Home':
      return moveTo(selection, { row: mods.primary ? 0 : row, col: 0 }, extend, size);
    case 'End':
      return moveTo(selection, { row: mods.primary ? size.rows - 1 : row, col: size.cols - 1 }, extend, size);
    case 'PageUp':
      return moveTo(selection, { row: row - Math.max(1, pageRows), col }, extend, size);
    case 'PageDown':
      return moveTo(selection, { row: row + Math.max(1, pageRows), col }, extend, size);
    case 'Tab': {
      let next = mods.shift ? { row, col: col - 1 } : { row, col: col + 1 };
      if (next.col >= size.cols) next = row + 1 < size.rows ? { row: row + 1, col: 0 } : { row, col };
      if (next.col < 0) next = row > 0 ? { row: row - 1, col: size.cols - 1 } : { row, col };
      return moveTo(selection, next, false, size);
    }
    default:
      return undefined;
  }
}

/** Select all cells. */
export function selectAll(size: GridSize): Selection {
  return { anchor: { row: 0, col: 0 }, focus: { row: Math.max(0, size.rows - 1), col: Math.max(0, size.cols - 1) } };
}
