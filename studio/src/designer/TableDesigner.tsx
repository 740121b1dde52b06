// The table designer: toolbar, grid, cell and column editors, model editors, problems and bench trace. Owns the
// undo stack and the selection; every edit produces a new rule document passed to onChange.
import { useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import './designer.css';
import { Grid } from './Grid.tsx';
import type { GridHandle } from './Grid.tsx';
import { CellEditor } from './CellEditor.tsx';
import { ColumnEditor } from './ColumnEditor.tsx';
import { ModelEditor } from './ModelEditor.tsx';
import { moveBetweenTabs } from './tabs.ts';
import {
  addColumn,
  addRow,
  bindColumn,
  cellValueOf,
  columnBinding,
  columnKind,
  columnTitle,
  deleteColumn,
  deleteRows,
  duplicateRows,
  insertRows,
  isRowActive,
  moveColumn,
  moveRows,
  renameColumn,
  setCellValue,
  setRowsActive,
  setValidValues,
  columnValidValues,
  tableOf,
} from './model/table.ts';
import type { ColumnKind } from './model/table.ts';
import { cellFromText, cellText } from './model/cells.ts';
import { clearBlock, copyBlock, pasteText } from './model/clipboard.ts';
import { useDocumentHistory } from './useDocumentHistory.ts';
import { cellSelection, clampSelection, rangeOf, rangeRows } from './model/selection.ts';
import type { CellPos, Range, Selection } from './model/selection.ts';
import { columnWords, locateOutsideValues, locateProblems, splitDetail } from './model/problems.ts';
import type { Problem } from './model/problems.ts';
import { readTrace } from './model/trace.ts';
import { addPaths, leafPaths } from './model/schema.ts';
import { modelGaps } from './model/coverage.ts';
import type { ModelSide } from './model/coverage.ts';
import { addedText, ModelGapsNotice } from './ModelGapsNotice.tsx';
import type { Schema } from './model/schema.ts';

export interface TableDesignerProps {
  rule: any;
  onChange(next: any): void;
  problems: Problem[];
  trace?: unknown;
  readOnly?: boolean;
}

type Tab = 'table' | 'input' | 'output';

const SHORTCUTS: readonly [string, string][] = [
  ['Arrows, Home/End, PgUp/PgDn', 'move (Ctrl: to the edge)'],
  ['Shift + move or click', 'select a block'],
  ['Tab / Shift+Tab', 'next / previous cell'],
  ['Enter, F2, double-click', 'edit the cell (operator, value, expression)'],
  ['Typing', 'replace the cell text (e.g. > 5, IN a|b, BTW [1, 9], fx SUM(1,2))'],
  ['Esc', 'cancel the edit'],
  ['Delete', 'clear the selected cells'],
  ['Alt+↑ / Alt+↓', 'move the selected rows'],
  ['Ctrl+C / X / V', 'copy, cut, paste (tab-separated, to and from spreadsheets)'],
  ['Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y', 'undo, redo'],
  ['Ctrl+A', 'select all cells'],
];

function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable;
}

