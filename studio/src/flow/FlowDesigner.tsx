// The flow designer (decision flows and rule flows): a React Flow canvas over the graph model (model/), with
// `Add node`, edges drawn by dragging from a port or chosen in the inspector's `Connect … to`, `Auto layout`,
// the server's problems on the nodes they concern, the last bench run's per-node status, and the input and
// output models. Every edit goes through the model and hands the shell a new document; positions are committed
// when a drag ends. A flow imported without positions is laid out by dagre when it opens.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow } from '@xyflow/react';
import type { Connection, Edge, EdgeChange, NodeChange } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './flow.css';
import type { RuleItem } from '../api/client.ts';
import { useStudio } from '../app/context.ts';
import type { DesignerProps } from '../kinds/types.ts';
import { ModelEditor } from '../designer/ModelEditor.tsx';
import { leafPaths } from '../designer/model/schema.ts';
import { FlowNodeCard } from './FlowNodeCard.tsx';
import type { FlowNodeCardNode } from './FlowNodeCard.tsx';
import { NodeInspector } from './NodeInspector.tsx';
import { addNode, connect, deleteNode, disconnect, label as nodeLabel, moveNodes, unconnectedNodes } from './model/graph.ts';
import type { FlowGraph, GraphNode, Point } from './model/graph.ts';
import { typeLabel } from './model/format.ts';
import type { FlowFormat } from './model/format.ts';
import { autoLayout, withLayout } from './model/layout.ts';
import type { Size } from './model/layout.ts';
import { problemsByNode } from './model/problems.ts';
import { nodeResults } from './model/trace.ts';
import { formatOf } from './formats.ts';
import { useDocumentHistory } from '../designer/useDocumentHistory.ts';
import { nodeSummary, nodeTone } from './summary.ts';

const NODE_TYPES = { flow: FlowNodeCard };

export function FlowDesigner(props: DesignerProps) {
  return (
    <ReactFlowProvider>
      <FlowCanvas {...props} format={formatOf(props.rule.type)} />
    </ReactFlowProvider>
  );
}

/** The expression editor's completions: the flow input's model, output paths and what each node exposes. */
function flowVariables(rule: DesignerProps['rule'], graph: FlowGraph): string[] {
  const exposed = graph.nodes.flatMap((n): string[] => {
    if (n.name === undefined) return [];
    switch (n.type) {
      case 'BUSINESS_RULE': return [`${n.name}.output`, `${n.name}.currentItem`];
      case 'FOREACH': return [`${n.name}.currentItem`, `${n.name}.index`, `${n.name}.length`];
      case 'VARIABLES': return (n.data?.variables ?? []).map((v: any) => `${n.name}.${v?.name}`);
      case 'HTTP_CLIENT': return [`${n.name}.data`, `${n.name}.status`, `${n.name}.responseOk`];
      case 'ARRAY_APPEND': return [n.name];
      default: return [];
    }
  });
  return ['input', ...leafPaths(rule.inputSchema).map((p) => `input.${p}`), ...leafPaths(rule.outputSchema).map((p) => `output.${p}`), ...exposed];
}

