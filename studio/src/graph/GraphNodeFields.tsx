// The inspector's forms for a decision graph's nodes (JDM content): a table's hit policy and `Edit table` (the
// grid opens in the canvas's place), an expression node's keys and ZEN expressions, a switch's statements, the
// rule a decision node solves, a function's JavaScript, and the fields tables, expressions and decisions share
// (input field, output path, loop, pass-through). ZEN text is edited in the expression editor's ZEN mode.
import type { NodeFieldsProps } from '../flow/extension.ts';
import { Rows, TextField } from '../flow/NodeInspector.tsx';
import { isRecord } from '../flow/model/format.ts';
import { newId } from '../flow/model/graph.ts';
import { ExpressionEditor } from '../designer/ExpressionEditor.tsx';
import { addStatement, removeStatement } from './model/jdm.ts';

/** A ZEN expression with a visible caption (its accessible name is the same text). */
export function ZenField(props: { label: string; value: string; readOnly: boolean; unary?: boolean; onChange(text: string): void }) {
  return (
    <div className="flow-expression">
      <span aria-hidden="true">{props.label}</span>
      <ExpressionEditor label={props.label} compact language="zen" unary={props.unary} value={props.value} readOnly={props.readOnly} onChange={props.onChange} />
    </div>
  );
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function HitPolicy(props: { value: unknown; what: string; onChange(value: string): void }) {
  return (
    <label className="field"><span>Hit policy</span>
      <select value={props.value === 'collect' ? 'collect' : 'first'} onChange={(e) => props.onChange(e.target.value)}>
        <option value="first">First: the first matching {props.what}</option>
        <option value="collect">Collect: every matching {props.what}</option>
      </select>
    </label>
  );
}

/** inputField, outputPath, executionMode and passThrough: what tables, expressions and decisions share. */
function TransformFields(props: { content: Record<string, any>; set(content: Record<string, any>): void }) {
  const { content, set } = props;
  const write = (key: string, value: unknown) => set({ ...content, [key]: value });
  return (
    <details className="graph-transform">
      <summary>Input and output</summary>
      <TextField label="Input field" value={text(content.inputField)} placeholder="the whole input" onChange={(v) => write('inputField', v === '' ? null : v)} />
      <TextField label="Output path" value={text(content.outputPath)} placeholder="the top level" onChange={(v) => write('outputPath', v === '' ? null : v)} />
      <label className="field field-compact"><span>Execution</span>
        <select value={content.executionMode === 'loop' ? 'loop' : 'single'} onChange={(e) => write('executionMode', e.target.value)}>
          <option value="single">Once</option>
          <option value="loop">Once per item of the input field</option>
        </select>
      </label>
      <label className="field-check"><input type="checkbox" checked={content.passThrough === true} onChange={(e) => write('passThrough', e.target.checked)} /> Pass the input through</label>
    </details>
  );
}

export function GraphNodeFields(props: NodeFieldsProps) {
  const { node, readOnly } = props;
  const content: Record<string, any> = isRecord(node.data) ? node.data : {};
  const set = (next: Record<string, any>) => props.setData(next);
  switch (node.type) {
    case 'inputNode':
    case 'outputNode':
      return (
        <>
          <p className="muted small">{node.type === 'inputNode' ? 'The request enters the graph here; the nodes connected after it read its fields.' : "What reaches this node is the graph's answer (the nodes before it merged)."}</p>
          <SchemaField content={content} set={set} />
        </>
      );
    case 'decisionTableNode': {
      const inputs = Array.isArray(content.inputs) ? content.inputs.length : 0;
      const outputs = Array.isArray(content.outputs) ? content.outputs.length : 0;
      const rows = Array.isArray(content.rules) ? content.rules.length : 0;
      return (
        <>
          <HitPolicy value={content.hitPolicy} what="row" onChange={(hitPolicy) => set({ ...content, hitPolicy })} />
          <p className="small">{inputs} input{inputs === 1 ? '' : 's'}, {outputs} output{outputs === 1 ? '' : 's'}, {rows} row{rows === 1 ? '' : 's'}.</p>
          <button type="button" className="btn btn-small btn-primary" onClick={props.openView}>Edit table</button>
          <TransformFields content={content} set={set} />
        </>
      );
    }
    case 'expressionNode':
      return (
        <>
          <Rows label="Expressions" items={Array.isArray(content.expressions) ? content.expressions : []} addLabel="Add expression"
            make={() => ({ id: newId('uuid'), key: '', value: '' })}
            onChange={(expressions) => set({ ...content, expressions })}
            render={(item: any, i, setItem) => (
              <>
                <TextField label={`Key ${i + 1}`} value={text(item?.key)} placeholder="result.total" onChange={(key) => setItem({ ...item, key })} />
                <ZenField label={`Expression ${i + 1}`} value={text(item?.value)} readOnly={readOnly} onChange={(value) => setItem({ ...item, value })} />
              </>
            )} />
          <TransformFields content={content} set={set} />
        </>
      );
    case 'switchNode': {
      const statements: any[] = Array.isArray(content.statements) ? content.statements : [];
      return (
        <>
          <HitPolicy value={content.hitPolicy} what="statement" onChange={(hitPolicy) => set({ ...content, hitPolicy })} />
          <p className="muted small">Each statement is a ZEN condition with its own port; an empty condition always holds (the else).</p>
          {statements.map((s, i) => (
            <div key={String(s?.id ?? i)} className="flow-row">
              {s?.isDefault === true ? <p className="small"><strong>Condition {i + 1}</strong>: else, when no other condition holds</p> : (
                <ZenField label={`Condition ${i + 1}`} value={text(s?.condition)} readOnly={readOnly}
                  onChange={(condition) => set({ ...content, statements: statements.map((x, j) => (j === i ? { ...x, condition } : x)) })} />
              )}
              {!readOnly && statements.length > 1 && (
                <button type="button" className="btn btn-small btn-ghost" onClick={() => props.onGraph(removeStatement(props.graph, node.id, String(s?.id)))}>Remove condition {i + 1}</button>
              )}
            </div>
          ))}
          {!readOnly && <button type="button" className="btn btn-small" onClick={() => props.onGraph(addStatement(props.graph, node.id))}>Add condition</button>}
        </>
      );
    }
    case 'decisionNode':
      return <DecisionFields {...props} content={content} set={set} />;
    case 'functionNode': {
      // v1 holds the source itself, v2 `{ source }`: edits keep the form the node has.
      const source = typeof node.data === 'string' ? node.data : text(content.source);
      return (
        <label className="field"><span>JavaScript</span>
          <textarea className="graph-source" rows={10} spellCheck={false} value={source}
            onChange={(e) => props.setData(typeof node.data === 'string' ? e.target.value : { ...content, source: e.target.value })} />
        </label>
      );
    }
    default:
      return <p className="muted small">The Studio has no form for {node.type} nodes; its content is kept as it is.</p>;
  }
}

/** The rule a decision node solves: one of the space's rules (stored by alias), or a key typed as GoRules names it. */
function DecisionFields(props: NodeFieldsProps & { content: Record<string, any>; set(next: Record<string, any>): void }) {
  const { content, set } = props;
  const key = text(content.key);
  const bare = key.replace(/\.json$/, '').replace(/^.*\//, '');
  const choices = [...new Map(props.rules.filter((r) => r.ruleId !== props.selfId).map((r) => [r.ruleId, r])).values()].sort((a, b) => a.name.localeCompare(b.name));
  const current = choices.find((c) => c.ruleAlias === bare || c.ruleId === bare);
  return (
    <>
      <label className="field"><span>Called rule</span>
        <select value={current?.ruleId ?? ''} onChange={(e) => {
          const chosen = choices.find((c) => c.ruleId === e.target.value);
          if (chosen) set({ ...content, key: chosen.ruleAlias ?? chosen.ruleId });
        }}>
          <option value="">{key && !current ? `${key} (not in this space)` : 'Choose a rule…'}</option>
          {choices.map((c) => <option key={c.ruleId} value={c.ruleId}>{c.name} ({c.type})</option>)}
        </select>
      </label>
      <TextField label="Rule key" value={key} placeholder="alias, id or file.json" onChange={(next) => set({ ...content, key: next })} />
      <TransformFields content={content} set={set} />
    </>
  );
}

/** The node's JSON schema (GoRules keeps it as text), checked by the server when present; empty means none. */
function SchemaField(props: { content: Record<string, any>; set(next: Record<string, any>): void }) {
  const value = props.content.schema;
  const shown = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
  let problem: string | undefined;
  try {
    if (shown.trim() !== '') JSON.parse(shown);
  } catch (err) {
    problem = `Not JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
  return (
    <label className="field"><span>JSON schema (optional)</span>
      <textarea className="graph-source" rows={6} spellCheck={false} value={shown} aria-invalid={problem ? true : undefined}
        onChange={(e) => props.set({ ...props.content, schema: e.target.value })} />
      {problem && <span className="form-error" role="alert">{problem}</span>}
    </label>
  );
}
