// A decision graph's table node in the table designer's grid (designer/Grid.tsx), in the canvas's place: its
// inputs and outputs as columns, its rules as rows, each cell its ZEN text. Typing on a cell replaces its text;
// Enter, F2 or a double-click opens the cell in the ZEN expression editor (a unary test under an input with a
// field, a whole expression otherwise). Rows and columns are added, moved and deleted with the table designer's
// own operations on the grid document (graph/model/table.ts reads and writes the JDM content). The flow
// designer's Undo and Redo cover every edit; the last bench run marks the rows the table matched.
import { useId, useMemo, useRef, useState } from 'react';
import '../designer/designer.css';
import { Grid } from '../designer/Grid.tsx';
import type { GridHandle } from '../designer/Grid.tsx';
import { addColumn, bindColumn, cellValueOf, columnBinding, columnKind, columnName, columnTitle, deleteColumn, deleteRows, duplicateRows, insertRows, moveColumn, moveRows, renameColumn, setCellValue, tableOf } from '../designer/model/table.ts';
import type { ColumnKind, Rule } from '../designer/model/table.ts';
import { cellSelection, clampSelection, rangeOf, rangeRows } from '../designer/model/selection.ts';
import type { CellPos, Range, Selection } from '../designer/model/selection.ts';
import { parseTsv, serialiseTsv } from '../designer/model/tsv.ts';
import { Dialog } from '../ui/Dialog.tsx';
import type { NodeViewProps } from '../flow/extension.ts';
import { isRecord } from '../flow/model/format.ts';
import { pathInNode } from '../flow/model/problems.ts';
import { updateNode } from '../flow/model/graph.ts';
import { ZenField } from './GraphNodeFields.tsx';
import { blockText, cellTextOf, gridToTable, matchedRows, tableProblems, tableToGrid, writeBlock } from './model/table.ts';

