// The full cell editor, opened with Enter, F2 or a double-click: for a condition an operator picker with a value
// editor fitted to the operator (none / one value / from-to / a list / a date / an expression); for a result a
// simple value, a function or JSON; for a calculation an expression.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import { columnBinding, columnKind, columnTitle } from './model/table.ts';
import type { Column } from './model/table.ts';
import { dateParts, joinDate, readCondition, readResult, withOperator, writeCondition, writeResult } from './model/cells.ts';
import type { ConditionEdit, ConditionType, ResultEdit, ResultKind } from './model/cells.ts';
import { operatorEntry, operatorsFor } from './model/operators.ts';
import { ExpressionEditor } from './ExpressionEditor.tsx';
import { JsonEditor } from './JsonEditor.tsx';

export interface CellEditorProps {
  column: Column;
  rowNumber: number;
  value: any;
  anchor: DOMRect | undefined;
  variables: readonly string[];
  /** The column's valid values, offered in the value fields (free text stays allowed; the grid flags it). */
  validValues?: readonly string[];
  onApply(value: any): void;
  onCancel(): void;
}

/** The one list of valid values the value fields of an open editor share. */
const VALID_VALUES_LIST = 'dt-valid-values';

/** Suggestions for a value field: the list attribute and the datalist, when the column has valid values. */
function ValidValuesList({ values }: { values: readonly string[] | undefined }) {
  if (!values || values.length === 0) return null;
  return (
    <datalist id={VALID_VALUES_LIST}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

function listOf(values: readonly string[] | undefined): string | undefined {
  return values && values.length > 0 ? VALID_VALUES_LIST : undefined;
}

function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : 'not valid JSON';
  }
}

export function CellEditor(props: CellEditorProps) {
  const { column } = props;
  const kind = columnKind(column);
  const box = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number }>({ top: 80, left: 80 });
  const [condition, setCondition] = useState<ConditionEdit>(() => readCondition(props.value));
  const [result, setResult] = useState<ResultEdit>(() => readResult(props.value, kind));

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const rect = props.anchor;
    const width = el.offsetWidth;
    const height = el.offsetHeight;
    let top = rect ? rect.bottom + 4 : 80;
    let left = rect ? rect.left : 80;
    if (top + height > window.innerHeight - 8) top = Math.max(8, (rect ? rect.top : window.innerHeight) - height - 4);
    if (left + width > window.innerWidth - 8) left = Math.max(8, window.innerWidth - width - 8);
    setPosition({ top, left });
  }, [props.anchor, condition.operator, condition.type, result.kind]);

  useEffect(() => {
    // the value control, not the type switch: an expression editor, else the marked control, else the first field
    const root = box.current;
    const first = root?.querySelector<HTMLElement>('.cm-content') ?? root?.querySelector<HTMLElement>('[data-autofocus]') ?? root?.querySelector<HTMLElement>('select, input[type="text"]');
    first?.focus();
  }, []);

  const blocked = kind !== 'input' && result.kind === 'json' ? jsonProblem(result.text) : undefined;
  const apply = () => {
    if (blocked) return;
    props.onApply(kind === 'input' ? writeCondition(condition) : writeResult(result, kind));
  };

  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      e.stopPropagation();
      props.onCancel();
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      apply();
    } else if (e.key === 'Enter' && (e.target as HTMLInputElement).tagName === 'INPUT' && (e.target as HTMLInputElement).type !== 'radio') {
      // (the list's own input handles Enter itself while it holds a value to add)
      e.preventDefault();
      apply();
    }
  };

  const title = `${columnTitle(column)}, row ${props.rowNumber}`;
  return (
    <div className="dt-popover-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onCancel()}>
      <div
        ref={box}
        className={`dt-popover dt-kind-${kind}`}
        role="dialog"
        aria-modal="true"
        aria-label={`Edit cell: ${title}`}
        style={{ top: position.top, left: position.left }}
        onKeyDown={onKeyDown}
      >
        <div className="dt-popover-title">
          <span className="dt-kind-badge">{kind === 'input' ? 'IF' : kind === 'calc' ? 'CALC' : 'THEN'}</span> {title}
          {columnBinding(column) && <span className="dt-muted"> · {columnBinding(column)}</span>}
        </div>
        {kind === 'input' ? (
          <ConditionForm edit={condition} onChange={setCondition} variables={props.variables} validValues={props.validValues} onSubmit={apply} onCancel={props.onCancel} />
        ) : (
          <ResultForm kind={kind} edit={result} onChange={setResult} variables={props.variables} validValues={props.validValues} onSubmit={apply} onCancel={props.onCancel} />
        )}
        <div className="dt-popover-actions">
          <span className="dt-muted dt-hint">Enter applies · Esc cancels{kind !== 'input' || condition.type === 'function' ? ' · Ctrl+Enter applies from the editor' : ''}</span>
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="button" className="dt-primary" onClick={apply} disabled={!!blocked}>
            Apply
          </button>
        </div>
      </div>
    </div>
  );
}

