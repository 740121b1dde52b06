// The lookup table's virtualized grid: only the rows and columns in view are in the DOM (TanStack Virtual), so a
// 40,000-row table scrolls and edits like a small one. It follows the decision-table grid (designer/Grid.tsx): an
// ARIA grid that keeps focus itself and points at the active cell with aria-activedescendant, the same keyboard
// model (designer/model/selection.ts) and styles. The key column is marked; key problems sit on the key cell with
// an accessible description, and while a key is typed the editor checks it against the other rows' keys.
import { forwardRef, memo, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ClipboardEvent as ReactClipboardEvent, KeyboardEvent as ReactKeyboardEvent, MouseEvent as ReactMouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { HEADER_HEIGHT, ROW_HEADER_WIDTH, ROW_HEIGHT } from '../designer/Grid.tsx';
import { navigate, rangeOf, selectAll } from '../designer/model/selection.ts';
import type { CellPos, Range, Selection } from '../designer/model/selection.ts';
import { cellText, keyProblem } from './model.ts';
import type { LookupColumn, LookupModel, LookupRow } from './model.ts';

const COLUMN_WIDTH = 200;

export interface LookupGridHandle {
  focus(): void;
  scrollToCell(pos: CellPos): void;
}

export interface LookupGridProps {
  id: string;
  model: LookupModel;
  selection: Selection;
  readOnly: boolean;
  /** Rows by key text (the model's keyIndex), for the check while a key is typed. */
  keys: ReadonlyMap<string, readonly number[]>;
  /** The message on each row's key cell whose key is empty or not unique. */
  keyProblems: ReadonlyMap<number, string>;
  /** Problems the server reported, by row. */
  rowProblems: ReadonlyMap<number, string[]>;
  /** The row the last bench run found, if any. */
  matchedRow: number | undefined;
  inlineEdit: { pos: CellPos; text: string } | null;
  onSelect(selection: Selection): void;
  onStartInline(pos: CellPos, text: string): void;
  onCommitInline(pos: CellPos, text: string, move: 'down' | 'right' | 'left' | 'none'): void;
  onCancelInline(): void;
  onClear(range: Range): void;
  onCopy(range: Range): string;
  onPaste(text: string): void;
  onUndo(): void;
  onRedo(): void;
  onEditColumn(col: number): void;
}

export const LookupGrid = forwardRef<LookupGridHandle, LookupGridProps>(function LookupGrid(props, ref) {
  const { model, selection, readOnly, id } = props;
  const { columns, rows } = model;
  const scroller = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState(false);

  const rowVirtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    overscan: 8,
    useFlushSync: false,
  });
  const colVirtualizer = useVirtualizer({
    horizontal: true,
    count: columns.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => COLUMN_WIDTH,
    paddingStart: ROW_HEADER_WIDTH,
    scrollPaddingStart: ROW_HEADER_WIDTH,
    overscan: 2,
    useFlushSync: false,
  });

  const cellId = (r: number, c: number) => `${id}-r${r}-c${c}`;
  const scrollToCell = (pos: CellPos) => {
    if (pos.row >= 0 && pos.row < rows.length) rowVirtualizer.scrollToIndex(pos.row, { align: 'auto' });
    if (pos.col >= 0 && pos.col < columns.length) colVirtualizer.scrollToIndex(pos.col, { align: 'auto' });
  };
  useImperativeHandle(ref, () => ({ focus: () => scroller.current?.focus({ preventScroll: true }), scrollToCell }));

  const size = { rows: rows.length, cols: columns.length };
  const range = rangeOf(selection);
  const active = selection.focus;
  const pageRows = Math.max(1, Math.floor(((scroller.current?.clientHeight ?? 600) - HEADER_HEIGHT) / ROW_HEIGHT) - 1);

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.target !== scroller.current) return;
    const primary = e.ctrlKey || e.metaKey;
    const key = e.key;
    if (primary && !e.altKey) {
      const lower = key.toLowerCase();
      if (lower === 'z' || lower === 'y') {
        e.preventDefault();
        if (lower === 'y' || e.shiftKey) props.onRedo();
        else props.onUndo();
        return;
      }
      if (lower === 'a') {
        e.preventDefault();
        props.onSelect(selectAll(size));
        return;
      }
    }
    const moved = navigate(selection, key, { shift: e.shiftKey, primary }, size, pageRows);
    if (moved && key === 'Tab' && moved.focus.row === active.row && moved.focus.col === active.col) return;
    if (moved) {
      e.preventDefault();
      props.onSelect(moved);
      scrollToCell(moved.focus);
      return;
    }
    if (size.rows === 0 || size.cols === 0 || readOnly) return;
    if (key === 'Enter' || key === 'F2') {
      e.preventDefault();
      props.onStartInline(active, cellText(rows[active.row]?.[columns[active.col]!.alias]));
    } else if (key === 'Delete' || key === 'Backspace') {
      e.preventDefault();
      props.onClear(range);
    } else if (key === 'Escape') {
      props.onSelect({ anchor: active, focus: active });
    } else if (key.length === 1 && !primary && !e.altKey) {
      e.preventDefault();
      props.onStartInline(active, key);
    }
  };

  const onCopy = (e: ReactClipboardEvent<HTMLDivElement>) => {
    if (e.target !== scroller.current || size.rows === 0) return;
    e.preventDefault();
    e.clipboardData.setData('text/plain', props.onCopy(range));
  };
  const onPaste = (e: ReactClipboardEvent<HTMLDivElement>) => {
    if (e.target !== scroller.current || readOnly) return;
    e.preventDefault();
    props.onPaste(e.clipboardData.getData('text/plain'));
  };

  // Stable row callbacks through a ref to the latest props, so memoised rows re-render only when their data changes.
  const latest = useRef(props);
  latest.current = props;
  const events = useMemo<RowEvents>(() => ({
    onCellMouseDown: (e, pos) => {
      if (e.button !== 0) return;
      const p = latest.current;
      if (p.inlineEdit && p.inlineEdit.pos.row === pos.row && p.inlineEdit.pos.col === pos.col) return;
      e.preventDefault();
      scroller.current?.focus({ preventScroll: true });
      p.onSelect({ anchor: e.shiftKey ? p.selection.anchor : pos, focus: pos });
    },
    onCellDoubleClick: (pos) => {
      const p = latest.current;
      if (!p.readOnly) p.onStartInline(pos, cellText(p.model.rows[pos.row]?.[p.model.columns[pos.col]!.alias]));
    },
    onCommitInline: (pos, text, move) => latest.current.onCommitInline(pos, text, move),
    onCancelInline: () => latest.current.onCancelInline(),
  }), []);

  const virtualRows = rowVirtualizer.getVirtualItems();
  const virtualCols = colVirtualizer.getVirtualItems();
  const totalWidth = colVirtualizer.getTotalSize();
  const activeRendered = virtualRows.some((v) => v.index === active.row) && virtualCols.some((v) => v.index === active.col);

  return (
    <div
      ref={scroller}
      className={`dt-grid lk-grid${focused ? ' dt-grid-focused' : ''}`}
      role="grid"
      aria-label="Lookup table"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length + 1}
      aria-multiselectable="true"
      aria-readonly={readOnly || undefined}
      aria-activedescendant={activeRendered ? cellId(active.row, active.col) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onCopy={onCopy}
      onPaste={onPaste}
      onFocus={(e) => e.target === scroller.current && setFocused(true)}
      onBlur={(e) => e.target === scroller.current && setFocused(false)}
    >
      <div className="dt-canvas" style={{ width: totalWidth, height: rowVirtualizer.getTotalSize() }}>
        <div role="rowgroup" className="dt-head" style={{ width: totalWidth, height: HEADER_HEIGHT }}>
          <div role="row" aria-rowindex={1} className="dt-head-row" style={{ width: totalWidth, height: HEADER_HEIGHT }}>
            <div role="columnheader" aria-colindex={1} className="dt-corner" style={{ width: ROW_HEADER_WIDTH, height: HEADER_HEIGHT }}>#</div>
            {virtualCols.map((vc) => {
              const column = columns[vc.index]!;
              const isKey = column.alias === model.primaryKey;
              return (
                <div key={vc.key} role="columnheader" aria-colindex={vc.index + 2}
                  className={`dt-colhead ${isKey ? 'lk-key-head' : 'lk-value-head'}${vc.index >= range.left && vc.index <= range.right ? ' dt-selected-head' : ''}`}
                  style={{ left: vc.start, width: vc.size, height: HEADER_HEIGHT }}
                  title={`${column.name} (alias ${column.alias})${isKey ? ', the primary key' : ''}`}
                  onDoubleClick={() => !readOnly && props.onEditColumn(vc.index)}>
                  <div className="dt-colhead-top">
                    {isKey && <span className="dt-kind-badge lk-key-badge" aria-hidden="true">KEY</span>}
                    <span className="dt-colhead-name">{column.name}</span>
                    {!readOnly && (
                      <button type="button" className="dt-colhead-edit" aria-label={`Edit column ${column.name}`} tabIndex={-1} onClick={() => props.onEditColumn(vc.index)}>⋯</button>
                    )}
                  </div>
                  <div className="dt-colhead-binding">{isKey && <span className="dt-sr">Primary key, </span>}{column.alias}</div>
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup">
          {virtualRows.map((vr) => (
            <GridRow
              key={vr.key}
              r={vr.index}
              row={rows[vr.index]!}
              top={vr.start}
              width={totalWidth}
              columns={columns}
              primaryKey={model.primaryKey}
              virtualCols={virtualCols}
              selLeft={vr.index >= range.top && vr.index <= range.bottom ? range.left : -1}
              selRight={vr.index >= range.top && vr.index <= range.bottom ? range.right : -1}
              activeCol={active.row === vr.index ? active.col : -1}
              gridId={id}
              keyProblem={props.keyProblems.get(vr.index)}
              rowProblems={props.rowProblems.get(vr.index)}
              matched={props.matchedRow === vr.index}
              readOnly={readOnly}
              keys={props.keys}
              inlineEdit={props.inlineEdit && props.inlineEdit.pos.row === vr.index ? props.inlineEdit : null}
              events={events}
            />
          ))}
        </div>
      </div>
      {rows.length === 0 && <div className="dt-empty">No rows yet. Use “Import CSV”, “Add row”, or paste rows from a spreadsheet.</div>}
    </div>
  );
});

interface RowEvents {
  onCellMouseDown(e: ReactMouseEvent, pos: CellPos): void;
  onCellDoubleClick(pos: CellPos): void;
  onCommitInline(pos: CellPos, text: string, move: 'down' | 'right' | 'left' | 'none'): void;
  onCancelInline(): void;
}

interface GridRowProps {
  r: number;
  row: LookupRow;
  top: number;
  width: number;
  columns: readonly LookupColumn[];
  primaryKey: string;
  virtualCols: { index: number; start: number; size: number; key: string | number | bigint }[];
  selLeft: number;
  selRight: number;
  activeCol: number;
  gridId: string;
  keyProblem: string | undefined;
  rowProblems: string[] | undefined;
  matched: boolean;
  readOnly: boolean;
  keys: ReadonlyMap<string, readonly number[]>;
  inlineEdit: { pos: CellPos; text: string } | null;
  events: RowEvents;
}

const GridRow = memo(function GridRow(props: GridRowProps) {
  const { r, row, columns, events } = props;
  const rowProblemId = props.rowProblems ? `${props.gridId}-r${r}-p` : undefined;
  return (
    <div role="row" aria-rowindex={r + 2} className={`dt-row${props.matched ? ' dt-row-matched' : ''}`}
      style={{ transform: `translateY(${props.top}px)`, width: props.width, height: ROW_HEIGHT }}>
      <div role="rowheader" aria-colindex={1} aria-describedby={rowProblemId}
        className={`dt-rowhead${props.selLeft >= 0 ? ' dt-selected-head' : ''}${props.rowProblems ? ' dt-has-problem' : ''}`}
        style={{ width: ROW_HEADER_WIDTH, height: ROW_HEIGHT }} title={props.rowProblems?.join('\n')}>
        {props.matched && <span className="dt-match-mark" aria-hidden="true">✓</span>}
        {r + 1}
        {props.matched && <span className="dt-sr"> (found by the bench)</span>}
        {rowProblemId && <span id={rowProblemId} className="dt-sr">{`Problem: ${props.rowProblems!.join('; ')}`}</span>}
      </div>
      {props.virtualCols.map((vc) => {
        const c = vc.index;
        const column = columns[c]!;
        const isKey = column.alias === props.primaryKey;
        const problem = isKey ? props.keyProblem : undefined;
        const idText = `${props.gridId}-r${r}-c${c}`;
        const text = cellText(row[column.alias]);
        const editing = props.inlineEdit && props.inlineEdit.pos.col === c ? props.inlineEdit : null;
        return (
          <div key={vc.key} id={idText} role="gridcell" aria-colindex={c + 2}
            aria-selected={c >= props.selLeft && c <= props.selRight}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem && !editing ? `${idText}-d` : undefined}
            aria-readonly={props.readOnly || undefined}
            className={`dt-cell${isKey ? ' lk-key-cell' : ''}${c >= props.selLeft && c <= props.selRight ? ' dt-selected' : ''}${props.activeCol === c ? ' dt-active' : ''}${problem ? ' dt-has-problem' : ''}`}
            style={{ left: vc.start, width: vc.size, height: ROW_HEIGHT }}
            title={[text, problem].filter(Boolean).join('\n') || undefined}
            onMouseDown={(e) => events.onCellMouseDown(e, { row: r, col: c })}
            onDoubleClick={() => events.onCellDoubleClick({ row: r, col: c })}>
            {editing ? (
              <InlineEditor
                initial={editing.text}
                label={`Edit ${column.name} in row ${r + 1}`}
                check={isKey ? (typed) => keyProblem(props.keys, r, typed) : undefined}
                describedBy={`${idText}-live`}
                onCommit={(value, move) => events.onCommitInline({ row: r, col: c }, value, move)}
                onCancel={events.onCancelInline}
              />
            ) : (
              <span className="dt-cell-text">{text}</span>
            )}
            {problem && !editing && <span id={`${idText}-d`} className="dt-sr">{`Problem: ${problem}`}</span>}
          </div>
        );
      })}
    </div>
  );
});

/** The cell's one-line editor. With `check` (the key column) each keystroke is checked and the problem shown under the cell and announced. */
function InlineEditor(props: { initial: string; label: string; check?: (text: string) => string | undefined; describedBy: string; onCommit(text: string, move: 'down' | 'right' | 'left' | 'none'): void; onCancel(): void }) {
  const done = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(props.initial);
  const problem = props.check?.(text);
  // The message goes under the cell in a portal: grid cells clip what they hold.
  const [at, setAt] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const rect = input.current?.getBoundingClientRect();
    if (rect) setAt({ left: rect.left, top: rect.bottom + 2 });
  }, [problem]);
  const finish = (value: string, move: 'down' | 'right' | 'left' | 'none') => {
    if (done.current) return;
    done.current = true;
    props.onCommit(value, move);
  };
  return (
    <>
      <input
        ref={input}
        className={`dt-inline${problem ? ' lk-inline-invalid' : ''}`}
        aria-label={props.label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? props.describedBy : undefined}
        value={text}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onFocus={(e) => {
          const len = e.currentTarget.value.length;
          e.currentTarget.setSelectionRange(len, len);
        }}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') {
            e.preventDefault();
            finish(text, 'down');
          } else if (e.key === 'Tab') {
            e.preventDefault();
            finish(text, e.shiftKey ? 'left' : 'right');
          } else if (e.key === 'Escape') {
            e.preventDefault();
            done.current = true;
            props.onCancel();
          }
        }}
        onBlur={() => finish(text, 'none')}
      />
      {problem && createPortal(
        <span id={props.describedBy} role="status" className="lk-live-problem" style={at ?? undefined}>{problem}</span>,
        document.body,
      )}
    </>
  );
}
