// The column dialog: name and binding (input path, output path or calc variable), with the model's leaves
// offered as suggestions, and the valid values of condition and result columns (docs/decisions/valid-values.md).
import { useEffect, useRef, useState } from 'react';
import { columnBinding, columnKind, columnName, columnValidValues, COLUMN_KIND_LABEL } from './model/table.ts';
import type { Column } from './model/table.ts';

export interface ColumnEditorProps {
  column: Column;
  index: number;
  count: number;
  inputPaths: readonly string[];
  outputPaths: readonly string[];
  /** validValues: the list as edited (calculation columns have none: their cells are expressions). */
  onApply(name: string, binding: string, validValues: string[]): void;
  onMove(delta: number): void;
  onDelete(): void;
  onClose(): void;
}

const BINDING_LABEL = { input: 'Input variable', output: 'Output variable', calc: 'Variable name' } as const;

export function ColumnEditor(props: ColumnEditorProps) {
  const kind = columnKind(props.column);
  const [name, setName] = useState(columnName(props.column));
  const [binding, setBinding] = useState(columnBinding(props.column));
  const [validValues, setValidValues] = useState<string[]>(() => columnValidValues(props.column));
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const suggestions = kind === 'input' ? props.inputPaths : kind === 'output' ? props.outputPaths : [];
  const listId = `dt-col-suggest-${kind}`;
  const bindingProblem = binding.trim() === '' ? `${BINDING_LABEL[kind]} is required` : undefined;
  const apply = () => {
    if (!bindingProblem) props.onApply(name, binding.trim(), validValues);
  };
  return (
    <div className="dt-popover-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        className={`dt-popover dt-dialog dt-kind-${kind}`}
        role="dialog"
        aria-modal="true"
        aria-label={`${COLUMN_KIND_LABEL[kind]} column`}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            props.onClose();
          } else if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') {
            e.preventDefault();
            apply();
          }
        }}
      >
        <div className="dt-popover-title">
          <span className="dt-kind-badge">{kind === 'input' ? 'IF' : kind === 'calc' ? 'CALC' : 'THEN'}</span> {COLUMN_KIND_LABEL[kind]} column {props.index + 1}
        </div>
        <div className="dt-form">
          <label className="dt-field">
            <span>Column name</span>
            <input ref={first} type="text" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="dt-field">
            <span>{BINDING_LABEL[kind]}</span>
            <input
              type="text"
              value={binding}
              list={suggestions.length ? listId : undefined}
              aria-invalid={bindingProblem ? true : undefined}
              aria-describedby={bindingProblem ? 'dt-col-binding-problem' : undefined}
              placeholder={kind === 'calc' ? 'discount' : 'client.age'}
              onChange={(e) => setBinding(e.target.value)}
            />
            {suggestions.length > 0 && (
              <datalist id={listId}>
                {suggestions.map((p) => (
                  <option key={p} value={p} />
                ))}
              </datalist>
            )}
            {bindingProblem && (
              <span id="dt-col-binding-problem" className="dt-error-text">
                {bindingProblem}
              </span>
            )}
          </label>
          {kind !== 'calc' && <ValidValuesEditor values={validValues} onChange={setValidValues} />}
        </div>
        <div className="dt-popover-actions">
          <button type="button" onClick={() => props.onMove(-1)} disabled={props.index === 0}>
            Move column left
          </button>
          <button type="button" onClick={() => props.onMove(1)} disabled={props.index >= props.count - 1}>
            Move column right
          </button>
          <button type="button" className="dt-danger" onClick={props.onDelete}>
            Delete column
          </button>
          <span className="dt-spacer" />
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="dt-primary" onClick={apply} disabled={!!bindingProblem}>
            Apply
          </button>
        </div>
      </div>
    </div>
  );
}

/** The valid values of a column: a list to add to and remove from. Cells may still hold other values (flagged). */
function ValidValuesEditor({ values, onChange }: { values: string[]; onChange(values: string[]): void }) {
  const [draft, setDraft] = useState('');
  const duplicate = values.includes(draft.trim());
  const add = () => {
    const value = draft.trim();
    if (value === '' || duplicate) return;
    onChange([...values, value]);
    setDraft('');
  };
  return (
    <fieldset className="dt-valid-values">
      <legend>Valid values</legend>
      <p className="dt-muted">Cells may name only these values; others are flagged. Empty: any value.</p>
      <ul className="dt-chips" aria-label="Valid values">
        {values.map((v, i) => (
          <li key={v} className="dt-chip">
            <span>{v}</span>
            <button type="button" aria-label={`Remove valid value ${v}`} onClick={() => onChange(values.filter((_, j) => j !== i))}>
              ×
            </button>
          </li>
        ))}
        {values.length === 0 && <li className="dt-muted">No valid values: any value is allowed</li>}
      </ul>
      <div className="dt-list-add">
        <input
          type="text"
          aria-label="New valid value"
          value={draft}
          aria-invalid={duplicate || undefined}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && draft.trim() !== '') {
              e.preventDefault();
              e.stopPropagation();
              add();
            }
          }}
        />
        <button type="button" onClick={add} disabled={draft.trim() === '' || duplicate}>
          Add valid value
        </button>
      </div>
      {duplicate && <span className="dt-error-text">{`${draft.trim()} is already a valid value`}</span>}
    </fieldset>
  );
}