// ---- conditions (also the tree designer's condition node form) ------------------------------------------------------------------------------------------

export interface ConditionFormProps {
  edit: ConditionEdit;
  onChange(edit: ConditionEdit): void;
  variables: readonly string[];
  onSubmit(): void;
  onCancel(): void;
  /** Operators this place does not offer (a tree has ELSE blocks, not the ELSE cell operator); kept if stored. */
  exclude?: readonly string[];
  /** The column's valid values, suggested in the value fields. */
  validValues?: readonly string[];
}

export function ConditionForm({ edit, onChange, variables, onSubmit, onCancel, exclude, validValues }: ConditionFormProps) {
  const setType = (type: ConditionType) => {
    if (type === 'function') onChange(withOperator(edit, 'function'));
    else {
      const base = edit.type === 'function' ? withOperator(edit, '=') : edit;
      const allowed = operatorsFor(type).some((e) => e.name === base.operator);
      onChange({ ...(allowed ? base : withOperator(base, '=')), type });
    }
  };
  const entry = operatorEntry(edit.operator);
  const setValue = (i: number, v: string) => {
    const values = edit.values.slice();
    values[i] = v;
    onChange({ ...edit, values });
  };
  return (
    <div className="dt-form">
      <fieldset className="dt-segmented">
        <legend className="dt-sr">Condition type</legend>
        {(['general', 'date', 'function'] as const).map((t) => (
          <label key={t} className={edit.type === t ? 'dt-on' : ''}>
            <input type="radio" name="dt-condition-type" checked={edit.type === t} onChange={() => setType(t)} />
            {t === 'general' ? 'Value' : t === 'date' ? 'Date' : 'Function'}
          </label>
        ))}
      </fieldset>
      {edit.type === 'function' ? (
        <ExpressionEditor
          label="Condition expression"
          value={edit.expression}
          onChange={(expression) => onChange({ ...edit, expression })}
          variables={variables}
          onSubmit={onSubmit}
          onCancel={onCancel}
          autoFocus
        />
      ) : (
        <>
          <label className="dt-field">
            <span>Operator</span>
            <select aria-label="Operator" value={edit.operator} onChange={(e) => onChange(withOperator(edit, e.target.value))}>
              {operatorsFor(edit.type === 'date' ? 'date' : 'general').filter((op) => op.name === edit.operator || !exclude?.includes(op.name)).map((op) => (
                <option key={op.name} value={op.name}>
                  {op.label} — {op.description}
                </option>
              ))}
              {!entry && <option value={edit.operator}>{edit.operator} (unknown)</option>}
            </select>
          </label>
          <ValueEditor edit={edit} setValue={setValue} onChange={onChange} list={edit.type === 'date' ? undefined : listOf(validValues)} />
          {edit.type !== 'date' && <ValidValuesList values={validValues} />}
        </>
      )}
    </div>
  );
}

function ValueEditor({ edit, setValue, onChange, list }: { edit: ConditionEdit; setValue(i: number, v: string): void; onChange(e: ConditionEdit): void; list?: string }) {
  const editor = operatorEntry(edit.operator)?.editor ?? 'single';
  const isDate = edit.type === 'date';
  const Input = isDate ? DateInput : TextInput;
  switch (editor) {
    case 'none':
      return <p className="dt-muted dt-novalue">This operator needs no value.</p>;
    case 'pair':
      return (
        <div className="dt-pair">
          <Input label="From" first value={edit.values[0] ?? ''} onChange={(v) => setValue(0, v)} />
          <Input label="To" value={edit.values[1] ?? ''} onChange={(v) => setValue(1, v)} />
        </div>
      );
    case 'list':
      return <ListInput values={edit.values} onChange={(values) => onChange({ ...edit, values })} date={isDate} list={list} />;
    default:
      return <Input label="Value" first value={edit.values[0] ?? ''} onChange={(v) => setValue(0, v)} list={list} />;
  }
}

function TextInput({ label, value, onChange, first, list }: { label: string; value: string; onChange(v: string): void; first?: boolean; list?: string }) {
  return (
    <label className="dt-field">
      <span>{label}</span>
      <input type="text" data-autofocus={first || undefined} list={list} value={value} onChange={(e) => onChange(e.target.value)} placeholder="text, number or {variable}" />
    </label>
  );
}

