// The virtualized decision-table grid. Only the rows and columns in view are in the DOM (TanStack Virtual);
// the container is an ARIA grid that keeps focus itself and points at the active cell with
// aria-activedescendant, so keyboard focus survives cells scrolling out of the DOM. All edits go through the
// callbacks: the grid never changes the document itself.
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import type { ClipboardEvent as ReactClipboardEvent, KeyboardEvent as ReactKeyboardEvent, MouseEvent as ReactMouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { cellValueOf, columnBinding, columnId, columnKind, columnTitle, isRowActive, tableOf, COLUMN_KIND_LABEL } from './model/table.ts';
import type { Column, Row, Rule } from './model/table.ts';
import { cellText, readCondition } from './model/cells.ts';
import { operatorEntry } from './model/operators.ts';
import { navigate, rangeOf, selectAll } from './model/selection.ts';
import type { CellPos, Range, Selection } from './model/selection.ts';
import { cellKey } from './model/problems.ts';
import type { ProblemIndex } from './model/problems.ts';
import { describeOutcome } from './model/trace.ts';
import type { TraceView } from './model/trace.ts';

export const ROW_HEIGHT = 30;
export const HEADER_HEIGHT = 50;
export const ROW_HEADER_WIDTH = 64;
export const MIN_COLUMN_WIDTH = 80;

export function columnWidth(column: Column): number {
  return columnKind(column) === 'output' ? 200 : 180;
}

export interface GridHandle {
  focus(): void;
  scrollToCell(pos: CellPos): void;
  /** The screen rectangle of a cell (for anchoring the cell editor), when it is rendered. */
  cellRect(pos: CellPos): DOMRect | undefined;
}

export interface GridProps {
  id: string;
  rule: Rule;
  selection: Selection;
  readOnly: boolean;
  problems: ProblemIndex;
  /** Warnings by cell (`row:col`): values outside the column's valid values. */
  warnings?: ReadonlyMap<string, string[]>;
  /** Columns whose path their model lacks, by index, with what to say ("customer.tier is not in the input model"). */
  modelGaps?: ReadonlyMap<number, string>;
  trace: TraceView | undefined;
  /** The cell being typed into (inline editor), with the text it started with. */
  inlineEdit: { pos: CellPos; text: string } | null;
  onSelect(selection: Selection): void;
  /** Enter / F2 / double-click: the full cell editor. */
  onOpenEditor(pos: CellPos): void;
  /** A printable key on a cell: inline typing starting with that text. */
  onStartInline(pos: CellPos, text: string): void;
  onCommitInline(pos: CellPos, text: string, move: 'down' | 'right' | 'left' | 'none'): void;
  onCancelInline(): void;
  onClear(range: Range): void;
  onCopy(range: Range): string;
  onCut(range: Range): string;
  onPaste(text: string): void;
  onUndo(): void;
  onRedo(): void;
  onEditColumn(col: number): void;
  /** Alt+ArrowUp / Alt+ArrowDown: move the selected rows. */
  onMoveRows(delta: number): void;
  /** Cells hold plain expression text (a decision graph's ZEN cells), shown as it is. */
  textCells?: boolean;
}

function isPrimary(e: { ctrlKey: boolean; metaKey: boolean }): boolean {
  return e.ctrlKey || e.metaKey;
}

export const Grid = forwardRef<GridHandle, GridProps>(function Grid(props, ref) {
  const { rule, selection, readOnly, problems, trace, id } = props;
  const { columns, rows } = tableOf(rule);
  const scroller = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const [focused, setFocused] = useState(false);
  // column widths the user dragged, by column id (a view setting, not part of the rule)
  const [widths, setWidths] = useState<Record<string, number>>({});

  const rowVirtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    overscan: 8,
    // let React batch scroll updates instead of rendering synchronously inside the scroll event
    useFlushSync: false,
  });
  const colVirtualizer = useVirtualizer({
    horizontal: true,
    count: columns.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => widths[columnId(columns[i])] ?? columnWidth(columns[i]),
    paddingStart: ROW_HEADER_WIDTH,
    scrollPaddingStart: ROW_HEADER_WIDTH,
    overscan: 2,
    useFlushSync: false,
  });

  useEffect(() => colVirtualizer.measure(), [widths, colVirtualizer]);

  const startResize = useCallback((e: ReactMouseEvent, id: string, from: number) => {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const move = (m: MouseEvent) => setWidths((w) => ({ ...w, [id]: Math.max(MIN_COLUMN_WIDTH, Math.round(from + m.clientX - startX)) }));
    const up = () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  }, []);
  const resetWidth = useCallback((id: string) => setWidths(({ [id]: _dropped, ...rest }) => rest), []);

  const cellId = useCallback((r: number, c: number) => `${id}-r${r}-c${c}`, [id]);

  useImperativeHandle(
    ref,
    () => ({
      focus: () => scroller.current?.focus({ preventScroll: true }),
      scrollToCell: (pos) => {
        if (pos.row >= 0 && pos.row < rows.length) rowVirtualizer.scrollToIndex(pos.row, { align: 'auto' });
        if (pos.col >= 0 && pos.col < columns.length) colVirtualizer.scrollToIndex(pos.col, { align: 'auto' });
      },
      cellRect: (pos) => document.getElementById(cellId(pos.row, pos.col))?.getBoundingClientRect(),
    }),
    [rows.length, columns.length, rowVirtualizer, colVirtualizer, cellId],
  );

  const size = { rows: rows.length, cols: columns.length };
  const range = rangeOf(selection);
  const active = selection.focus;
  const pageRows = Math.max(1, Math.floor(((scroller.current?.clientHeight ?? 600) - HEADER_HEIGHT) / ROW_HEIGHT) - 1);

  const select = (next: Selection) => {
    props.onSelect(next);
    rowVirtualizer.scrollToIndex(next.focus.row, { align: 'auto' });
    colVirtualizer.scrollToIndex(next.focus.col, { align: 'auto' });
  };

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.target !== scroller.current) return; // keys typed into an inline editor or header control
    const primary = isPrimary(e);
    const key = e.key;
    if (primary && !e.altKey) {
      const lower = key.toLowerCase();
      if (lower === 'z') {
        e.preventDefault();
        if (e.shiftKey) props.onRedo();
        else props.onUndo();
        return;
      }
      if (lower === 'y') {
        e.preventDefault();
        props.onRedo();
        return;
      }
      if (lower === 'a') {
        e.preventDefault();
        props.onSelect(selectAll(size));
        return;
      }
    }
    if (e.altKey && !primary && (key === 'ArrowUp' || key === 'ArrowDown')) {
      e.preventDefault();
      if (!readOnly) props.onMoveRows(key === 'ArrowUp' ? -1 : 1);
      return;
    }
    const moved = navigate(selection, key, { shift: e.shiftKey, primary }, size, pageRows);
    // Tab past the last cell (Shift+Tab before the first) leaves the grid, so the keyboard is never trapped
    if (moved && key === 'Tab' && moved.focus.row === active.row && moved.focus.col === active.col) return;
    if (moved) {
      e.preventDefault();
      select(moved);
      return;
    }
    if (size.rows === 0 || size.cols === 0) return;
    if (key === 'Enter' || key === 'F2') {
      e.preventDefault();
      if (!readOnly) props.onOpenEditor(active);
      return;
    }
    if (key === 'Delete' || key === 'Backspace') {
      e.preventDefault();
      if (!readOnly) props.onClear(range);
      return;
    }
    if (key === 'Escape') {
      props.onSelect({ anchor: active, focus: active });
      return;
    }
    if (!readOnly && key.length === 1 && !primary && !e.altKey) {
      e.preventDefault();
      props.onStartInline(active, key);
    }
  };

  const onCopy = (e: ReactClipboardEvent<HTMLDivElement>) => {
    if (e.target !== scroller.current || size.rows === 0) return;
    e.preventDefault();
    e.clipboardData.setData('text/plain', props.onCopy(range));
  };
  const onCut = (e: ReactClipboardEvent<HTMLDivElement>) => {
    if (e.target !== scroller.current || size.rows === 0) return;
    e.preventDefault();
    e.clipboardData.setData('text/plain', readOnly ? props.onCopy(range) : props.onCut(range));
  };
  const onPaste = (e: ReactClipboardEvent<HTMLDivElement>) => {
    if (e.target !== scroller.current || readOnly) return;
    e.preventDefault();
    props.onPaste(e.clipboardData.getData('text/plain'));
  };

  const onCellMouseDown = (e: ReactMouseEvent, pos: CellPos) => {
    if (e.button !== 0) return;
    if (props.inlineEdit && props.inlineEdit.pos.row === pos.row && props.inlineEdit.pos.col === pos.col) return;
    e.preventDefault();
    scroller.current?.focus({ preventScroll: true });
    dragging.current = true;
    props.onSelect({ anchor: e.shiftKey ? selection.anchor : pos, focus: pos });
    const stop = () => {
      dragging.current = false;
      window.removeEventListener('mouseup', stop);
    };
    window.addEventListener('mouseup', stop);
  };
  const onCellMouseEnter = (pos: CellPos) => {
    if (dragging.current) props.onSelect({ anchor: selection.anchor, focus: pos });
  };

  const selectRow = (e: ReactMouseEvent, r: number) => {
    e.preventDefault();
    scroller.current?.focus({ preventScroll: true });
    const last = Math.max(0, columns.length - 1);
    if (e.shiftKey) props.onSelect({ anchor: { row: selection.anchor.row, col: 0 }, focus: { row: r, col: last } });
    else props.onSelect({ anchor: { row: r, col: 0 }, focus: { row: r, col: last } });
  };
  const selectColumn = (e: ReactMouseEvent, c: number) => {
    if ((e.target as HTMLElement).closest('button')) return;
    e.preventDefault();
    scroller.current?.focus({ preventScroll: true });
    const last = Math.max(0, rows.length - 1);
    if (e.shiftKey) props.onSelect({ anchor: { row: 0, col: selection.anchor.col }, focus: { row: last, col: c } });
    else props.onSelect({ anchor: { row: 0, col: c }, focus: { row: last, col: c } });
  };

  // Rows are memoised: they get stable callbacks (through a ref to the latest handlers) and only the selection
  // facts that concern them, so scrolling renders just the rows that come into view.
  const handlers = useRef({ onCellMouseDown, onCellMouseEnter, selectRow, props });
  handlers.current = { onCellMouseDown, onCellMouseEnter, selectRow, props };
  const rowEvents = useMemo<RowEvents>(
    () => ({
      onCellMouseDown: (e, pos) => handlers.current.onCellMouseDown(e, pos),
      onCellMouseEnter: (pos) => handlers.current.onCellMouseEnter(pos),
      onCellDoubleClick: (pos) => !handlers.current.props.readOnly && handlers.current.props.onOpenEditor(pos),
      onRowHeaderMouseDown: (e, r) => handlers.current.selectRow(e, r),
      onCommitInline: (pos, text, move) => handlers.current.props.onCommitInline(pos, text, move),
      onCancelInline: () => handlers.current.props.onCancelInline(),
    }),
    [],
  );

  const virtualRows = rowVirtualizer.getVirtualItems();
  const virtualCols = colVirtualizer.getVirtualItems();
  const totalWidth = colVirtualizer.getTotalSize();
  const totalHeight = rowVirtualizer.getTotalSize();
  // point at the active cell only while it is in the DOM (it scrolls out when the user scrolls with the mouse)
  const activeRendered =
    virtualRows.some((v) => v.index === active.row) && virtualCols.some((v) => v.index === active.col);

  return (
    <div
      ref={scroller}
      className={`dt-grid${focused ? ' dt-grid-focused' : ''}`}
      role="grid"
      aria-label="Decision table"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length + 1}
      aria-multiselectable="true"
      aria-readonly={readOnly || undefined}
      aria-activedescendant={activeRendered ? cellId(active.row, active.col) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onCopy={onCopy}
      onCut={onCut}
      onPaste={onPaste}
      onFocus={(e) => e.target === scroller.current && setFocused(true)}
      onBlur={(e) => e.target === scroller.current && setFocused(false)}
    >
      <div className="dt-canvas" style={{ width: totalWidth, height: totalHeight }}>
        <div role="rowgroup" className="dt-head" style={{ width: totalWidth, height: HEADER_HEIGHT }}>
          <div role="row" aria-rowindex={1} className="dt-head-row" style={{ width: totalWidth, height: HEADER_HEIGHT }}>
            <div role="columnheader" aria-colindex={1} className="dt-corner" style={{ width: ROW_HEADER_WIDTH, height: HEADER_HEIGHT }}>
              #
            </div>
            {virtualCols.map((vc) => (
              <ColumnHeader
                key={vc.key}
                column={columns[vc.index]}
                index={vc.index}
                left={vc.start}
                width={vc.size}
                selected={vc.index >= range.left && vc.index <= range.right}
                problems={problems.columns.get(vc.index)}
                modelGap={props.modelGaps?.get(vc.index)}
                gridId={id}
                readOnly={readOnly}
                onMouseDown={selectColumn}
                onEdit={props.onEditColumn}
                onResizeStart={startResize}
                onResizeReset={resetWidth}
              />
            ))}
          </div>
        </div>
        <div role="rowgroup">
          {virtualRows.map((vr) => {
            const r = vr.index;
            const row = rows[r];
            return (
              <GridRow
                key={vr.key}
                row={row}
                r={r}
                top={vr.start}
                width={totalWidth}
                columns={columns}
                virtualCols={virtualCols}
                selLeft={r >= range.top && r <= range.bottom ? range.left : -1}
                selRight={r >= range.top && r <= range.bottom ? range.right : -1}
                activeCol={active.row === r ? active.col : -1}
                cellId={cellId}
                problems={problems}
                warnings={props.warnings}
                rowProblems={problems.rows.get(r)}
                trace={trace}
                readOnly={readOnly}
                inlineEdit={props.inlineEdit && props.inlineEdit.pos.row === r ? props.inlineEdit : null}
                events={rowEvents}
                textCells={!!props.textCells}
              />
            );
          })}
        </div>
      </div>
      {columns.length === 0 ? (
        <div className="dt-empty">No columns yet. Add a condition column and a result column.</div>
      ) : (
        rows.length === 0 && <div className="dt-empty">No rows yet. Use “Add row” or paste rows from a spreadsheet.</div>
      )}
    </div>
  );
});

