// The lookup-table designer: toolbar (undo/redo, rows, columns, CSV import and export), the key problems, the
// virtualized grid and a status bar. It edits a LookupModel (model.ts) with the table designer's undo stack and
// writes it into the rule document on every edit.
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import '../designer/designer.css';
import './lookup.css';
import type { DesignerProps } from '../kinds/types.ts';
import type { RuleDocument } from '../api/types.ts';
import { canRedo, canUndo, record, redo, reset, startHistory, undo } from '../designer/model/history.ts';
import type { History } from '../designer/model/history.ts';
import { cellSelection, clampSelection, rangeOf, rangeRows } from '../designer/model/selection.ts';
import type { CellPos, Range, Selection } from '../designer/model/selection.ts';
import { parseTsv, serialiseTsv } from '../designer/model/tsv.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { downloadText } from '../ui/states.tsx';
import { LookupGrid } from './LookupGrid.tsx';
import type { LookupGridHandle } from './LookupGrid.tsx';
import {
  addColumn, addRow, blockTexts, cellText, clearBlock, columnProblem, deleteColumn, deleteRows, keyIndex, keyProblems,
  locateProblems, pasteBlock, readLookup, renameColumn, setCell, setPrimaryKey, writeLookup,
} from './model.ts';
import type { LookupModel } from './model.ts';
import { importCsv, parseCsv, toCsv } from './csv.ts';
import type { CsvTable, ImportMode } from './csv.ts';

/** A parsed file waiting for the author to choose Replace or Append. */
interface PendingImport {
  file: string;
  csv: CsvTable;
  parseMs: number;
}

/** The row the bench's last lookup found: the lookup trace names the key and whether a row had it. */
function foundKey(trace: unknown): string | undefined {
  const entry = Array.isArray(trace) ? trace[0] : trace;
  if (!entry || typeof entry !== 'object') return undefined;
  const { found, primaryKey } = entry as { found?: unknown; primaryKey?: unknown };
  return found === true && primaryKey !== null && primaryKey !== undefined ? cellText(primaryKey) : undefined;
}