function FlowCanvas(props: DesignerProps & { format: FlowFormat }) {
  const { format, readOnly = false } = props;
  const history = useDocumentHistory(props.rule, props.onChange, readOnly);
  const rule = history.present;
  const { api } = useStudio();
  const flow = useReactFlow();
  const graph = useMemo(() => withLayout(format.fromDocument(rule)), [format, rule]);
  const [selected, setSelected] = useState<string | null>(null);
  const [measured, setMeasured] = useState<ReadonlyMap<string, Size>>(new Map());
  const [dragging, setDragging] = useState<ReadonlyMap<string, Point>>(new Map());
  const [message, setMessage] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  // True from a change that moves the view (a node added, a layout) until the view has stopped: the canvas is
  // aria-busy meanwhile, so nobody (a test's drag included) aims at a port that is about to move.
  const [refitting, setRefitting] = useState(false);
  const [view, setView] = useState<'flow' | 'input' | 'output'>('flow');
  const [rules, setRules] = useState<RuleItem[]>([]);

  useEffect(() => {
    let live = true;
    api.listItems().then((items) => { if (live) setRules(items); }, () => undefined);
    return () => { live = false; };
  }, [api]);

  /** An edit of the graph; edits with the same key in quick succession (typing in one node) are one undo step. */
  const commit = useCallback((next: FlowGraph, coalesceKey?: string) => {
    setMessage(null);
    history.apply(format.toDocument(rule, next), { coalesceKey });
  }, [format, rule, history]);

  function undoKeys(event: KeyboardEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement;
    // Text fields and expression editors keep their own undo.
    if (target.closest('input, textarea, select, [contenteditable="true"]') || !(event.ctrlKey || event.metaKey)) return;
    const key = event.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      event.preventDefault();
      history.step(key === 'y' || event.shiftKey ? 'redo' : 'undo');
    }
  }

  const problems = useMemo(() => problemsByNode(format, rule, props.problems), [format, rule, props.problems]);
  const results = useMemo(() => nodeResults(format.ruleType, graph, props.trace), [format, graph, props.trace]);
  const variablesKey = flowVariables(rule, graph).join('\n');
  const variables = useMemo(() => variablesKey.split('\n'), [variablesKey]);
  const rulesById = useMemo(() => new Map(rules.map((r) => [r.ruleId, r])), [rules]);
  const loose = unconnectedNodes(graph);

  const nodes: FlowNodeCardNode[] = useMemo(() => graph.nodes.map((n) => {
    const title = typeLabel(format, n.type);
    return {
      id: n.id,
      type: 'flow',
      position: dragging.get(n.id) ?? n.position ?? { x: 0, y: 0 },
      selected: n.id === selected,
      ...(measured.has(n.id) ? { measured: measured.get(n.id) } : {}),
      ariaLabel: `${title} node${n.name !== undefined && n.name !== n.type ? ` ${n.name}` : ''}`,
      deletable: !readOnly,
      data: {
        title,
        name: n.name !== undefined && n.name !== n.type ? n.name : undefined,
        portOwner: n.name ?? title,
        summary: nodeSummary(n, rulesById),
        tone: nodeTone(n.type),
        inPort: n.ports.find((p) => p.direction === 'in')?.id,
        outPorts: n.ports.filter((p) => p.direction === 'out').map((p) => ({ id: p.id, label: format.portLabel(n, p) })),
        problems: problems.get(n.id)?.length ?? 0,
        run: results?.get(n.id)?.status,
        readOnly,
      },
    };
  }), [graph, format, dragging, selected, measured, problems, results, rulesById, readOnly]);

  const edges: Edge[] = useMemo(() => graph.edges.map((e) => {
    const source = graph.nodes.find((n) => n.id === e.source);
    const target = graph.nodes.find((n) => n.id === e.target);
    const port = source?.ports.find((p) => p.id === e.sourcePort);
    const portName = source && port ? format.portLabel(source, port) : 'out';
    const ran = results && results.get(e.source)?.status === 'ran' && results.get(e.target)?.status === 'ran';
    return {
      id: e.id, source: e.source, sourceHandle: e.sourcePort, target: e.target, targetHandle: e.targetPort,
      ariaLabel: `Connection from ${source ? nodeLabel(source) : e.source}${portName !== 'out' ? ` (${portName})` : ''} to ${target ? nodeLabel(target) : e.target}`,
      animated: !!ran,
      deletable: !readOnly,
      className: ran ? 'edge-ran' : undefined,
    };
  }), [graph, format, results, readOnly]);

  function onNodesChange(changes: NodeChange<FlowNodeCardNode>[]) {
    const sizes = new Map(measured);
    let sized = false;
    const moving = new Map(dragging);
    const done = new Map<string, Point>();
    let next = graph;
    for (const change of changes) {
      if (change.type === 'dimensions' && change.dimensions) {
        sizes.set(change.id, change.dimensions);
        sized = true;
      } else if (change.type === 'position' && change.position) {
        if (change.dragging) moving.set(change.id, change.position);
        else done.set(change.id, { x: Math.round(change.position.x), y: Math.round(change.position.y) });
      } else if (change.type === 'position' && !change.dragging && moving.has(change.id)) {
        const at = moving.get(change.id)!;
        done.set(change.id, { x: Math.round(at.x), y: Math.round(at.y) });
      } else if (change.type === 'select') {
        if (change.selected) setSelected(change.id);
        else setSelected((current) => (current === change.id ? null : current));
      } else if (change.type === 'remove' && !readOnly) {
        next = deleteNode(next, change.id);
      }
    }
    for (const id of done.keys()) moving.delete(id);
    if (sized) setMeasured(sizes);
    if (moving.size !== dragging.size || [...moving].some(([id, p]) => dragging.get(id) !== p)) setDragging(moving);
    if (done.size > 0) next = moveNodes(next, done);
    if (next !== graph) commit(next);
  }

  function onEdgesChange(changes: EdgeChange[]) {
    let next = graph;
    for (const change of changes) if (change.type === 'remove' && !readOnly) next = disconnect(next, change.id);
    if (next !== graph) commit(next);
  }

  function link(sourcePort: string, target: string, targetPort?: string) {
    const result = connect(graph, sourcePort, target, targetPort);
    if ('error' in result) setMessage(result.error);
    else commit(result.graph);
  }

  function onConnect(connection: Connection) {
    if (connection.sourceHandle) link(connection.sourceHandle, connection.target, connection.targetHandle ?? undefined);
  }

  function add(type: string) {
    setAdding(false);
    const anchor = graph.nodes.find((n) => n.id === selected) ?? graph.nodes.reduce<GraphNode | undefined>((right, n) => (!right || (n.position?.x ?? 0) > (right.position?.x ?? 0) ? n : right), undefined);
    const position = anchor?.position ? { x: anchor.position.x + 240, y: anchor.position.y } : { x: 40, y: 120 };
    // Below any node already there, so the new one is never hidden under another.
    while (graph.nodes.some((n) => n.position && Math.abs(n.position.x - position.x) < 180 && Math.abs(n.position.y - position.y) < 90)) position.y += 110;
    const node = format.createNode(graph, type, position);
    commit(addNode(graph, node));
    setSelected(node.id);
    refit();
  }

  /** Fits the view to the nodes once they are rendered (a tick later), animated. */
  function refit() {
    setRefitting(true);
    window.setTimeout(() => {
      flow.fitView({ padding: 0.2, duration: 200, maxZoom: 1.2 }).then(
        () => setRefitting(false),
        () => setRefitting(false),
      );
    }, 50);
  }

  /** The menu pattern: arrows move between the node types, Escape closes and gives focus back to `Add node`. */
  function menuKeys(event: KeyboardEvent<HTMLDivElement>) {
    const items = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    } else if (event.key === 'Escape') {
      setAdding(false);
      (event.currentTarget.previousElementSibling as HTMLElement | null)?.focus();
    }
  }

  function layout() {
    commit(autoLayout(graph, measured));
    refit();
  }

  const selectedNode = graph.nodes.find((n) => n.id === selected);
  const present = new Set(graph.nodes.map((n) => n.type));
  const kindLabel = format.ruleType === 'workflow' ? 'Decision flow' : 'Rule flow';

  return (
    <div className="flow-designer" onKeyDown={undoKeys}>
      <div className="flow-toolbar" role="toolbar" aria-label={`${kindLabel} tools`}>
        <div className="segmented" role="radiogroup" aria-label="Designer view">
          <label><input type="radio" name="flow-view" checked={view === 'flow'} onChange={() => setView('flow')} /> Flow</label>
          <label><input type="radio" name="flow-view" checked={view === 'input'} onChange={() => setView('input')} /> Input model</label>
          <label><input type="radio" name="flow-view" checked={view === 'output'} onChange={() => setView('output')} /> Output model</label>
        </div>
        {view === 'flow' && !readOnly && (
          <div className="flow-add">
            <button type="button" className="btn btn-small btn-primary" aria-haspopup="menu" aria-expanded={adding} onClick={() => setAdding(!adding)}>Add node</button>
            {adding && (
              <div role="menu" aria-label="Node types" className="flow-add-menu" onKeyDown={menuKeys}>
                {format.nodeTypes.map((t, i) => (
                  <button key={t.type} type="button" role="menuitem" disabled={t.single && present.has(t.type)} onClick={() => add(t.type)}
                    autoFocus={i === format.nodeTypes.findIndex((x) => !(x.single && present.has(x.type)))}>
                    <strong>{t.label}</strong><span>{t.description}</span>
                  </button>
                ))}
              </div>
            )}
          </div>
        )}
        {view === 'flow' && !readOnly && <button type="button" className="btn btn-small" onClick={layout}>Auto layout</button>}
        {!readOnly && (
          <>
            <button type="button" className="btn btn-small" disabled={!history.canUndo} onClick={() => history.step('undo')} title="Undo (Ctrl+Z)">Undo</button>
            <button type="button" className="btn btn-small" disabled={!history.canRedo} onClick={() => history.step('redo')} title="Redo (Ctrl+Shift+Z, Ctrl+Y)">Redo</button>
          </>
        )}
        <span className="muted small flow-count">{graph.nodes.length} node{graph.nodes.length === 1 ? '' : 's'} · {graph.edges.length} connection{graph.edges.length === 1 ? '' : 's'}</span>
        <span role="status" aria-live="polite" className="flow-message">{message}</span>
      </div>
      {loose.length > 0 && (
        <div className="banner banner-warning small" role="note" aria-label="Unconnected nodes">
          Not connected to the start, so {format.ruleType === 'workflow' ? 'never run' : 'not solved (kept in the layout)'}: {loose.map((n) => nodeLabel(n)).join(', ')}.
        </div>
      )}
      {view === 'flow' ? (
        <div className="flow-body">
          <div className="flow-canvas" aria-label={`${kindLabel} canvas`} role="region" aria-busy={refitting}>
            <ReactFlow
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onPaneClick={() => setSelected(null)}
              nodesDraggable={!readOnly}
              nodesConnectable={!readOnly}
              deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
              fitView
              fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }}
              minZoom={0.2}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={16} size={1} />
              <Controls showInteractive={false} />
              <MiniMap pannable zoomable ariaLabel="Flow overview" style={{ width: 140, height: 90 }} />
            </ReactFlow>
          </div>
          <aside className="flow-inspector" aria-label="Node inspector">
            {selectedNode ? (
              <NodeInspector key={selectedNode.id} format={format} graph={graph} node={selectedNode} rules={rules} selfId={rule.ruleId}
                problems={problems.get(selectedNode.id) ?? []} variables={variables} readOnly={readOnly}
                onGraph={(next) => commit(next, `node:${selectedNode.id}`)} onConnect={(port, target) => link(port, target)}
                onDelete={() => { commit(deleteNode(graph, selectedNode.id)); setSelected(null); }} />
            ) : (
              <div className="flow-inspector-body">
                <h2>Nodes</h2>
                <p className="muted small">Click a node to edit it, or choose it here. Drag from a port on a node's right edge to another node to connect them.</p>
                <ul className="flow-node-list">
                  {graph.nodes.map((n) => (
                    <li key={n.id}>
                      <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected(n.id)}>
                        Edit {typeLabel(format, n.type)}{n.name !== undefined && n.name !== n.type ? ` ${n.name}` : ''}
                      </button>
                      {(problems.get(n.id)?.length ?? 0) > 0 && <span className="flow-node-problems">{problems.get(n.id)!.length} problem(s)</span>}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </aside>
        </div>
      ) : (
        <div className="flow-model">
          <ModelEditor key={view} label={view === 'input' ? 'Input model' : 'Output model'} readOnly={readOnly}
            schema={view === 'input' ? rule.inputSchema : rule.outputSchema}
            onChange={(schema) => history.apply({ ...rule, [view === 'input' ? 'inputSchema' : 'outputSchema']: schema }, { coalesceKey: `model:${view}` })} />
        </div>
      )}
    </div>
  );
}