interface ColumnHeaderProps {
  column: Column;
  index: number;
  left: number;
  width: number;
  selected: boolean;
  problems: string[] | undefined;
  /** What the column's model lacks (modelGaps), said in its description and tooltip. */
  modelGap: string | undefined;
  gridId: string;
  readOnly: boolean;
  onMouseDown(e: ReactMouseEvent, c: number): void;
  onEdit(c: number): void;
  onResizeStart(e: ReactMouseEvent, id: string, from: number): void;
  onResizeReset(id: string): void;
}

function ColumnHeader({ column, index, left, width, selected, problems, modelGap, gridId, readOnly, onMouseDown, onEdit, onResizeStart, onResizeReset }: ColumnHeaderProps) {
  const kind = columnKind(column);
  const binding = columnBinding(column);
  const title = columnTitle(column);
  const problemId = problems ? `${gridId}-colp${index}` : undefined;
  const gapId = modelGap ? `${gridId}-colm${index}` : undefined;
  const describedBy = [problemId, gapId].filter(Boolean).join(' ') || undefined;
  const tooltip = problems ? problems.join('\n') : `${COLUMN_KIND_LABEL[kind]}: ${title}${binding ? ` (${binding})` : ''}`;
  return (
    <div
      role="columnheader"
      aria-colindex={index + 2}
      aria-describedby={describedBy}
      className={`dt-colhead dt-kind-${kind}${selected ? ' dt-selected-head' : ''}${problems ? ' dt-has-problem' : ''}`}
      style={{ left, width, height: HEADER_HEIGHT }}
      title={modelGap ? `${tooltip}\n${modelGap}` : tooltip}
      onMouseDown={(e) => onMouseDown(e, index)}
      onDoubleClick={() => !readOnly && onEdit(index)}
    >
      <div className="dt-colhead-top">
        <span className="dt-kind-badge" aria-hidden="true">
          {kind === 'input' ? 'IF' : kind === 'calc' ? 'CALC' : 'THEN'}
        </span>
        <span className="dt-colhead-name">{title}</span>
        {!readOnly && (
          <button type="button" className="dt-colhead-edit" aria-label={`Edit column ${title}`} tabIndex={-1} onClick={() => onEdit(index)}>
            ⋯
          </button>
        )}
      </div>
      <div className="dt-colhead-binding">
        <span className="dt-sr">{COLUMN_KIND_LABEL[kind]} column, </span>
        {modelGap && <span className="dt-model-gap" aria-hidden="true">⚠ </span>}
        {binding ? (kind === 'calc' ? `{${binding}}` : binding) : <em>unbound</em>}
      </div>
      {gapId && (
        <span id={gapId} className="dt-sr">
          {modelGap}
        </span>
      )}
      {problemId && (
        <span id={problemId} className="dt-sr">
          {`Problem: ${problems!.join('; ')}`}
        </span>
      )}
      <div
        className="dt-resize"
        aria-hidden="true"
        title="Drag to resize; double-click to reset"
        onMouseDown={(e) => onResizeStart(e, columnId(column), width)}
        onDoubleClick={(e) => {
          e.stopPropagation();
          onResizeReset(columnId(column));
        }}
      />
    </div>
  );
}

