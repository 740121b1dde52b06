// The inspector of the selected node: its name, what it does (called rule and version, input/output mapping,
// expressions in the table designer's ExpressionEditor, Switch cases with table-style conditions, HTTP call),
// its connections (`Connect … to`, the keyboard way to draw an edge), the server's problems in it, and Delete.
import { useState } from 'react';
import type { ReactNode } from 'react';
import type { RuleItem } from '../api/client.ts';
import { ExpressionEditor } from '../designer/ExpressionEditor.tsx';
import { cellFromText, conditionText } from '../designer/model/cells.ts';
import { leafPaths } from '../designer/model/schema.ts';
import { useStudio } from '../app/context.ts';
import { label as nodeLabel, nameProblem, nodeById, renameNode, wouldCycle } from './model/graph.ts';
import type { FlowGraph, GraphNode } from './model/graph.ts';
import type { FlowFormat } from './model/format.ts';
import { typeLabel } from './model/format.ts';
import { addSwitchCase, expressionTextOf, removeSwitchCase, storedExpression } from './model/workflow.ts';
import { pathInNode } from './model/problems.ts';
import type { Problem } from './model/problems.ts';
import type { FlowExtension } from './extension.ts';

export interface InspectorProps {
  format: FlowFormat;
  graph: FlowGraph;
  node: GraphNode;
  rules: RuleItem[];
  /** The rule being edited (a node may not call it). */
  selfId: string | undefined;
  problems: Problem[];
  variables: readonly string[];
  readOnly: boolean;
  onGraph(next: FlowGraph): void;
  onConnect(sourcePort: string, target: string): void;
  onDelete(): void;
  /** The format's own forms and node views (decision graphs). */
  extension?: FlowExtension;
  /** Opens the node's view in the canvas's place (extension.NodeView). */
  onOpenView?(): void;
}

const STRATEGIES = ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'];