export function TableNodeEditor(props: NodeViewProps) {
  const { node, readOnly } = props;
  const content: Record<string, any> = useMemo(() => (isRecord(node.data) ? node.data : {}), [node.data]);
  const grid = useMemo(() => tableToGrid(content), [content]);
  const { columns, rows } = tableOf(grid);
  const size = { rows: rows.length, cols: columns.length };
  const gridId = `gt${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const handle = useRef<GridHandle>(null);
  const [selectionState, setSelection] = useState<Selection>(cellSelection(0, 0));
  const selection = clampSelection(selectionState, size);
  const range = rangeOf(selection);
  const [inlineEdit, setInlineEdit] = useState<{ pos: CellPos; text: string } | null>(null);
  const [cellEditor, setCellEditor] = useState<{ pos: CellPos; text: string } | null>(null);
  const [columnDialog, setColumnDialog] = useState<{ index: number; name: string; field: string } | null>(null);
  const [status, setStatus] = useState('');

  const problems = useMemo(() => tableProblems(content, props.problems, pathInNode), [content, props.problems]);
  const matched = props.run?.runs.find((r) => r.traceData !== undefined)?.traceData;
  const trace = useMemo(() => (props.run?.status === 'ran' ? matchedRows(content, matched) : undefined), [content, matched, props.run?.status]);

  /** A grid edit written back into the node's content. */
  const apply = (next: Rule, message = '', coalesceKey?: string) => {
    props.onGraph(updateNode(props.graph, node.id, { data: gridToTable(content, next) }), coalesceKey);
    setStatus(message);
  };
  const focusGrid = () => requestAnimationFrame(() => handle.current?.focus());
  const setCell = (pos: CellPos, text: string) => {
    const column = columns[pos.col];
    if (column === undefined || pos.row >= rows.length) return;
    if (text !== cellTextOf(cellValueOf(rows[pos.row], column))) apply(setCellValue(grid, pos.row, pos.col, text), `Row ${pos.row + 1}, ${columnTitle(column)} set`);
  };

  const selectedRows = rangeRows(range).filter((r) => r < rows.length);
  const rowsLabel = selectedRows.length > 1 ? `${selectedRows.length} rows` : 'row';
  const active = selection.focus.col;
  const addColumnOf = (kind: ColumnKind) => {
    const count = columns.filter((c: unknown) => columnKind(c) === kind).length + 1;
    const added = addColumn(grid, kind, { name: kind === 'input' ? `Input ${count}` : `Output ${count}`, binding: kind === 'output' ? `output${count}` : '' });
    apply(added.rule, `${kind === 'input' ? 'Input' : 'Output'} column added`);
    setSelection(cellSelection(selection.focus.row, added.index));
    setColumnDialog({ index: added.index, name: columnName(tableOf(added.rule).columns[added.index]), field: columnBinding(tableOf(added.rule).columns[added.index]) });
  };
  const openColumn = (index: number) => {
    const column = columns[index];
    if (column !== undefined && !readOnly) setColumnDialog({ index, name: columnName(column), field: columnBinding(column) });
  };
  const editorColumn = cellEditor ? columns[cellEditor.pos.col] : undefined;

  return (
    <div className="graph-table" aria-label={`Table ${node.name ?? ''}`} role="region">
      <div className="dt-designer graph-table-body">
        <div className="dt-toolbar" role="toolbar" aria-label="Table actions">
          <button type="button" onClick={props.onClose}>Back to graph</button>
          <div className="dt-group" role="group" aria-label="Rows">
            <button type="button" className="dt-primary" disabled={readOnly} onClick={() => {
              apply(insertRows(grid, rows.length, 1), `Row ${rows.length + 1} added`);
              setSelection(cellSelection(rows.length, Math.min(selection.focus.col, Math.max(0, columns.length - 1))));
            }}>Add row</button>
            <button type="button" disabled={readOnly || rows.length === 0} aria-label="Insert row above" onClick={() => apply(insertRows(grid, range.top, 1), `Row inserted at ${range.top + 1}`)}>Insert above</button>
            <button type="button" disabled={readOnly || selectedRows.length === 0} aria-label={`Duplicate ${rowsLabel}`} onClick={() => apply(duplicateRows(grid, selectedRows), `${selectedRows.length} row(s) duplicated`)}>Duplicate</button>
            <button type="button" disabled={readOnly || selectedRows.length === 0 || range.top === 0} aria-label={`Move ${rowsLabel} up`} onClick={() => moveSelected(-1)}>↑</button>
            <button type="button" disabled={readOnly || selectedRows.length === 0 || range.bottom >= rows.length - 1} aria-label={`Move ${rowsLabel} down`} onClick={() => moveSelected(1)}>↓</button>
            <button type="button" className="dt-danger" disabled={readOnly || selectedRows.length === 0} aria-label={`Delete ${rowsLabel}`} onClick={() => {
              apply(deleteRows(grid, selectedRows), `${selectedRows.length} row(s) deleted`);
              setSelection(cellSelection(Math.max(0, range.top - 1), selection.focus.col));
            }}>Delete</button>
          </div>
          <div className="dt-group" role="group" aria-label="Columns">
            <button type="button" className="dt-kind-input-btn" disabled={readOnly} aria-label="Add input column" onClick={() => addColumnOf('input')}>+ Input</button>
            <button type="button" className="dt-kind-output-btn" disabled={readOnly} aria-label="Add output column" onClick={() => addColumnOf('output')}>+ Output</button>
            <button type="button" disabled={readOnly || columns.length === 0} aria-label="Edit column" onClick={() => openColumn(active)}>Column…</button>
            <button type="button" disabled={readOnly || active <= 0 || columnKind(columns[active]) !== columnKind(columns[active - 1])} aria-label="Move column left" onClick={() => moveCol(-1)}>←</button>
            <button type="button" disabled={readOnly || active >= columns.length - 1 || columnKind(columns[active]) !== columnKind(columns[active + 1])} aria-label="Move column right" onClick={() => moveCol(1)}>→</button>
          </div>
          <span className="muted small">{content.hitPolicy === 'collect' ? 'Collect: every matching row answers' : 'First hit: the first matching row answers'}</span>
        </div>
        {problems.count > 0 && (
          <div className="flow-problems" role="alert" aria-label="Problems in the table">
            <strong>{problems.count} problem{problems.count === 1 ? '' : 's'} found by the server</strong>
            <ul>
              {[...problems.cells].map(([key, messages]) => {
                const [r, c] = key.split(':').map(Number) as [number, number];
                return <li key={key}>Row {r + 1}, {columns[c] ? columnTitle(columns[c]) : `column ${c + 1}`}: {messages.join('; ')}</li>;
              })}
              {[...problems.rows].map(([r, messages]) => <li key={`r${r}`}>Row {r + 1}: {messages.join('; ')}</li>)}
              {[...problems.columns].map(([c, messages]) => <li key={`c${c}`}>Column {columns[c] ? columnTitle(columns[c]) : c + 1}: {messages.join('; ')}</li>)}
              {problems.other.map((p, i) => <li key={`o${i}`}><code>{pathInNode(p.path)}</code> {p.message}</li>)}
            </ul>
          </div>
        )}
        {trace && (
          <div className="dt-trace-legend" role="note">
            Bench run: {trace.matched.size === 0 ? 'no row matched' : `row${trace.matched.size === 1 ? '' : 's'} ${[...trace.matched].map((r) => r + 1).join(', ')} matched`}.
            <span className="dt-legend dt-legend-match">matched row</span>
          </div>
        )}
        <Grid
          ref={handle}
          id={gridId}
          rule={grid}
          selection={selection}
          readOnly={readOnly}
          problems={problems}
          trace={trace}
          textCells
          inlineEdit={inlineEdit}
          onSelect={setSelection}
          onOpenEditor={(pos) => {
            if (readOnly || pos.row >= rows.length || pos.col >= columns.length) return;
            setSelection(cellSelection(pos.row, pos.col));
            setCellEditor({ pos, text: cellTextOf(cellValueOf(rows[pos.row], columns[pos.col])) });
          }}
          onStartInline={(pos, text) => setInlineEdit({ pos, text })}
          onCommitInline={(pos, text, move) => {
            setInlineEdit(null);
            setCell(pos, text);
            if (move !== 'none') {
              const next = move === 'down' ? { row: Math.min(rows.length - 1, pos.row + 1), col: pos.col } : { row: pos.row, col: Math.max(0, Math.min(columns.length - 1, pos.col + (move === 'right' ? 1 : -1))) };
              setSelection(cellSelection(next.row, next.col));
            }
            focusGrid();
          }}
          onCancelInline={() => {
            setInlineEdit(null);
            focusGrid();
          }}
          onClear={(r: Range) => apply(writeBlock(grid, { row: r.top, col: r.left }, blockText(grid, r), true), 'Cleared')}
          onCopy={(r: Range) => serialiseTsv(blockText(grid, r))}
          onCut={(r: Range) => {
            const text = serialiseTsv(blockText(grid, r));
            apply(writeBlock(grid, { row: r.top, col: r.left }, blockText(grid, r), true), 'Cut');
            return text;
          }}
          onPaste={(text) => {
            const block = parseTsv(text);
            if (block.length > 0) apply(writeBlock(grid, { row: range.top, col: range.left }, block), `Pasted ${block.length} row(s)`);
          }}
          onUndo={() => undefined}
          onRedo={() => undefined}
          onEditColumn={openColumn}
          onMoveRows={moveSelected}
        />
        <div className="dt-statusbar">
          <span>{rows.length} rows · {columns.length} columns</span>
          <span role="status" aria-live="polite" className="dt-status-message">{status}</span>
        </div>
      </div>

      <Dialog className="graph-cell-dialog" title={editorColumn ? `Edit ${columnTitle(editorColumn)} in row ${(cellEditor?.pos.row ?? 0) + 1}` : 'Edit cell'} open={cellEditor !== null && editorColumn !== undefined}
        onClose={() => { setCellEditor(null); focusGrid(); }}>
        {cellEditor && editorColumn !== undefined && (
          <div className="dialog-body">
            <p className="muted small">
              {columnKind(editorColumn) === 'input' && columnBinding(editorColumn)
                ? <>A test of <code>{columnBinding(editorColumn)}</code> as <code>$</code>: <code>&gt; 5</code>, <code>"gold", "silver"</code>, <code>[1..10]</code>; empty holds for any value.</>
                : columnKind(editorColumn) === 'input' ? 'A ZEN expression that is true when the row applies; empty holds always.' : 'A ZEN expression whose value the row writes.'}
            </p>
            <ZenField label="Cell expression" value={cellEditor.text} readOnly={readOnly} unary={columnKind(editorColumn) === 'input' && columnBinding(editorColumn) !== ''}
              onChange={(text) => setCellEditor({ ...cellEditor, text })} />
            <div className="dialog-actions">
              <button type="button" className="btn" onClick={() => { setCellEditor(null); focusGrid(); }}>Cancel</button>
              <button type="button" className="btn btn-primary" onClick={() => { setCell(cellEditor.pos, cellEditor.text); setCellEditor(null); focusGrid(); }}>Apply</button>
            </div>
          </div>
        )}
      </Dialog>

      <Dialog title={columnDialog && columns[columnDialog.index] ? `${columnKind(columns[columnDialog.index]) === 'input' ? 'Input' : 'Output'} column ${columnDialog.index + 1}` : 'Column'}
        open={columnDialog !== null && columns[columnDialog.index] !== undefined} onClose={() => { setColumnDialog(null); focusGrid(); }}>
        {columnDialog && columns[columnDialog.index] !== undefined && (
          <form className="dialog-body" onSubmit={(e) => {
            e.preventDefault();
            apply(bindColumn(renameColumn(grid, columnDialog.index, columnDialog.name), columnDialog.index, columnDialog.field.trim()), 'Column changed');
            setColumnDialog(null);
            focusGrid();
          }}>
            <label className="field"><span>Column name</span>
              <input value={columnDialog.name} onChange={(e) => setColumnDialog({ ...columnDialog, name: e.target.value })} />
            </label>
            <label className="field"><span>{columnKind(columns[columnDialog.index]) === 'input' ? 'Input field' : 'Output field'}</span>
              <input value={columnDialog.field} placeholder={columnKind(columns[columnDialog.index]) === 'input' ? 'customer.tier (empty: cells are whole expressions)' : 'discount'}
                onChange={(e) => setColumnDialog({ ...columnDialog, field: e.target.value })} />
            </label>
            <div className="dialog-actions">
              <button type="button" className="btn btn-danger" onClick={() => {
                apply(deleteColumn(grid, columnDialog.index), `Column ${columnTitle(columns[columnDialog.index])} deleted`);
                setColumnDialog(null);
                focusGrid();
              }}>Delete column</button>
              <button type="button" className="btn" onClick={() => { setColumnDialog(null); focusGrid(); }}>Cancel</button>
              <button type="submit" className="btn btn-primary" disabled={columnKind(columns[columnDialog.index]) === 'output' && columnDialog.field.trim() === ''}>Apply</button>
            </div>
          </form>
        )}
      </Dialog>
    </div>
  );

  function moveSelected(delta: number) {
    const moved = moveRows(grid, range.top, selectedRows.length, delta);
    apply(moved.rule);
    const shift = moved.start - range.top;
    setSelection({ anchor: { row: selection.anchor.row + shift, col: selection.anchor.col }, focus: { row: selection.focus.row + shift, col: selection.focus.col } });
  }

  function moveCol(delta: number) {
    apply(moveColumn(grid, active, active + delta));
    setSelection(cellSelection(selection.focus.row, active + delta));
  }
}