interface GridRowProps {
  row: Row;
  r: number;
  top: number;
  width: number;
  columns: Column[];
  virtualCols: { index: number; start: number; size: number; key: string | number | bigint }[];
  /** The selected columns of this row (-1 when the row is outside the selection). */
  selLeft: number;
  selRight: number;
  /** The active cell's column when it is in this row, else -1. */
  activeCol: number;
  cellId(r: number, c: number): string;
  problems: ProblemIndex;
  warnings: ReadonlyMap<string, string[]> | undefined;
  rowProblems: string[] | undefined;
  trace: TraceView | undefined;
  readOnly: boolean;
  inlineEdit: { pos: CellPos; text: string } | null;
  events: RowEvents;
  textCells: boolean;
}

interface RowEvents {
  onCellMouseDown(e: ReactMouseEvent, pos: CellPos): void;
  onCellMouseEnter(pos: CellPos): void;
  onCellDoubleClick(pos: CellPos): void;
  onRowHeaderMouseDown(e: ReactMouseEvent, r: number): void;
  onCommitInline(pos: CellPos, text: string, move: 'down' | 'right' | 'left' | 'none'): void;
  onCancelInline(): void;
}

const GridRow = memo(function GridRow(props: GridRowProps) {
  const { row, r, columns, virtualCols, trace, problems, events } = props;
  const rowActive = isRowActive(row);
  const matched = trace?.matched.has(r);
  const evaluated = trace?.evaluated.has(r);
  const rowProblemId = props.rowProblems ? props.cellId(r, -1) : undefined;
  const rowSelected = props.selLeft >= 0;
  return (
    <div
      role="row"
      aria-rowindex={r + 2}
      className={`dt-row${rowActive ? '' : ' dt-row-inactive'}${matched ? ' dt-row-matched' : evaluated ? ' dt-row-evaluated' : ''}`}
      style={{ transform: `translateY(${props.top}px)`, width: props.width, height: ROW_HEIGHT }}
    >
      <div
        role="rowheader"
        aria-colindex={1}
        aria-describedby={rowProblemId}
        className={`dt-rowhead${rowSelected ? ' dt-selected-head' : ''}${props.rowProblems ? ' dt-has-problem' : ''}`}
        style={{ width: ROW_HEADER_WIDTH, height: ROW_HEIGHT }}
        title={props.rowProblems ? props.rowProblems.join('\n') : undefined}
        onMouseDown={(e) => events.onRowHeaderMouseDown(e, r)}
      >
        {matched && (
          <span className="dt-match-mark" aria-hidden="true">
            ✓
          </span>
        )}
        {r + 1}
        {!rowActive && <span className="dt-sr"> (inactive)</span>}
        {matched && <span className="dt-sr"> (matched)</span>}
        {rowProblemId && (
          <span id={rowProblemId} className="dt-sr">
            {`Problem: ${props.rowProblems!.join('; ')}`}
          </span>
        )}
      </div>
      {virtualCols.map((vc) => {
        const c = vc.index;
        const column = columns[c];
        const key = cellKey(r, c);
        const cellProblems = problems.cells.get(key);
        const cellWarnings = props.warnings?.get(key);
        const outcome = trace?.conditions.get(key);
        const described = cellProblems || cellWarnings || outcome;
        const isActive = props.activeCol === c;
        const selected = c >= props.selLeft && c <= props.selRight;
        const editing = props.inlineEdit && props.inlineEdit.pos.col === c ? props.inlineEdit : null;
        const idText = props.cellId(r, c);
        const value = cellValueOf(row, column);
        // the full text on hover (cells cut long expressions off), then problems and the bench outcome
        const text = props.textCells ? (typeof value === 'string' ? value : '') : cellText(value, columnKind(column));
        const tooltip = [text, cellProblems?.join('\n'), cellWarnings?.join('\n'), outcome ? describeOutcome(outcome) : undefined].filter(Boolean).join('\n') || undefined;
        return (
          <div
            key={vc.key}
            id={idText}
            role="gridcell"
            aria-colindex={c + 2}
            aria-selected={selected}
            aria-invalid={cellProblems ? true : undefined}
            aria-describedby={described ? `${idText}-d` : undefined}
            aria-readonly={props.readOnly || undefined}
            className={`dt-cell dt-kind-${columnKind(column)}${selected ? ' dt-selected' : ''}${isActive ? ' dt-active' : ''}${cellProblems ? ' dt-has-problem' : ''}${cellWarnings ? ' dt-has-warning' : ''}${outcome ? (outcome.held ? ' dt-held' : ' dt-failed') : ''}`}
            style={{ left: vc.start, width: vc.size, height: ROW_HEIGHT }}
            title={tooltip}
            onMouseDown={(e) => events.onCellMouseDown(e, { row: r, col: c })}
            onMouseEnter={() => events.onCellMouseEnter({ row: r, col: c })}
            onDoubleClick={() => events.onCellDoubleClick({ row: r, col: c })}
          >
            {editing ? (
              <InlineEditor
                initial={editing.text}
                label={`Edit ${columnTitle(column)} in row ${r + 1}`}
                onCommit={(text, move) => events.onCommitInline({ row: r, col: c }, text, move)}
                onCancel={events.onCancelInline}
              />
            ) : (
              props.textCells ? <TextCell text={text} kind={columnKind(column)} /> : <CellContent value={value} column={column} />
            )}
            {described && (
              <span id={`${idText}-d`} className="dt-sr">
                {[cellProblems ? `Problem: ${cellProblems.join('; ')}` : '', cellWarnings ? `Warning: ${cellWarnings.join('; ')}` : '', outcome ? describeOutcome(outcome) : ''].filter(Boolean).join('. ')}
              </span>
            )}
          </div>
        );
      })}
    </div>
  );
});