/** One entry per rule (its newest version's name), sorted by name. */
function ruleChoices(rules: RuleItem[], selfId: string | undefined): { id: string; alias: string | undefined; name: string; type: string; versions: number[] }[] {
  const byId = new Map<string, { id: string; alias: string | undefined; name: string; type: string; versions: number[] }>();
  for (const item of [...rules].sort((a, b) => a.version - b.version)) {
    if (item.ruleId === selfId) continue;
    const entry = byId.get(item.ruleId) ?? { id: item.ruleId, alias: item.ruleAlias, name: item.name, type: item.type, versions: [] };
    entry.name = item.name;
    entry.versions.push(item.version);
    byId.set(item.ruleId, entry);
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function NodeInspector(props: InspectorProps) {
  const { node, graph, format, readOnly } = props;
  const setData = (data: unknown) => props.onGraph({ ...graph, nodes: graph.nodes.map((n) => (n.id === node.id ? { ...n, data } : n)) });
  const title = typeLabel(format, node.type);
  return (
    <div className="flow-inspector-body">
      <h2>{title}{node.name !== undefined && <> <code>{node.name}</code></>}</h2>
      {node.name !== undefined && !(format.ruleType === 'composition' && node.type !== 'rule') && (
        <NameField key={node.id} {...props} />
      )}
      {props.problems.length > 0 && (
        <div className="flow-problems" role="alert" aria-label={`Problems in ${nodeLabel(node)}`}>
          <strong>{props.problems.length} problem{props.problems.length === 1 ? '' : 's'} found by the server</strong>
          <ul>{props.problems.map((p, i) => <li key={i}><code>{pathInNode(p.path)}</code> {p.message}</li>)}</ul>
        </div>
      )}
      <fieldset disabled={readOnly} className="flow-fields">
        <NodeFields {...props} setData={setData} />
      </fieldset>
      <Connections {...props} />
      {!readOnly && <button type="button" className="btn btn-small btn-danger" onClick={props.onDelete}>Delete node</button>}
    </div>
  );
}

function NameField(props: InspectorProps) {
  const [text, setText] = useState(props.node.name ?? '');
  const check = (name: string) => nameProblem(props.graph, props.node.id, name, props.format.reservedNames, props.format.nameSyntax);
  const problem = text === props.node.name ? undefined : check(text);
  return (
    <label className="field">
      <span>Node name</span>
      <input value={text} disabled={props.readOnly} aria-invalid={problem ? true : undefined} onChange={(e) => {
        setText(e.target.value);
        // Only a valid name reaches the document (the text box keeps what was typed until it is one); references
        // to the node in other nodes follow the rename.
        if (!check(e.target.value)) {
          props.onGraph(renameNode(props.graph, props.node.id, e.target.value, props.format.renameReferences));
        }
      }} />
      {problem && <span className="form-error" role="alert">{problem}</span>}
    </label>
  );
}

type FieldsProps = InspectorProps & { setData(data: unknown): void };

function NodeFields(props: FieldsProps) {
  const { node } = props;
  const data = node.data ?? {};
  const Fields = props.extension?.Fields;
  if (Fields) return <Fields {...props} openView={() => props.onOpenView?.()} />;
  switch (node.type) {
    case 'START':
    case 'start':
      return <p className="muted small">{props.format.ruleType === 'workflow' ? 'The flow starts here. Later nodes read the request as {input.…}.' : 'The flow input. Mappings read it as the source "start".'}</p>;
    case 'END':
      return <p className="muted small">Marks where a branch ends. The flow answers what Assign nodes wrote to output.…</p>;
    case 'BUSINESS_RULE':
      return <BusinessRuleFields {...props} />;
    case 'rule':
      return <RuleNodeFields {...props} />;
    case 'end':
      return <MappingRows {...props} keyLabel="Output path" />;
    case 'DATA_MANIPULATION':
      return (
        <Rows label="Assignments" items={data.mapping ?? []} addLabel="Add assignment"
          make={() => ({ source: { expression: storedExpression('') }, target: { path: 'output.' } })}
          onChange={(mapping) => props.setData({ ...data, mapping })}
          render={(item, i, set) => (
            <>
              <TextField label={`Target ${i + 1}`} value={item?.target?.path ?? ''} onChange={(path) => set({ ...item, target: { ...item.target, path } })} />
              <Expression label={`Value ${i + 1}`} value={expressionTextOf(item?.source?.expression)} variables={props.variables} readOnly={props.readOnly}
                onChange={(text) => set({ ...item, source: { ...item.source, expression: { ...item?.source?.expression, ...storedExpression(text) } } })} />
            </>
          )} />
      );
    case 'VARIABLES':
      return (
        <Rows label="Variables" items={data.variables ?? []} addLabel="Add variable"
          make={() => ({ name: '', expression: storedExpression('') })}
          onChange={(variables) => props.setData({ ...data, variables })}
          render={(item, i, set) => (
            <>
              <TextField label={`Variable ${i + 1} name`} value={item?.name ?? ''} onChange={(name) => set({ ...item, name })} />
              <Expression label={`Variable ${i + 1} initial value`} value={expressionTextOf(item?.expression)} variables={props.variables} readOnly={props.readOnly}
                onChange={(text) => set({ ...item, expression: { ...item?.expression, ...storedExpression(text) } })} />
            </>
          )} />
      );
    case 'FOREACH':
      return (
        <>
          <TextField label="List path" value={data.listPath ?? ''} placeholder="input.order.items" onChange={(listPath) => props.setData({ ...data, listPath })} />
          <p className="muted small">Nodes after “each item” run once per element, reading <code>{`{${node.name}.currentItem}`}</code>; nodes after “after” run once the loop is done.</p>
        </>
      );
    case 'IF_STATEMENT':
      return <SwitchFields {...props} />;
    case 'ARRAY_APPEND':
      return (
        <>
          <TextField label="Append to" value={data.target?.path ?? ''} placeholder="items" onChange={(path) => props.setData({ ...data, target: { ...data.target, path } })} />
          <Rows label="Values" items={data.values ?? []} addLabel="Add value" make={() => ({ path: '' })}
            onChange={(values) => props.setData({ ...data, values })}
            render={(item, i, set) => <TextField label={`Value ${i + 1} path`} value={item?.path ?? ''} onChange={(path) => set({ ...item, path })} />} />
        </>
      );
    case 'HTTP_CLIENT':
      return (
        <>
          <label className="field"><span>Method</span>
            <select value={data.method ?? 'GET'} onChange={(e) => props.setData({ ...data, method: e.target.value })}>
              {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => <option key={m}>{m}</option>)}
            </select>
          </label>
          <TextField label="URL" value={data.url ?? ''} placeholder="https://…" onChange={(url) => props.setData({ ...data, url })} />
          <label className="field"><span>Body format</span>
            <select value={data.bodyFormat ?? 'json'} onChange={(e) => props.setData({ ...data, bodyFormat: e.target.value })}>
              {['json', 'text', 'html'].map((m) => <option key={m}>{m}</option>)}
            </select>
          </label>
          <label className="field"><span>Body</span>
            <textarea rows={3} value={data.body ?? ''} onChange={(e) => props.setData({ ...data, body: e.target.value })} />
          </label>
          <Rows label="Headers" items={data.headers ?? []} addLabel="Add header" make={() => ({ header: '', value: '' })}
            onChange={(headers) => props.setData({ ...data, headers })}
            render={(item, i, set) => (
              <>
                <TextField label={`Header ${i + 1}`} value={item?.header ?? ''} onChange={(header) => set({ ...item, header })} />
                <TextField label={`Header ${i + 1} value`} value={item?.value ?? ''} onChange={(value) => set({ ...item, value })} />
              </>
            )} />
        </>
      );
    default:
      return <p className="muted small">The Studio has no form for {node.type} nodes; its data is kept as it is.</p>;
  }
}

/** The tables' expression editor with a visible caption (its accessible name is the same text). */
function Expression(props: { label: string; value: string; variables: readonly string[]; readOnly: boolean; onChange(text: string): void }) {
  return (
    <div className="flow-expression">
      <span aria-hidden="true">{props.label}</span>
      <ExpressionEditor label={props.label} compact value={props.value} variables={props.variables} readOnly={props.readOnly} onChange={props.onChange} />
    </div>
  );
}

export function TextField(props: { label: string; value: string; placeholder?: string; onChange(value: string): void }) {
  return (
    <label className="field field-compact">
      <span>{props.label}</span>
      <input value={props.value} placeholder={props.placeholder} onChange={(e) => props.onChange(e.target.value)} />
    </label>
  );
}

/** An editable list: one block per item with Remove, and Add. */
export function Rows<T>(props: { label: string; items: T[]; addLabel: string; make(): T; onChange(items: T[]): void; render(item: T, index: number, set: (next: T) => void): ReactNode }) {
  return (
    <fieldset className="flow-rows">
      <legend>{props.label}</legend>
      {props.items.length === 0 && <p className="muted small">None yet.</p>}
      {props.items.map((item, i) => (
        <div key={i} className="flow-row">
          {props.render(item, i, (next) => props.onChange(props.items.map((x, j) => (j === i ? next : x))))}
          <button type="button" className="btn btn-small btn-ghost" aria-label={`Remove ${props.label.toLowerCase()} ${i + 1}`}
            onClick={() => props.onChange(props.items.filter((_, j) => j !== i))}>Remove</button>
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={() => props.onChange([...props.items, props.make()])}>{props.addLabel}</button>
    </fieldset>
  );
}

/** The called rule and its version: what a BUSINESS_RULE node and a rule-flow node store differs, the choice not. */
function RulePicker(props: FieldsProps & { ruleId: string | undefined; version: unknown; onPick(choice: { id: string; alias: string | undefined; type: string } | undefined, version: number | undefined): void }) {
  const choices = ruleChoices(props.rules, props.selfId);
  const current = choices.find((c) => c.id === props.ruleId || (c.alias !== undefined && c.alias === props.ruleId));
  const version = typeof props.version === 'number' && props.version >= 1 ? props.version : undefined;
  return (
    <>
      <label className="field">
        <span>Called rule</span>
        <select value={current?.id ?? ''} onChange={(e) => props.onPick(choices.find((c) => c.id === e.target.value), undefined)}>
          <option value="">{props.ruleId && !current ? `${props.ruleId} (not in this space)` : 'Choose a rule…'}</option>
          {choices.map((c) => <option key={c.id} value={c.id}>{c.name} ({c.type})</option>)}
        </select>
      </label>
      <label className="field">
        <span>Rule version</span>
        <select value={version ?? ''} disabled={!current} onChange={(e) => props.onPick(current, e.target.value === '' ? undefined : Number(e.target.value))}>
          <option value="">Latest published</option>
          {(current?.versions ?? (version ? [version] : [])).map((v) => <option key={v} value={v}>v{v}</option>)}
        </select>
      </label>
    </>
  );
}

/** Adds a mapping row for every input-model leaf of the called rule that has none yet. */
function MapInputsButton(props: { ruleRef: string | undefined; mapped: string[]; onAdd(paths: string[]): void }) {
  const { api, notify } = useStudio();
  if (!props.ruleRef) return null;
  return (
    <button type="button" className="btn btn-small" onClick={() => void (async () => {
      try {
        const called = await api.getRule(props.ruleRef!, 'latest');
        const missing = leafPaths(called.rule.inputSchema).filter((p) => !props.mapped.includes(p));
        if (missing.length === 0) notify('Every input of the called rule is mapped already.', 'success');
        else props.onAdd(missing);
      } catch (err) {
        notify(`Could not read the called rule's input model: ${err instanceof Error ? err.message : String(err)}`, 'error');
      }
    })()}>Map the rule's inputs</button>
  );
}

function BusinessRuleFields(props: FieldsProps) {
  const data = props.node.data ?? {};
  const rule = data.rule ?? {};
  const mapping: any[] = data.mapping ?? [];
  return (
    <>
      <RulePicker {...props} ruleId={rule.baseId ?? rule.ruleAlias} version={rule.version}
        onPick={(choice, version) => props.setData({
          ...data,
          rule: choice ? { ruleAlias: choice.alias ?? choice.id, ...(version !== undefined ? { version } : {}), type: choice.type, baseId: choice.id } : {},
        })} />
      <label className="field"><span>Strategy</span>
        <select value={data.strategy ?? 'STANDARD'} onChange={(e) => props.setData({ ...data, strategy: e.target.value })}>
          {STRATEGIES.map((s) => <option key={s}>{s}</option>)}
        </select>
      </label>
      <p className="muted small">Later nodes read the result as <code>{`{${props.node.name}.output}`}</code>{data.strategy === 'FIRST_MATCH' || data.strategy === 'ARRAY' ? ' (one object)' : ' (an array)'}.</p>
      <Rows label="Input mapping" items={mapping} addLabel="Add mapping" make={() => ({ target: { path: '' }, source: { path: 'input.' } })}
        onChange={(next) => props.setData({ ...data, mapping: next })}
        render={(item, i, set) => (
          <>
            <TextField label={`Rule input ${i + 1}`} value={item?.target?.path ?? ''} onChange={(path) => set({ ...item, target: { ...item.target, path } })} />
            <TextField label={`From ${i + 1}`} value={item?.source?.path ?? ''} placeholder="input.…" onChange={(path) => set({ ...item, source: { ...item.source, path } })} />
          </>
        )} />
      <MapInputsButton ruleRef={rule.baseId ?? rule.ruleAlias} mapped={mapping.map((m) => m?.target?.path)}
        onAdd={(paths) => props.setData({ ...data, mapping: [...mapping, ...paths.map((p) => ({ target: { path: p }, source: { path: `input.${p}` } }))] })} />
    </>
  );
}

function RuleNodeFields(props: FieldsProps) {
  const data = props.node.data ?? {};
  const mapping: any[] = data.mapping ?? [];
  return (
    <>
      <RulePicker {...props} ruleId={data.baseId} version={data.version}
        onPick={(choice, version) => {
          const { version: _old, ...rest } = data;
          props.setData({ ...rest, baseId: choice?.id ?? '', ...(version !== undefined ? { version } : {}) });
        }} />
      <p className="muted small">Decision tables are solved FIRST_MATCH in a rule flow; the node's output is the rule's first result.</p>
      <MappingRows {...props} keyLabel="Rule input" />
      <MapInputsButton ruleRef={data.baseId || undefined} mapped={mapping.map((m) => m?.key)}
        onAdd={(paths) => props.setData({ ...data, mapping: [...mapping, ...paths.map((p) => ({ key: p, source: 'start', sourceVariable: p }))] })} />
    </>
  );
}

/** Rule-flow mappings: `key` in this node's input (or the flow output) ← `sourceVariable` of node `source`. */
function MappingRows(props: FieldsProps & { keyLabel: string }) {
  const data = props.node.data ?? {};
  const sources = props.graph.nodes.filter((n) => n.id !== props.node.id && n.type !== 'end').map((n) => n.name ?? n.id);
  return (
    <Rows label="Mapping" items={data.mapping ?? []} addLabel="Add mapping" make={() => ({ key: '', source: 'start', sourceVariable: '' })}
      onChange={(mapping) => props.setData({ ...data, mapping })}
      render={(item, i, set) => (
        <>
          <TextField label={`${props.keyLabel} ${i + 1}`} value={item?.key ?? ''} onChange={(key) => set({ ...item, key })} />
          <label className="field field-compact"><span>{`Source node ${i + 1}`}</span>
            <select value={item?.source ?? ''} onChange={(e) => set({ ...item, source: e.target.value })}>
              {!sources.includes(item?.source) && <option value={item?.source ?? ''}>{item?.source || '(none)'}</option>}
              {sources.map((s) => <option key={s}>{s}</option>)}
            </select>
          </label>
          <TextField label={`Source path ${i + 1}`} value={item?.sourceVariable ?? ''} onChange={(sourceVariable) => set({ ...item, sourceVariable })} />
        </>
      )} />
  );
}

function SwitchFields(props: FieldsProps) {
  const { node } = props;
  const data = node.data ?? {};
  const cases: any[] = data.cases ?? [];
  const setCase = (index: number, next: any) => props.setData({ ...data, cases: cases.map((c, j) => (j === index ? next : c)) });
  return (
    <>
      <label className="field"><span>Evaluation</span>
        <select value={data.evaluationStrategy ?? 'ALL_WINNING'} onChange={(e) => props.setData({ ...data, evaluationStrategy: e.target.value })}>
          <option value="ALL_WINNING">Every passing case</option>
          <option value="FIRST_WINNING">First passing case</option>
        </select>
      </label>
      <p className="muted small">Conditions are written as in a table cell: <code>= false</code>, <code>&gt; 5</code>, <code>IN a|b</code>, <code>fx …</code>. A case passes when all its conditions hold; Default runs when none passes.</p>
      {cases.map((c, i) => c?.type === 'DEFAULT' ? (
        <p key={i} className="small"><strong>{c.name ?? 'Default'}</strong> — when no case passes</p>
      ) : (
        <fieldset key={i} className="flow-rows">
          <legend>Case {i + 1}</legend>
          <TextField label={`Case ${i + 1} name`} value={c?.name ?? ''} onChange={(name) => setCase(i, { ...c, name })} />
          <Rows label={`Conditions of case ${i + 1}`} items={c?.conditions ?? []} addLabel="Add condition"
            make={() => ({ variable: '', decisionNode: { type: 0, scalarCondition: cellFromText('', 'input') } })}
            onChange={(conditions) => setCase(i, { ...c, conditions })}
            render={(item, j, set) => (
              <>
                <TextField label={`Case ${i + 1} value ${j + 1}`} value={item?.variable ?? ''} placeholder="rule.output.approved" onChange={(variable) => set({ ...item, variable })} />
                <ConditionField label={`Case ${i + 1} condition ${j + 1}`} stored={item?.decisionNode?.scalarCondition}
                  onChange={(scalarCondition) => set({ ...item, decisionNode: { ...item?.decisionNode, type: 0, scalarCondition } })} />
              </>
            )} />
          <button type="button" className="btn btn-small btn-ghost" onClick={() => props.onGraph(removeSwitchCase(props.graph, node.id, c.connectorId))}>Remove case {i + 1}</button>
        </fieldset>
      ))}
      <button type="button" className="btn btn-small" onClick={() => props.onGraph(addSwitchCase(props.graph, node.id))}>Add case</button>
    </>
  );
}

/** A condition in the table's one-line text form; written to the document as the table writes a cell. */
function ConditionField(props: { label: string; stored: unknown; onChange(value: unknown): void }) {
  const [text, setText] = useState(() => conditionText(props.stored));
  return <TextField label={props.label} value={text} placeholder="= true" onChange={(next) => { setText(next); props.onChange(cellFromText(next, 'input')); }} />;
}

function Connections(props: InspectorProps) {
  const { node, graph, format } = props;
  const outs = node.ports.filter((p) => p.direction === 'out');
  const incoming = graph.edges.filter((e) => e.target === node.id);
  const name = nodeLabel(node);
  // Only nodes an edge may lead to: with an input, and not closing a cycle.
  const targets = graph.nodes.filter((n) => n.ports.some((p) => p.direction === 'in') && !wouldCycle(graph, node.id, n.id));
  return (
    <section className="flow-connections" aria-label="Connections">
      <h3>Connections</h3>
      {incoming.length > 0 && (
        <p className="small">From {incoming.map((e) => nodeLabel(nodeById(graph, e.source) ?? node)).join(', ')}</p>
      )}
      {outs.map((port) => {
        const portName = format.portLabel(node, port);
        const suffix = outs.length > 1 ? ` (${portName})` : '';
        const edges = graph.edges.filter((e) => e.sourcePort === port.id);
        return (
          <div key={port.id} className="flow-port">
            <ul>
              {edges.map((e) => {
                const target = nodeLabel(nodeById(graph, e.target) ?? node);
                return (
                  <li key={e.id}>
                    {outs.length > 1 && <span className="muted">{portName} → </span>}{target}
                    {!props.readOnly && <button type="button" className="btn btn-small btn-ghost" aria-label={`Remove connection from ${name}${suffix} to ${target}`}
                      onClick={() => props.onGraph({ ...graph, edges: graph.edges.filter((x) => x.id !== e.id) })}>Remove</button>}
                  </li>
                );
              })}
            </ul>
            {!props.readOnly && (
              <label className="field field-compact">
                <span>Connect {name}{suffix} to</span>
                <select value="" onChange={(e) => { if (e.target.value) props.onConnect(port.id, e.target.value); }}>
                  <option value="">Choose a node…</option>
                  {targets.filter((t) => !edges.some((e) => e.target === t.id)).map((t) => <option key={t.id} value={t.id}>{nodeLabel(t)}</option>)}
                </select>
              </label>
            )}
          </div>
        );
      })}
    </section>
  );
}
