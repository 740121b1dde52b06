// The flow designer (decision flows and rule flows): a React Flow canvas over the graph model (model/), with
// `Add node`, edges drawn by dragging from a port or chosen in the inspector's `Connect … to`, `Auto layout`,
// the server's problems on the nodes they concern, the last bench run's per-node status, and the input and
// output models. Every edit goes through the model and hands the shell a new document; positions are committed
// when a drag ends. A flow imported without positions is laid out by dagre when it opens. Decision graphs use the
// same canvas with their format's extension (flow/extension.ts): their inspector forms, and a node's view (the
// table grid) in the canvas's place.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, useNodesInitialized, useReactFlow, useStore, useStoreApi } from '@xyflow/react';
import type { Connection, Edge, EdgeChange, FitViewOptions, NodeChange, ReactFlowInstance } from '@xyflow/react';
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
import type { FlowExtension } from './extension.ts';
import { addNode, connect, deleteNode, disconnect, label as nodeLabel, moveNodes, unconnectedNodes } from './model/graph.ts';
import type { FlowGraph, GraphNode, Point } from './model/graph.ts';
import { typeLabel } from './model/format.ts';
import type { FlowFormat } from './model/format.ts';
import { autoLayout, withLayout } from './model/layout.ts';
import type { Size } from './model/layout.ts';
import { problemsByNode } from './model/problems.ts';
import { nodeResults, portTaken } from './model/trace.ts';
import { formatOf } from './formats.ts';
import { useDocumentHistory } from '../designer/useDocumentHistory.ts';
import { nodeSummary, nodeTone } from './summary.ts';
import { firstView, MAX_ZOOM, MIN_ZOOM, viewOnNode } from './view.ts';
import type { Rect, Size as CanvasSize, Viewport } from './view.ts';

const NODE_TYPES = { flow: FlowNodeCard };

/** `Fit View` (the canvas controls) shows the whole flow, however small that makes it: the user asked for it. */
const FIT_ALL: FitViewOptions<FlowNodeCardNode> = { padding: 0.1, duration: 200, minZoom: MIN_ZOOM, maxZoom: 1 };

/** The minimap's node colours, by the card's tone (as flow.css colours the cards' edges). */
const TONE_COLOURS: Record<string, string> = { terminal: '#64748b', rule: '#3b5bdb', control: '#b45309', data: '#0e7490', io: '#7c3aed' };

/** The start node (`START`, `start`, a graph's input), else the first node: where a flow is read from. */
function startOf(format: FlowFormat, graph: FlowGraph): GraphNode | undefined {
  return graph.nodes.find((n) => n.type === format.startType) ?? graph.nodes[0];
}

/** A node's box in flow coordinates; a node not measured yet (just added) counts as a card's usual size. */
function boxOf(flow: ReactFlowInstance<FlowNodeCardNode>, id: string): Rect {
  const box = flow.getNodesBounds([id]);
  return { x: box.x, y: box.y, width: box.width || 190, height: box.height || 60 };
}

/**
 * Sets the first view once React Flow has measured the nodes (again each time the canvas mounts, e.g. back from
 * the input model): readable, from the start node. `onShown` ends the canvas's busy state.
 */
function FirstView({ startId, onShown }: { startId: string | undefined; onShown: () => void }) {
  const flow = useReactFlow<FlowNodeCardNode>();
  const store = useStoreApi<FlowNodeCardNode>();
  const initialized = useNodesInitialized();
  const width = useStore((s) => s.width);
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    if (startId === undefined) {
      shown.current = true;
      onShown();
      return;
    }
    if (!initialized || width === 0) return;
    shown.current = true;
    const { height } = store.getState();
    flow.setViewport(firstView(flow.getNodesBounds(flow.getNodes()), boxOf(flow, startId), { width, height })).then(onShown, onShown);
  }, [flow, store, initialized, width, startId, onShown]);
  return null;
}