/** A cell of plain expression text; an empty condition reads as "any" (it holds for every input). */
function TextCell({ text, kind }: { text: string; kind: string }) {
  if (text.trim() === '' && kind === 'input') return <span className="dt-cell-text dt-any">any</span>;
  return <span className="dt-cell-text dt-mono">{text}</span>;
}

const CellContent = memo(function CellContent({ value, column }: { value: any; column: Column }) {
  const kind = columnKind(column);
  if (kind === 'input') {
    const edit = readCondition(value);
    if (edit.type === 'function') {
      return (
        <span className="dt-cell-text">
          <span className="dt-fx">fx</span> {edit.expression}
        </span>
      );
    }
    if (edit.operator === 'anything') return <span className="dt-cell-text dt-any">any</span>;
    const entry = operatorEntry(edit.operator);
    const label = entry?.label ?? edit.operator;
    let rest = '';
    if (entry?.editor === 'pair') rest = `[${edit.values[0] ?? ''}, ${edit.values[1] ?? ''}]`;
    else if (entry?.editor === 'list') rest = edit.values.join(' | ');
    else if (entry?.editor !== 'none') rest = edit.values[0] ?? '';
    return (
      <span className="dt-cell-text">
        {edit.type === 'date' && <span className="dt-date">date</span>}
        <span className={`dt-op${entry?.editor === 'none' ? ' dt-op-only' : ''}`}>{label}</span> {rest}
      </span>
    );
  }
  const text = cellText(value, kind);
  if (text.startsWith('fx ') && kind === 'output') {
    return (
      <span className="dt-cell-text">
        <span className="dt-fx">fx</span> {text.slice(3)}
      </span>
    );
  }
  return <span className={`dt-cell-text${kind === 'calc' ? ' dt-mono' : ''}`}>{text}</span>;
});

function InlineEditor({ initial, label, onCommit, onCancel }: { initial: string; label: string; onCommit(text: string, move: 'down' | 'right' | 'left' | 'none'): void; onCancel(): void }) {
  const done = useRef(false);
  const finish = (text: string, move: 'down' | 'right' | 'left' | 'none') => {
    if (done.current) return;
    done.current = true;
    onCommit(text, move);
  };
  return (
    <input
      className="dt-inline"
      aria-label={label}
      defaultValue={initial}
      autoFocus
      onFocus={(e) => {
        const len = e.currentTarget.value.length;
        e.currentTarget.setSelectionRange(len, len);
      }}
      onMouseDown={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(e.currentTarget.value, 'down');
        } else if (e.key === 'Tab') {
          e.preventDefault();
          finish(e.currentTarget.value, e.shiftKey ? 'left' : 'right');
        } else if (e.key === 'Escape') {
          e.preventDefault();
          done.current = true;
          onCancel();
        }
      }}
      onBlur={(e) => finish(e.currentTarget.value, 'none')}
    />
  );
}