export function LookupDesigner(props: DesignerProps) {
  const readOnly = !!props.readOnly;
  const gridId = `lk${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const grid = useRef<LookupGridHandle>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [history, setHistory] = useState<History<LookupModel>>(() => startHistory(readLookup(props.rule)));
  const historyRef = useRef(history);
  historyRef.current = history;
  // The document this designer last handed out: anything else coming in is from outside (a restored draft,
  // a save, another version) and replaces the model.
  const emitted = useRef<RuleDocument>(props.rule);
  if (props.rule !== emitted.current) {
    emitted.current = props.rule;
    const fresh = reset(readLookup(props.rule));
    historyRef.current = fresh;
    setHistory(fresh);
  }
  const model = history.present;
  const { columns, rows } = model;
  const size = { rows: rows.length, cols: columns.length };

  const [selectionState, setSelection] = useState<Selection>(cellSelection(0, 0));
  const selection = clampSelection(selectionState, size);
  const range = rangeOf(selection);
  const [inlineEdit, setInlineEdit] = useState<{ pos: CellPos; text: string } | null>(null);
  const [columnDialog, setColumnDialog] = useState<number | null>(null);
  const [pending, setPending] = useState<PendingImport | null>(null);
  const [csvErrors, setCsvErrors] = useState<{ file: string; errors: string[] } | null>(null);
  const [status, setStatus] = useState('');

  const keys = useMemo(() => keyIndex(model), [model]);
  const problemsByRow = useMemo(() => keyProblems(model, keys), [model, keys]);
  const located = useMemo(() => locateProblems(model, props.problems ?? []), [model, props.problems]);
  const matchedKey = foundKey(props.trace);
  const matchedRow = matchedKey === undefined ? undefined : keys.get(matchedKey)?.[0];

  const apply = useCallback((next: LookupModel, options?: { coalesceKey?: string }) => {
    if (readOnly || next === historyRef.current.present) return;
    const h = record(historyRef.current, next, options);
    historyRef.current = h;
    setHistory(h);
    const doc = writeLookup(emitted.current, next);
    emitted.current = doc;
    props.onChange(doc);
  }, [readOnly, props]);

  const step = (direction: 'undo' | 'redo') => {
    if (readOnly) return;
    const h = direction === 'undo' ? undo(historyRef.current) : redo(historyRef.current);
    if (h === historyRef.current) return;
    historyRef.current = h;
    setHistory(h);
    const doc = writeLookup(emitted.current, h.present);
    emitted.current = doc;
    props.onChange(doc);
    setStatus(direction === 'undo' ? 'Undone' : 'Redone');
  };

  const focusGrid = () => requestAnimationFrame(() => grid.current?.focus());
  const selectCell = (pos: CellPos) => {
    setSelection(cellSelection(pos.row, pos.col));
    requestAnimationFrame(() => grid.current?.scrollToCell(pos));
  };

  // ---- rows ----
  const selectedRows = rangeRows(range).filter((r) => r < rows.length);
  const rowsLabel = selectedRows.length > 1 ? `${selectedRows.length} rows` : 'row';
  const onAddRow = () => {
    apply(addRow(model));
    selectCell({ row: rows.length, col: 0 });
    setStatus(`Row ${rows.length + 1} added: type its key`);
    focusGrid();
  };
  const onDeleteRows = () => {
    apply(deleteRows(model, selectedRows));
    setSelection(cellSelection(Math.max(0, Math.min(range.top, rows.length - selectedRows.length - 1)), selection.focus.col));
    setStatus(`${selectedRows.length} row(s) deleted`);
  };

  // ---- columns ----
  const activeCol = selection.focus.col;
  const onAddColumn = () => {
    const added = addColumn(model);
    apply(added.model);
    setSelection(cellSelection(selection.focus.row, added.index));
    setColumnDialog(added.index);
  };
  const onDeleteColumn = (index: number) => {
    try {
      const name = columns[index]!.name;
      apply(deleteColumn(model, index));
      setColumnDialog(null);
      setSelection(cellSelection(selection.focus.row, Math.max(0, Math.min(index, columns.length - 2))));
      setStatus(`Column ${name} deleted`);
    } catch (err) {
      setStatus(err instanceof Error ? err.message : String(err));
    }
  };

  // ---- cells ----
  const commitInline = (pos: CellPos, text: string, move: 'down' | 'right' | 'left' | 'none') => {
    setInlineEdit(null);
    apply(setCell(model, pos.row, pos.col, text));
    if (move !== 'none') {
      selectCell(move === 'down'
        ? { row: Math.min(rows.length - 1, pos.row + 1), col: pos.col }
        : { row: pos.row, col: Math.max(0, Math.min(columns.length - 1, pos.col + (move === 'right' ? 1 : -1))) });
    }
    focusGrid();
  };
  const onPaste = (text: string) => {
    const block = parseTsv(text);
    if (block.length === 0 || columns.length === 0) return;
    const result = pasteBlock(model, range.top, range.left, block);
    apply(result.model);
    const right = Math.min(columns.length - 1, range.left + Math.max(...block.map((l) => l.length)) - 1);
    setSelection({ anchor: { row: range.top, col: range.left }, focus: { row: range.top + block.length - 1, col: right } });
    setStatus(`Pasted ${block.length} row(s)${result.createdRows ? `, ${result.createdRows} new` : ''}${result.droppedFields ? `; ${result.droppedFields} value(s) right of the last column were left out` : ''}`);
  };

  // ---- CSV ----
  const runImport = (job: PendingImport, mode: ImportMode) => {
    const started = performance.now();
    const result = importCsv(model, job.csv, mode);
    setPending(null);
    if (!result.ok) {
      setCsvErrors({ file: job.file, errors: result.errors });
      return;
    }
    apply(result.value);
    setSelection(cellSelection(mode === 'append' ? rows.length : 0, 0));
    const ms = Math.round(job.parseMs + performance.now() - started);
    setStatus(`Imported ${job.csv.records.length.toLocaleString('en')} rows from ${job.file} (${mode === 'append' ? 'appended' : 'replaced the table'}) in ${ms} ms. Undo reverts the import.`);
    focusGrid();
  };
  const onFile = async (file: File) => {
    const started = performance.now();
    const parsed = parseCsv(await file.text());
    if (!parsed.ok) {
      setCsvErrors({ file: file.name, errors: parsed.errors });
      return;
    }
    const job = { file: file.name, csv: parsed.value, parseMs: performance.now() - started };
    // An empty table has nothing to keep: import at once. Otherwise the author chooses Replace or Append.
    if (rows.length === 0) runImport(job, 'replace');
    else setPending(job);
  };
  const onExport = () => {
    const name = String(props.rule.ruleAlias ?? props.rule.name ?? 'lookup-table').replace(/[^\w.-]+/g, '_');
    downloadText(`${name}.csv`, toCsv(model), 'text/csv;charset=utf-8');
    setStatus(`Exported ${rows.length.toLocaleString('en')} rows`);
  };

  const onRootKeyDown = (e: ReactKeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.tagName === 'INPUT' || target.getAttribute?.('role') === 'grid' || target.closest?.('dialog')) return;
    if (!(e.ctrlKey || e.metaKey)) return;
    const key = e.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      e.preventDefault();
      step(key === 'y' || e.shiftKey ? 'redo' : 'undo');
    }
  };

  let firstKeyProblem: number | undefined;
  for (const r of problemsByRow.keys()) if (firstKeyProblem === undefined || r < firstKeyProblem) firstKeyProblem = r;
  const serverProblems = [
    ...[...located.rows].map(([r, messages]) => ({ label: `Row ${r + 1}`, message: messages.join('; '), row: r as number | undefined })),
    ...located.other.map((p) => ({ label: p.path || 'Rule', message: p.message, row: undefined })),
  ];

  return (
    <div className="dt-designer lk-designer" onKeyDown={onRootKeyDown}>
      <div className="dt-toolbar" role="toolbar" aria-label="Lookup table actions">
        <div className="dt-group" role="group" aria-label="History">
          <button type="button" onClick={() => step('undo')} disabled={readOnly || !canUndo(history)} title="Undo (Ctrl+Z)">Undo</button>
          <button type="button" onClick={() => step('redo')} disabled={readOnly || !canRedo(history)} title="Redo (Ctrl+Shift+Z, Ctrl+Y)">Redo</button>
        </div>
        <div className="dt-group" role="group" aria-label="Rows">
          <button type="button" className="dt-primary" onClick={onAddRow} disabled={readOnly}>Add row</button>
          <button type="button" className="dt-danger" onClick={onDeleteRows} disabled={readOnly || selectedRows.length === 0} aria-label={`Delete ${rowsLabel}`}>Delete</button>
        </div>
        <div className="dt-group" role="group" aria-label="Columns">
          <button type="button" onClick={onAddColumn} disabled={readOnly}>Add column</button>
          <button type="button" onClick={() => setColumnDialog(activeCol)} disabled={readOnly || columns.length === 0} aria-label="Edit column">Edit column</button>
        </div>
        <div className="dt-group" role="group" aria-label="CSV">
          <input ref={fileInput} type="file" accept=".csv,text/csv,text/plain" hidden aria-label="CSV file to import"
            onChange={(e) => { const file = e.target.files?.[0]; e.target.value = ''; if (file) void onFile(file); }} />
          <button type="button" onClick={() => fileInput.current?.click()} disabled={readOnly}>Import CSV</button>
          <button type="button" onClick={onExport}>Export CSV</button>
        </div>
      </div>

      {firstKeyProblem !== undefined && (
        <div className="lk-key-summary" role="note">
          {problemsByRow.size.toLocaleString('en')} row{problemsByRow.size === 1 ? ' has' : 's have'} an empty or duplicate primary key; the table saves once every key is unique.
          {' '}<button type="button" className="dt-link" onClick={() => { selectCell({ row: firstKeyProblem, col: 0 }); focusGrid(); }}>Go to row {firstKeyProblem + 1}</button>
        </div>
      )}
      {serverProblems.length > 0 && (
        <details className="dt-problems" open={serverProblems.length <= 5}>
          <summary>{serverProblems.length} problem{serverProblems.length === 1 ? '' : 's'} reported by validation</summary>
          <ul>
            {serverProblems.slice(0, 100).map((p, i) => (
              <li key={i}>
                {p.row !== undefined
                  ? <button type="button" className="dt-link" onClick={() => { selectCell({ row: p.row!, col: 0 }); focusGrid(); }}>{p.label}</button>
                  : <strong>{p.label}</strong>}
                : {p.message}
              </li>
            ))}
          </ul>
        </details>
      )}

      <LookupGrid
        ref={grid}
        id={gridId}
        model={model}
        selection={selection}
        readOnly={readOnly}
        keys={keys}
        keyProblems={problemsByRow}
        rowProblems={located.rows}
        matchedRow={matchedRow}
        inlineEdit={inlineEdit}
        onSelect={setSelection}
        onStartInline={(pos, text) => setInlineEdit({ pos, text })}
        onCommitInline={commitInline}
        onCancelInline={() => { setInlineEdit(null); focusGrid(); }}
        onClear={(r: Range) => apply(clearBlock(model, r.top, r.left, r.bottom, r.right))}
        onCopy={(r: Range) => {
          setStatus(`Copied ${r.bottom - r.top + 1} row(s)`);
          return serialiseTsv(blockTexts(model, r.top, r.left, r.bottom, r.right));
        }}
        onPaste={onPaste}
        onUndo={() => step('undo')}
        onRedo={() => step('redo')}
        onEditColumn={(c) => setColumnDialog(c)}
      />
      <div className="dt-statusbar">
        <span>{rows.length.toLocaleString('en')} rows · {columns.length} columns · key: {columns.find((c) => c.alias === model.primaryKey)?.name ?? model.primaryKey}</span>
        <span role="status" aria-live="polite" className="dt-status-message">{status}</span>
      </div>

      {columnDialog !== null && columns[columnDialog] && (
        <ColumnDialog
          key={columnDialog}
          model={model}
          index={columnDialog}
          onApply={(name, alias, makeKey) => {
            let next = renameColumn(model, columnDialog, name, alias);
            if (makeKey) next = setPrimaryKey(next, columnDialog);
            apply(next);
            setColumnDialog(null);
            focusGrid();
          }}
          onDelete={() => onDeleteColumn(columnDialog)}
          onClose={() => { setColumnDialog(null); focusGrid(); }}
        />
      )}
      <Dialog title="Import CSV" open={pending !== null} onClose={() => setPending(null)}>
        {pending && (
          <div className="dialog-body">
            <p>
              <strong>{pending.file}</strong>: {pending.csv.records.length.toLocaleString('en')} rows, columns {pending.csv.header.join(', ')}.
              The table has {rows.length.toLocaleString('en')} rows now.
            </p>
            <p className="muted small">Replace takes the file's columns and rows. Append adds its rows after the existing ones (its columns must be the table's). Undo reverts either.</p>
            <div className="dialog-actions">
              <button type="button" className="btn" onClick={() => setPending(null)}>Cancel</button>
              <button type="button" className="btn" onClick={() => runImport(pending, 'append')}>Append rows</button>
              <button type="button" className="btn btn-primary" onClick={() => runImport(pending, 'replace')}>Replace the table</button>
            </div>
          </div>
        )}
      </Dialog>
      <Dialog title="The CSV was not imported" open={csvErrors !== null} onClose={() => setCsvErrors(null)}>
        {csvErrors && (
          <div className="dialog-body">
            <p>Nothing in <strong>{csvErrors.file}</strong> was imported; the table is unchanged. Fix these and import again:</p>
            <ul role="alert" className="lk-csv-errors">{csvErrors.errors.map((e, i) => <li key={i}>{e}</li>)}</ul>
            <div className="dialog-actions"><button type="button" className="btn btn-primary" onClick={() => setCsvErrors(null)}>Close</button></div>
          </div>
        )}
      </Dialog>
    </div>
  );
}

/** Name and alias of a column, making it the key, deleting it. */
function ColumnDialog(props: { model: LookupModel; index: number; onApply(name: string, alias: string, makeKey: boolean): void; onDelete(): void; onClose(): void }) {
  const column = props.model.columns[props.index]!;
  const isKey = column.alias === props.model.primaryKey;
  const [name, setName] = useState(column.name);
  const [alias, setAlias] = useState(column.alias);
  const [makeKey, setMakeKey] = useState(false);
  const problem = columnProblem(props.model, props.index, name.trim(), alias.trim());
  return (
    <Dialog title={`Column ${column.name}`} open onClose={props.onClose}>
      <form className="dialog-body" onSubmit={(e) => { e.preventDefault(); if (!problem) props.onApply(name.trim(), alias.trim(), makeKey); }}>
        <label className="field"><span>Column name</span><input value={name} autoFocus onChange={(e) => setName(e.target.value)} /></label>
        <label className="field"><span>Alias</span><input value={alias} onChange={(e) => setAlias(e.target.value)} /></label>
        <p className="muted small">LOOKUP_VALUE finds a column by name or alias; changing them changes what callers must write.</p>
        {isKey
          ? <p className="small">This column is the primary key.</p>
          : <label className="field field-inline"><input type="checkbox" checked={makeKey} onChange={(e) => setMakeKey(e.target.checked)} /> <span>Make this column the primary key</span></label>}
        {problem && <p className="form-error" role="alert">{problem}</p>}
        <div className="dialog-actions">
          {!isKey && <button type="button" className="btn btn-danger" onClick={props.onDelete}>Delete column</button>}
          <button type="button" className="btn" onClick={props.onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={problem !== undefined}>Apply</button>
        </div>
      </form>
    </Dialog>
  );
}