export function TableDesigner(props: TableDesignerProps) {
  const readOnly = !!props.readOnly;
  const gridId = `dt${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const grid = useRef<GridHandle>(null);
  const history = useDocumentHistory(props.rule, props.onChange, readOnly);
  const rule = history.present;
  const { columns, rows } = tableOf(rule);
  const size = { rows: rows.length, cols: columns.length };

  const [selectionState, setSelection] = useState<Selection>(cellSelection(0, 0));
  const selection = clampSelection(selectionState, size);
  const range = rangeOf(selection);
  const [inlineEdit, setInlineEdit] = useState<{ pos: CellPos; text: string } | null>(null);
  const [cellEditor, setCellEditor] = useState<{ pos: CellPos; anchor: DOMRect | undefined } | null>(null);
  const [columnDialog, setColumnDialog] = useState<number | null>(null);
  const [tab, setTab] = useState<Tab>('table');
  const [status, setStatus] = useState('');

  const problemIndex = useMemo(() => locateProblems(rule, props.problems ?? []), [rule, props.problems]);
  const outsideValues = useMemo(() => locateOutsideValues(rule), [rule]);
  const trace = useMemo(() => (props.trace === undefined ? undefined : readTrace(rule, props.trace)), [rule, props.trace]);
  const inputPaths = useMemo(() => leafPaths(rule?.inputSchema), [rule?.inputSchema]);
  const outputPaths = useMemo(() => leafPaths(rule?.outputSchema), [rule?.outputSchema]);
  const variables = useMemo(() => {
    const names = new Set<string>(inputPaths);
    for (const c of columns) if (columnKind(c) !== 'input' && columnBinding(c)) names.add(columnBinding(c));
    for (const v of Array.isArray(rule?.userVariables) ? rule.userVariables : []) if (typeof v?.name === 'string') names.add(v.name);
    return [...names].sort();
  }, [inputPaths, columns, rule?.userVariables]);

  const apply = history.apply;

  // ---- models: the paths the columns use that the models lack ----
  const gaps = useMemo(() => modelGaps(rule), [rule]);
  /** What the last "Add N paths" added and where, while no other edit came after it (its Undo undoes that edit). */
  const [addedPaths, setAddedPaths] = useState<{ place: Tab; text: string; document: unknown } | null>(null);
  const schemaKey = (side: ModelSide) => (side === 'input' ? 'inputSchema' : 'outputSchema');
  const onAddModelPaths = (place: Tab) => {
    const sides = place === 'table' ? (['input', 'output'] as const) : [place];
    let next = rule;
    for (const side of sides) if (gaps[side].length > 0) next = { ...next, [schemaKey(side)]: addPaths(next?.[schemaKey(side)], gaps[side]) };
    apply(next);
    setAddedPaths({ place, text: addedText(place, gaps), document: next });
  };
  const gapsNotice = (place: Tab) => (
    <ModelGapsNotice
      place={place}
      gaps={gaps}
      added={addedPaths?.place === place && addedPaths.document === rule ? addedPaths.text : null}
      readOnly={readOnly}
      onAdd={() => onAddModelPaths(place)}
      onUndo={() => {
        step('undo');
        setAddedPaths(null);
      }}
    />
  );

  const step = (direction: 'undo' | 'redo') => {
    if (history.step(direction)) setStatus(direction === 'undo' ? 'Undone' : 'Redone');
  };

  const focusGrid = () => requestAnimationFrame(() => grid.current?.focus());
  const selectCell = (pos: CellPos) => {
    setSelection(cellSelection(pos.row, pos.col));
    grid.current?.scrollToCell(pos);
  };

  // ---- row operations ----
  const selectedRows = rangeRows(range).filter((r) => r < rows.length);
  const rowCount = selectedRows.length;
  const rowsLabel = rowCount > 1 ? `${rowCount} rows` : 'row';
  const onAddRow = () => {
    apply(addRow(rule));
    const pos = { row: rows.length, col: Math.min(selection.focus.col, Math.max(0, columns.length - 1)) };
    setSelection(cellSelection(pos.row, pos.col));
    requestAnimationFrame(() => grid.current?.scrollToCell(pos));
    setStatus(`Row ${rows.length + 1} added`);
  };
  const onInsertRow = (where: 'above' | 'below') => {
    const at = where === 'above' ? range.top : Math.min(rows.length, range.bottom + 1);
    apply(insertRows(rule, at, 1));
    setSelection(cellSelection(at, selection.focus.col));
    setStatus(`Row inserted at ${at + 1}`);
  };
  const onDuplicate = () => {
    apply(duplicateRows(rule, selectedRows));
    const start = range.bottom + 1;
    setSelection({ anchor: { row: start, col: range.left }, focus: { row: start + rowCount - 1, col: range.right } });
    setStatus(`${rowCount} row(s) duplicated`);
  };
  const onDeleteRows = () => {
    apply(deleteRows(rule, selectedRows));
    setSelection(cellSelection(Math.max(0, Math.min(range.top, rows.length - rowCount - 1)), selection.focus.col));
    setStatus(`${rowCount} row(s) deleted`);
  };
  const onMoveRows = (delta: number) => {
    const moved = moveRows(rule, range.top, rowCount, delta);
    apply(moved.rule);
    const shift = moved.start - range.top;
    setSelection({ anchor: { row: selection.anchor.row + shift, col: selection.anchor.col }, focus: { row: selection.focus.row + shift, col: selection.focus.col } });
    grid.current?.scrollToCell({ row: selection.focus.row + shift, col: selection.focus.col });
  };
  const onSetActive = (active: boolean) => {
    apply(setRowsActive(rule, selectedRows, active));
    setStatus(`${rowCount} row(s) ${active ? 'activated' : 'deactivated'}`);
  };
  const anyInactive = selectedRows.some((r) => !isRowActive(rows[r]));
  const anyActive = selectedRows.some((r) => isRowActive(rows[r]));

  // ---- column operations ----
  const onAddColumn = (kind: ColumnKind) => {
    const name = kind === 'input' ? 'Condition' : kind === 'calc' ? 'Calculation' : 'Result';
    const binding = kind === 'calc' ? `calc${columns.filter((c: unknown) => columnKind(c) === 'calc').length + 1}` : '';
    const added = addColumn(rule, kind, { name, binding });
    apply(added.rule);
    setSelection(cellSelection(selection.focus.row, added.index));
    setColumnDialog(added.index);
  };
  const activeCol = selection.focus.col;
  const onMoveColumn = (index: number, delta: number) => {
    const target = index + delta;
    if (target < 0 || target >= columns.length) return;
    apply(moveColumn(rule, index, target));
    setSelection(cellSelection(selection.focus.row, target));
    if (columnDialog !== null) setColumnDialog(target);
  };
  const onDeleteColumn = (index: number) => {
    const title = columnTitle(columns[index]);
    apply(deleteColumn(rule, index));
    setColumnDialog(null);
    setSelection(cellSelection(selection.focus.row, Math.max(0, Math.min(index, columns.length - 2))));
    setStatus(`Column ${title} deleted`);
    focusGrid();
  };

  // ---- cells ----
  const commitInline = (pos: CellPos, text: string, move: 'down' | 'right' | 'left' | 'none') => {
    setInlineEdit(null);
    const column = columns[pos.col];
    if (column !== undefined && pos.row < rows.length) {
      const before = cellText(cellValueOf(rows[pos.row], column), columnKind(column));
      if (text !== before) apply(setCellValue(rule, pos.row, pos.col, cellFromText(text, columnKind(column))));
    }
    if (move !== 'none') {
      const next =
        move === 'down'
          ? { row: Math.min(rows.length - 1, pos.row + 1), col: pos.col }
          : { row: pos.row, col: Math.max(0, Math.min(columns.length - 1, pos.col + (move === 'right' ? 1 : -1))) };
      selectCell(next);
    }
    focusGrid();
  };
  const openEditor = (pos: CellPos) => {
    if (readOnly || pos.row >= rows.length || pos.col >= columns.length) return;
    setSelection(cellSelection(pos.row, pos.col));
    grid.current?.scrollToCell(pos);
    requestAnimationFrame(() => setCellEditor({ pos, anchor: grid.current?.cellRect(pos) }));
  };
  const onPaste = (text: string) => {
    const result = pasteText(rule, range, text);
    if (!result) return;
    apply(result.rule);
    setSelection({ anchor: { row: result.range.top, col: result.range.left }, focus: { row: result.range.bottom, col: result.range.right } });
    const pastedRows = result.range.bottom - result.range.top + 1;
    setStatus(
      `Pasted ${pastedRows} row(s)${result.createdRows ? `, ${result.createdRows} new` : ''}${result.droppedFields ? `; ${result.droppedFields} value(s) right of the last column were left out` : ''}`,
    );
  };

  const onRootKeyDown = (e: ReactKeyboardEvent) => {
    if (isEditable(e.target) || (e.target as HTMLElement).getAttribute?.('role') === 'grid') return;
    if ((e.target as HTMLElement).closest?.('.cm-editor, [role="dialog"]')) return;
    if (!(e.ctrlKey || e.metaKey)) return;
    const key = e.key.toLowerCase();
    if (key === 'z') {
      e.preventDefault();
      step(e.shiftKey ? 'redo' : 'undo');
    } else if (key === 'y') {
      e.preventDefault();
      step('redo');
    }
  };

  const problemEntries = useMemo(() => {
    // Each entry says where in words; the path inside the cell (`outputScalarValue.stringValue`) is only its title.
    const out: { label: string; message: string; field?: string; pos?: CellPos }[] = [];
    for (const [key, messages] of problemIndex.cells) {
      const [r, c] = key.split(':').map(Number) as [number, number];
      for (const m of messages) out.push({ label: `Row ${r + 1}, ${columnWords(columns[c])}`, ...splitDetail(m), pos: { row: r, col: c } });
    }
    for (const [r, messages] of problemIndex.rows) for (const m of messages) out.push({ label: `Row ${r + 1}`, ...splitDetail(m), pos: { row: r, col: 0 } });
    for (const [c, messages] of problemIndex.columns) {
      for (const m of messages) out.push({ label: columns[c] ? columnWords(columns[c]).replace(/^c/, 'C') : `Column ${c + 1}`, ...splitDetail(m), pos: { row: 0, col: c } });
    }
    for (const p of problemIndex.other) out.push({ label: p.path || 'Rule', message: p.message });
    return out;
  }, [problemIndex, columns]);

  const editorColumn = cellEditor ? columns[cellEditor.pos.col] : undefined;
  const dialogColumn = columnDialog !== null ? columns[columnDialog] : undefined;

  return (
    <div className="dt-designer" onKeyDown={onRootKeyDown}>
      <div className="dt-tabs dt-main-tabs" role="tablist" aria-label="Designer view" onKeyDown={moveBetweenTabs}>
        {(
          [
            ['table', 'Table'],
            ['input', 'Input model'],
            ['output', 'Output model'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`${gridId}-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`${gridId}-panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => {
              setTab(id);
              setAddedPaths(null);
            }}
          >
            {label}
          </button>
        ))}
      </div>

      {tab === 'table' ? (
        <div id={`${gridId}-panel-table`} role="tabpanel" aria-labelledby={`${gridId}-tab-table`} className="dt-panel">
          <div className="dt-toolbar" role="toolbar" aria-label="Table actions">
            <div className="dt-group" role="group" aria-label="History">
              <button type="button" onClick={() => step('undo')} disabled={readOnly || !history.canUndo} title="Undo (Ctrl+Z)">
                Undo
              </button>
              <button type="button" onClick={() => step('redo')} disabled={readOnly || !history.canRedo} title="Redo (Ctrl+Shift+Z, Ctrl+Y)">
                Redo
              </button>
            </div>
            <div className="dt-group" role="group" aria-label="Rows">
              <button type="button" className="dt-primary" onClick={onAddRow} disabled={readOnly || columns.length === 0}>
                Add row
              </button>
              <button type="button" onClick={() => onInsertRow('above')} disabled={readOnly || columns.length === 0} aria-label="Insert row above">
                Insert above
              </button>
              <button type="button" onClick={() => onInsertRow('below')} disabled={readOnly || columns.length === 0} aria-label="Insert row below">
                Insert below
              </button>
              <button type="button" onClick={onDuplicate} disabled={readOnly || rowCount === 0} aria-label={`Duplicate ${rowsLabel}`}>
                Duplicate
              </button>
              <button type="button" onClick={() => onMoveRows(-1)} disabled={readOnly || rowCount === 0 || range.top === 0} aria-label={`Move ${rowsLabel} up`}>
                ↑
              </button>
              <button type="button" onClick={() => onMoveRows(1)} disabled={readOnly || rowCount === 0 || range.bottom >= rows.length - 1} aria-label={`Move ${rowsLabel} down`}>
                ↓
              </button>
              <button type="button" onClick={() => onSetActive(false)} disabled={readOnly || !anyActive} aria-label={`Deactivate ${rowsLabel}`}>
                Deactivate
              </button>
              <button type="button" onClick={() => onSetActive(true)} disabled={readOnly || !anyInactive} aria-label={`Activate ${rowsLabel}`}>
                Activate
              </button>
              <button type="button" className="dt-danger" onClick={onDeleteRows} disabled={readOnly || rowCount === 0} aria-label={`Delete ${rowsLabel}`}>
                Delete
              </button>
            </div>
            <div className="dt-group" role="group" aria-label="Columns">
              <button type="button" className="dt-kind-input-btn" onClick={() => onAddColumn('input')} disabled={readOnly} aria-label="Add condition column">
                + Condition
              </button>
              <button type="button" className="dt-kind-calc-btn" onClick={() => onAddColumn('calc')} disabled={readOnly} aria-label="Add calculation column">
                + Calculation
              </button>
              <button type="button" className="dt-kind-output-btn" onClick={() => onAddColumn('output')} disabled={readOnly} aria-label="Add result column">
                + Result
              </button>
              <button type="button" onClick={() => setColumnDialog(activeCol)} disabled={readOnly || columns.length === 0} aria-label="Rename column">
                Rename
              </button>
              <button type="button" onClick={() => onMoveColumn(activeCol, -1)} disabled={readOnly || activeCol <= 0} aria-label="Move column left">
                ←
              </button>
              <button type="button" onClick={() => onMoveColumn(activeCol, 1)} disabled={readOnly || activeCol >= columns.length - 1} aria-label="Move column right">
                →
              </button>
              <button type="button" className="dt-danger" onClick={() => onDeleteColumn(activeCol)} disabled={readOnly || columns.length === 0} aria-label="Delete column">
                Delete column
              </button>
            </div>
          </div>

          {problemEntries.length > 0 && (
            <details className="dt-problems" open={problemEntries.length <= 5}>
              <summary>
                {problemEntries.length} problem{problemEntries.length === 1 ? '' : 's'} reported by validation
              </summary>
              <ul>
                {problemEntries.slice(0, 100).map((p, i) => (
                  <li key={i}>
                    {p.pos ? (
                      <button
                        type="button"
                        className="dt-link"
                        onClick={() => {
                          selectCell(p.pos!);
                          focusGrid();
                        }}
                      >
                        {p.label}
                      </button>
                    ) : (
                      <strong>{p.label}</strong>
                    )}
                    : <span title={p.field ? `In the document: ${p.field}` : undefined}>{p.message}</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
          {gapsNotice('table')}
          {trace && (
            <div className="dt-trace-legend" role="note">
              Bench trace: {trace.matched.size} matched row{trace.matched.size === 1 ? '' : 's'} of {trace.evaluated.size} evaluated.
              <span className="dt-legend dt-legend-match">matched row</span>
              <span className="dt-legend dt-legend-held">condition held</span>
              <span className="dt-legend dt-legend-failed">condition failed</span>
            </div>
          )}

          <Grid
            ref={grid}
            id={gridId}
            rule={rule}
            selection={selection}
            readOnly={readOnly}
            problems={problemIndex}
            warnings={outsideValues}
            modelGaps={gaps.columns}
            trace={trace}
            inlineEdit={inlineEdit}
            onSelect={setSelection}
            onOpenEditor={openEditor}
            onStartInline={(pos, text) => setInlineEdit({ pos, text })}
            onCommitInline={commitInline}
            onCancelInline={() => {
              setInlineEdit(null);
              focusGrid();
            }}
            onClear={(r: Range) => apply(clearBlock(rule, r))}
            onCopy={(r: Range) => {
              setStatus(`Copied ${r.bottom - r.top + 1} row(s)`);
              return copyBlock(rule, r);
            }}
            onCut={(r: Range) => {
              const text = copyBlock(rule, r);
              apply(clearBlock(rule, r));
              setStatus(`Cut ${r.bottom - r.top + 1} row(s)`);
              return text;
            }}
            onPaste={onPaste}
            onUndo={() => step('undo')}
            onRedo={() => step('redo')}
            onEditColumn={(c) => setColumnDialog(c)}
            onMoveRows={onMoveRows}
          />
          <div className="dt-statusbar">
            <details className="dt-shortcuts">
              <summary>Keyboard</summary>
              <dl>
                {SHORTCUTS.map(([keys, what]) => (
                  <div key={keys} style={{ display: 'contents' }}>
                    <dt>{keys}</dt>
                    <dd>{what}</dd>
                  </div>
                ))}
              </dl>
            </details>
            <span>
              {rows.length.toLocaleString()} rows · {columns.length} columns
              {columns.length > 0 && rows.length > 0 && ` · ${range.bottom - range.top + 1}×${range.right - range.left + 1} selected`}
            </span>
            <span role="status" aria-live="polite" className="dt-status-message">
              {status}
            </span>
          </div>
        </div>
      ) : (
        <div id={`${gridId}-panel-${tab}`} role="tabpanel" aria-labelledby={`${gridId}-tab-${tab}`} className="dt-panel">
          {gapsNotice(tab)}
          <ModelEditor
            key={tab}
            label={tab === 'input' ? 'Input model' : 'Output model'}
            schema={tab === 'input' ? rule?.inputSchema : rule?.outputSchema}
            readOnly={readOnly}
            onChange={(schema: Schema) => apply({ ...rule, [schemaKey(tab)]: schema }, { coalesceKey: `model:${tab}` })}
          />
        </div>
      )}

      {cellEditor && editorColumn !== undefined && cellEditor.pos.row < rows.length && (
        <CellEditor
          key={`${cellEditor.pos.row}:${cellEditor.pos.col}`}
          column={editorColumn}
          rowNumber={cellEditor.pos.row + 1}
          value={cellValueOf(rows[cellEditor.pos.row], editorColumn)}
          anchor={cellEditor.anchor}
          variables={variables}
          validValues={columnValidValues(editorColumn)}
          onApply={(value) => {
            apply(setCellValue(rule, cellEditor.pos.row, cellEditor.pos.col, value));
            setCellEditor(null);
            focusGrid();
          }}
          onCancel={() => {
            setCellEditor(null);
            focusGrid();
          }}
        />
      )}
      {dialogColumn !== undefined && columnDialog !== null && (
        <ColumnEditor
          key={columnDialog}
          column={dialogColumn}
          index={columnDialog}
          count={columns.length}
          inputPaths={inputPaths}
          outputPaths={outputPaths}
          onApply={(name, binding, validValues) => {
            apply(setValidValues(bindColumn(renameColumn(rule, columnDialog, name), columnDialog, binding), columnDialog, validValues));
            setColumnDialog(null);
            focusGrid();
          }}
          onMove={(delta) => onMoveColumn(columnDialog, delta)}
          onDelete={() => onDeleteColumn(columnDialog)}
          onClose={() => {
            setColumnDialog(null);
            focusGrid();
          }}
        />
      )}
    </div>
  );
}