export function FlowDesigner(props: DesignerProps & { extension?: FlowExtension }) {
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

function FlowCanvas(props: DesignerProps & { format: FlowFormat; extension?: FlowExtension }) {
  const { format, extension, readOnly = false } = props;
  const history = useDocumentHistory(props.rule, props.onChange, readOnly);
  const rule = history.present;
  const { api } = useStudio();
  const flow = useReactFlow<FlowNodeCardNode>();
  const store = useStoreApi<FlowNodeCardNode>();
  const graph = useMemo(() => withLayout(format.fromDocument(rule)), [format, rule]);
  const [selected, setSelected] = useState<string | null>(null);
  const [measured, setMeasured] = useState<ReadonlyMap<string, Size>>(new Map());
  const [dragging, setDragging] = useState<ReadonlyMap<string, Point>>(new Map());
  const [message, setMessage] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  // True from a change that moves the view (the first view, a node added, a layout, Fit View) until the view has
  // stopped: the canvas is aria-busy meanwhile, so nobody (a test's drag included) aims at a port about to move.
  const [refitting, setRefitting] = useState(true);
  const viewShown = useCallback(() => setRefitting(false), []);
  // The side panel (the nodes list, or the inspector of the selected node) can be hidden to give the canvas its width.
  const [panelOpen, setPanelOpen] = useState(true);
  const panelId = useId();
  const [view, setView] = useState<'flow' | 'input' | 'output' | 'node'>('flow');
  /** The node whose view (extension.NodeView) is open while `view` is 'node'. */
  const [viewed, setViewed] = useState<string | null>(null);
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
  const loose = unconnectedNodes(graph, format.startType);

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
    const ran = results && source && portTaken(source, e.sourcePort, results.get(e.source)) && results.get(e.target)?.status === 'ran';
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
    refit((bounds, canvas, current) => viewOnNode(current, bounds, boxOf(flow, node.id), canvas));
  }

  /**
   * Moves the view, animated, once the edited nodes are rendered (a tick later): to the whole flow when it fits at
   * a readable zoom, else where `place` says (onto the new node, the start), never zoomed out below readable.
   */
  function refit(place: (bounds: Rect, canvas: CanvasSize, current: Viewport) => Viewport) {
    setRefitting(true);
    window.setTimeout(() => {
      const { width, height, transform } = store.getState();
      const nodes = flow.getNodes();
      if (nodes.length === 0 || width === 0) {
        setRefitting(false);
        return;
      }
      flow.setViewport(place(flow.getNodesBounds(nodes), { width, height }, { x: transform[0], y: transform[1], zoom: transform[2] }), { duration: 200 }).then(
        () => setRefitting(false),
        () => setRefitting(false),
      );
    }, 50);
  }

  /** `Fit View` of the canvas controls: the controls start the fit; the same call here tells when it has ended. */
  function fitAll() {
    setRefitting(true);
    flow.fitView(FIT_ALL).then(() => setRefitting(false), () => setRefitting(false));
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
    const start = startOf(format, graph);
    refit((bounds, canvas) => firstView(bounds, start ? boxOf(flow, start.id) : bounds, canvas));
  }

  function showView(next: 'flow' | 'input' | 'output' | 'node') {
    // Back on the flow, the canvas mounts again and is busy until its first view is set.
    if (next === 'flow' && view !== 'flow') setRefitting(true);
    setView(next);
  }

  /** Opens a node's own view (a graph's table in the grid) in the canvas's place. */
  function openNode(id: string) {
    const target = graph.nodes.find((n) => n.id === id);
    if (!target || !extension?.NodeView || !extension.viewLabel?.(target)) return;
    setSelected(id);
    setViewed(id);
    showView('node');
  }

  const selectedNode = graph.nodes.find((n) => n.id === selected);
  const viewedNode = view === 'node' ? graph.nodes.find((n) => n.id === viewed) : undefined;
  // The viewed node is gone (undone, deleted): back to the canvas.
  if (view === 'node' && !viewedNode) showView('flow');
  const present = new Set(graph.nodes.map((n) => n.type));
  const kindLabel = format.label;
  const NodeView = extension?.NodeView;

  return (
    <div className="flow-designer" onKeyDown={undoKeys}>
      <div className="flow-toolbar" role="toolbar" aria-label={`${kindLabel} tools`}>
        <div className="segmented" role="radiogroup" aria-label="Designer view">
          <label><input type="radio" name="flow-view" checked={view === 'flow'} onChange={() => showView('flow')} /> Flow</label>
          <label><input type="radio" name="flow-view" checked={view === 'input'} onChange={() => showView('input')} /> Input model</label>
          <label><input type="radio" name="flow-view" checked={view === 'output'} onChange={() => showView('output')} /> Output model</label>
        </div>
        {viewedNode && <strong className="flow-node-view-title">{typeLabel(format, viewedNode.type)} {viewedNode.name}</strong>}
        {view === 'flow' && !readOnly && (
          <div className="flow-add">
            <button type="button" className="btn btn-small btn-primary" aria-haspopup="menu" aria-expanded={adding} onClick={() => setAdding(!adding)}>Add node</button>
            {adding && (
              <div role="menu" aria-label="Node types" className="flow-add-menu" onKeyDown={menuKeys}>
                {format.nodeTypes.filter((t) => !t.hidden).map((t, i, offered) => (
                  <button key={t.type} type="button" role="menuitem" disabled={t.single && present.has(t.type)} onClick={() => add(t.type)}
                    autoFocus={i === offered.findIndex((x) => !(x.single && present.has(x.type)))}>
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
        {view === 'flow' && (
          <button type="button" className="btn btn-small flow-panel-toggle" aria-expanded={panelOpen} aria-controls={panelId} onClick={() => setPanelOpen(!panelOpen)}>
            {panelOpen ? 'Hide' : 'Show'} {selectedNode ? 'inspector' : 'nodes list'}
          </button>
        )}
        <span className="muted small flow-count">{graph.nodes.length} node{graph.nodes.length === 1 ? '' : 's'} · {graph.edges.length} connection{graph.edges.length === 1 ? '' : 's'}</span>
        <span role="status" aria-live="polite" className="flow-message">{message}</span>
      </div>
      {loose.length > 0 && (
        <div className="banner banner-warning small" role="note" aria-label="Unconnected nodes">
          Not connected to the start, so {format.ruleType === 'composition' ? 'not solved (kept in the layout)' : 'never run'}: {loose.map((n) => nodeLabel(n)).join(', ')}.
        </div>
      )}
      {view === 'flow' ? (
        <div className={`flow-body${panelOpen ? '' : ' flow-body-wide'}`}>
          <div className="flow-canvas" aria-label={`${kindLabel} canvas`} role="region" aria-busy={refitting}>
            <ReactFlow
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onPaneClick={() => setSelected(null)}
              onNodeDoubleClick={(_event, n) => openNode(n.id)}
              nodesDraggable={!readOnly}
              nodesConnectable={!readOnly}
              deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
              minZoom={MIN_ZOOM}
              maxZoom={MAX_ZOOM}
              proOptions={{ hideAttribution: true }}
            >
              <FirstView startId={startOf(format, graph)?.id} onShown={viewShown} />
              <Background gap={16} size={1} />
              <Controls showInteractive={false} fitViewOptions={FIT_ALL} onFitView={fitAll} />
              <MiniMap pannable zoomable ariaLabel="Flow overview" style={{ width: 180, height: 110 }}
                nodeColor={(n) => TONE_COLOURS[String(n.data.tone)] ?? '#94a3b8'} nodeBorderRadius={3}
                maskColor="rgba(226, 232, 240, 0.6)" maskStrokeColor="#3b5bdb" maskStrokeWidth={2} />
            </ReactFlow>
          </div>
          <aside className="flow-inspector" aria-label="Node inspector" id={panelId} hidden={!panelOpen}>
            {selectedNode ? (
              <NodeInspector key={selectedNode.id} format={format} extension={extension} onOpenView={() => openNode(selectedNode.id)} graph={graph} node={selectedNode} rules={rules} selfId={rule.ruleId}
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
      ) : view === 'node' && viewedNode && NodeView ? (
        <div className="flow-node-view">
          <NodeView key={viewedNode.id} graph={graph} node={viewedNode} readOnly={readOnly} problems={problems.get(viewedNode.id) ?? []}
            run={results?.get(viewedNode.id)} onGraph={(next, key) => commit(next, key)} onClose={() => showView('flow')} />
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
