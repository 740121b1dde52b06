// The form of the selected condition or result node, open under its line in the outline: the path it tests or
// writes, then the table designer's own condition form (operator picker, value editors, expression editor) or
// result form. Every change goes to the document at once (the designer coalesces typing into one undo step).
import { useEffect, useId, useRef, useState } from 'react';
import { ConditionForm, ResultForm } from '../designer/CellEditor.tsx';
import { readCondition, readResult, writeCondition, writeResult } from '../designer/model/cells.ts';
import type { ConditionEdit, ResultEdit } from '../designer/model/cells.ts';
import type { TreeNode } from './model.ts';

/** ELSE as a condition operator never holds in a tree (the engine's ELSE cell); trees branch with ELSE blocks. */
const TREE_EXCLUDED_OPERATORS = ['ELSE'];

export interface NodeEditorProps {
  node: TreeNode;
  label: string;
  inputPaths: readonly string[];
  outputPaths: readonly string[];
  variables: readonly string[];
  /** Focus the path field when the form opens (a node just added). */
  focusPath: boolean;
  onChange(next: TreeNode): void;
  onClose(): void;
}

/**
 * The form's own edit state, re-read from the node when the node changed from outside (undo, another version):
 * the edit form keeps choices the stored value cannot tell apart (a JSON-looking text typed as a simple value).
 */
function useEditState<T>(stored: unknown, read: () => T): [T, (value: T, written: unknown) => void] {
  const [state, setState] = useState(() => ({ edit: read(), stored }));
  let current = state;
  if (state.stored !== stored) {
    current = { edit: read(), stored };
    setState(current);
  }
  return [current.edit, (edit, written) => setState({ edit, stored: written })];
}

export function NodeEditor(props: NodeEditorProps) {
  const { node } = props;
  const pathInput = useRef<HTMLInputElement>(null);
  const listId = `tree-paths${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  useEffect(() => {
    if (props.focusPath) pathInput.current?.focus();
  }, [props.focusPath]);

  const isCondition = node.type === 'condition';
  const [condition, setCondition] = useEditState<ConditionEdit>(node.scalarCondition, () => readCondition(node.scalarCondition));
  const [result, setResult] = useEditState<ResultEdit>(node.outputScalarValue, () => readResult(node.outputScalarValue, 'output'));
  const paths = isCondition ? props.inputPaths : props.outputPaths;
  const isFunction = isCondition && condition.type === 'function';

  const changeCondition = (edit: ConditionEdit) => {
    const scalarCondition = writeCondition(edit);
    setCondition(edit, scalarCondition);
    props.onChange({ ...node, scalarCondition });
  };
  const changeResult = (edit: ResultEdit) => {
    // Trees store simple values with `stringValue: null` (spec §2.4).
    const written = writeResult(edit, 'output');
    const outputScalarValue = written.type === 'function' ? written : { ...written, stringValue: null };
    setResult(edit, outputScalarValue);
    props.onChange({ ...node, outputScalarValue });
  };

  return (
    <div className="tr-editor" role="group" aria-label={`Edit ${props.label}`}
      onKeyDown={(e) => { if (e.key === 'Escape' && !e.defaultPrevented) { e.preventDefault(); props.onClose(); } }}>
      <label className="dt-field">
        <span>{isCondition ? `Input path${isFunction ? ' (optional for a function)' : ''}` : 'Output path'}</span>
        <input ref={pathInput} type="text" list={listId} value={typeof node.modelVariablePath === 'string' ? node.modelVariablePath : ''}
          placeholder={isCondition ? 'client.age' : 'offer.price'}
          onChange={(e) => props.onChange({ ...node, modelVariablePath: e.target.value })} />
        <datalist id={listId}>{paths.map((p) => <option key={p} value={p} />)}</datalist>
      </label>
      {isCondition ? (
        <ConditionForm exclude={TREE_EXCLUDED_OPERATORS} edit={condition} onChange={changeCondition} variables={props.variables} onSubmit={props.onClose} onCancel={props.onClose} />
      ) : (
        <ResultForm kind="output" edit={result} onChange={changeResult} variables={props.variables} onSubmit={props.onClose} onCancel={props.onClose} />
      )}
    </div>
  );
}