/** A date cell value: date and time pickers plus the offset, with the stored text editable as well. */
function DateInput({ label, value, onChange, first }: { label: string; value: string; onChange(v: string): void; first?: boolean; list?: string }) {
  const parts = dateParts(value);
  const zoneNow = () => {
    const minutes = -new Date().getTimezoneOffset();
    const sign = minutes >= 0 ? '+' : '-';
    const abs = Math.abs(minutes);
    return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  };
  return (
    <fieldset className="dt-date-input">
      <legend>{label}</legend>
      {parts ? (
        <div className="dt-date-parts">
          <input type="date" aria-label={`${label} date`} value={parts.date} onChange={(e) => onChange(joinDate({ ...parts, date: e.target.value, zone: parts.zone || zoneNow() }))} />
          <input type="time" aria-label={`${label} time`} value={parts.time} step={60} onChange={(e) => onChange(joinDate({ ...parts, time: e.target.value }))} />
          <input type="text" aria-label={`${label} time zone offset`} className="dt-zone" value={parts.zone} placeholder="+00:00" onChange={(e) => onChange(joinDate({ ...parts, zone: e.target.value }))} />
        </div>
      ) : null}
      <input type="text" data-autofocus={first || undefined} aria-label={`${label} as text`} value={value} placeholder="2024-05-15 01:25 +00:00 or {variable}" onChange={(e) => onChange(e.target.value)} />
    </fieldset>
  );
}

function ListInput({ values, onChange, date, list }: { values: string[]; onChange(values: string[]): void; date: boolean; list?: string }) {
  const [draft, setDraft] = useState('');
  const add = () => {
    const parts = draft.split('|').map((p) => p.trim()).filter((p) => p !== '');
    if (parts.length === 0) return;
    onChange([...values, ...parts]);
    setDraft('');
  };
  return (
    <div className="dt-field">
      <span id="dt-list-label">Values</span>
      <ul className="dt-chips" aria-labelledby="dt-list-label">
        {values.map((v, i) => (
          <li key={`${i}:${v}`} className="dt-chip">
            <span>{v === '' ? <em>empty</em> : v}</span>
            <button type="button" aria-label={`Remove ${v || 'empty value'}`} onClick={() => onChange(values.filter((_, j) => j !== i))}>
              ×
            </button>
          </li>
        ))}
        {values.length === 0 && <li className="dt-muted">No values yet</li>}
      </ul>
      <div className="dt-list-add">
        <input
          type="text"
          data-list-input="true"
          data-autofocus
          aria-label="Add value"
          list={list}
          value={draft}
          placeholder={date ? '2024-05-15 +00:00 (Enter adds; | separates)' : 'value (Enter adds; | separates several)'}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !(e.ctrlKey || e.metaKey)) {
              if (draft.trim() === '') return; // an empty box: let Enter apply the editor
              e.preventDefault();
              e.stopPropagation();
              add();
            }
          }}
        />
        <button type="button" onClick={add}>
          Add
        </button>
      </div>
    </div>
  );
}

// ---- results and calculations (also the tree designer's result node form) ----------------------------------------------------------------------------

export interface ResultFormProps {
  kind: 'output' | 'calc';
  edit: ResultEdit;
  onChange(edit: ResultEdit): void;
  variables: readonly string[];
  onSubmit(): void;
  onCancel(): void;
  /** The column's valid values, suggested in the simple value field. */
  validValues?: readonly string[];
}

export function ResultForm({ kind, edit, onChange, variables, onSubmit, onCancel, validValues }: ResultFormProps) {
  const setKind = (k: ResultKind) => {
    let text = edit.text;
    if (k === 'json' && jsonProblem(text)) text = text.trim() === '' ? '{}' : JSON.stringify(text);
    onChange({ kind: k, text });
  };
  return (
    <div className="dt-form">
      {kind === 'output' && (
        <fieldset className="dt-segmented">
          <legend className="dt-sr">Value type</legend>
          {(['simple', 'function', 'json'] as const).map((k) => (
            <label key={k} className={edit.kind === k ? 'dt-on' : ''}>
              <input type="radio" name="dt-result-kind" checked={edit.kind === k} onChange={() => setKind(k)} />
              {k === 'simple' ? 'Simple value' : k === 'function' ? 'Function' : 'JSON'}
            </label>
          ))}
        </fieldset>
      )}
      {edit.kind === 'function' || kind === 'calc' ? (
        <ExpressionEditor
          label={kind === 'calc' ? 'Calculation expression' : 'Result expression'}
          value={edit.text}
          onChange={(text) => onChange({ ...edit, text })}
          variables={variables}
          onSubmit={onSubmit}
          onCancel={onCancel}
          autoFocus
        />
      ) : edit.kind === 'json' ? (
        <JsonEditor label="Result JSON" value={edit.text} onChange={(text) => onChange({ ...edit, text })} onSubmit={onSubmit} autoFocus />
      ) : (
        <label className="dt-field">
          <span>Value</span>
          <input
            type="text"
            data-autofocus
            list={listOf(validValues)}
            value={edit.text}
            onChange={(e) => onChange({ ...edit, text: e.target.value })}
            placeholder="text, number, true/false; {variable} is replaced"
          />
          <ValidValuesList values={validValues} />
        </label>
      )}
    </div>
  );
}
