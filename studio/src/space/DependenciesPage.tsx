// Which rules a rule uses, transitively (GET /api/tools/dependencies): a graph drawn with React Flow and laid out
// by dagre (callers above the rules they call; edges say how: flow node, LOOKUP, SOLVE), and the same edges as a
// table. Clicking a node (or a link in the table) opens that rule; references to no stored rule are marked.
import { useEffect, useMemo, useState } from 'react';
import { Background, Controls, MarkerType, ReactFlow } from '@xyflow/react';
import type { Edge, Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { RuleItem } from '../api/client.ts';
import { useStudio } from '../app/context.ts';
import { href, navigate } from '../app/router.ts';
import { TYPE_LABELS } from '../rules/RuleList.tsx';
import { EmptyState, ErrorState, Loading } from '../ui/states.tsx';
import { spaceApi } from './api.ts';
import { EDGE_LABELS, buildGraph, layoutGraph } from './graph.ts';
import type { DependencyGraph, GraphNode } from './graph.ts';

function latestByRule(items: RuleItem[]): RuleItem[] {
  const latest = new Map<string, RuleItem>();
  for (const item of items) if ((latest.get(item.ruleId)?.version ?? 0) < item.version) latest.set(item.ruleId, item);
  return [...latest.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function NodeLabel(props: { node: GraphNode }) {
  const { node } = props;
  return (
    <div className="dep-node-body">
      <strong>{node.name}</strong>
      <span className="muted small">{node.missing ? 'not found in this space' : `${TYPE_LABELS[node.type ?? ''] ?? node.type} · ${node.alias ?? node.ruleId}${node.version !== undefined ? ` v${node.version}` : ''}`}</span>
    </div>
  );
}

function flowOf(graph: DependencyGraph): { nodes: Node[]; edges: Edge[] } {
  const positions = new Map(layoutGraph(graph).map((p) => [p.id, p]));
  return {
    nodes: graph.nodes.map((node) => ({
      id: node.id,
      position: { x: positions.get(node.id)!.x, y: positions.get(node.id)!.y },
      data: { label: <NodeLabel node={node} /> },
      className: `dep-node${node.root ? ' dep-node-root' : ''}${node.missing ? ' dep-node-missing' : ''}`,
      draggable: false,
      connectable: false,
      ariaRole: node.missing ? 'note' : 'button',
      ariaLabel: node.missing ? `${node.name} (not found)` : `Open ${node.name}`,
    })),
    edges: graph.edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      label: EDGE_LABELS[edge.kind],
      className: `dep-edge dep-edge-${edge.kind}`,
      markerEnd: { type: MarkerType.ArrowClosed },
      focusable: false,
    })),
  };
}

export function DependenciesPage(props: { id?: string }) {
  const { api } = useStudio();
  const [items, setItems] = useState<RuleItem[] | null>(null);
  const [graph, setGraph] = useState<DependencyGraph | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => { api.listItems().then(setItems, () => setItems([])); }, [api]);
  useEffect(() => {
    setGraph(null);
    setError(null);
    if (props.id === undefined) return;
    spaceApi.dependencies(api, props.id).then(
      (deps) => setGraph(buildGraph(deps)),
      (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
    );
  }, [api, props.id]);

  const rules = useMemo(() => latestByRule(items ?? []), [items]);
  const flow = useMemo(() => (graph ? flowOf(graph) : null), [graph]);
  const byId = useMemo(() => new Map(graph?.nodes.map((n) => [n.id, n]) ?? []), [graph]);
  const open = (node: GraphNode | undefined) => {
    if (node && !node.missing) navigate({ page: 'rule', id: node.ruleId, version: node.version ?? 'latest' });
  };

  return (
    <section className="content space-page" aria-labelledby="deps-title">
      <div className="content-header">
        <div>
          <h1 id="deps-title">Dependencies</h1>
          <p className="muted">The rules a rule uses through flow nodes, LOOKUP and SOLVE, transitively, as a solve resolves them. Click a rule to open it.</p>
        </div>
        <label className="field field-inline">
          <span>Rule</span>
          <select value={props.id ?? ''} onChange={(e) => navigate(e.target.value ? { page: 'dependencies', id: e.target.value } : { page: 'dependencies' })}>
            <option value="">Choose a rule…</option>
            {props.id !== undefined && !rules.some((r) => r.ruleId === props.id) && <option value={props.id}>{props.id}</option>}
            {rules.map((r) => <option key={r.ruleId} value={r.ruleId}>{r.name}</option>)}
          </select>
        </label>
      </div>
      {props.id === undefined && <EmptyState title="Choose a rule"><p>Pick a rule above to see which rules it uses.</p></EmptyState>}
      {error && <ErrorState title="The dependencies could not be loaded" message={error} />}
      {props.id !== undefined && !error && !graph && <Loading label="Following the rule's references…" />}
      {graph && flow && (
        <>
          {graph.edges.length === 0 && <p className="muted">This rule uses no other rule.</p>}
          <div className="dep-graph" aria-label="Dependency graph">
            <ReactFlow nodes={flow.nodes} edges={flow.edges} fitView fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }} minZoom={0.2}
              nodesDraggable={false} nodesConnectable={false} elementsSelectable={false} proOptions={{ hideAttribution: true }}
              onNodeClick={(_event, node) => open(byId.get(node.id))}>
              <Background gap={20} />
              <Controls showInteractive={false} />
            </ReactFlow>
          </div>
          {graph.edges.length > 0 && (
            <table className="data-table" aria-label="Uses">
              <thead><tr><th scope="col">Rule</th><th scope="col">Uses</th><th scope="col">How</th></tr></thead>
              <tbody>
                {graph.edges.map((edge) => {
                  const from = byId.get(edge.source)!;
                  const to = byId.get(edge.target)!;
                  return (
                    <tr key={edge.id}>
                      <td><a href={href({ page: 'rule', id: from.ruleId, version: from.version ?? 'latest' })}>{from.name}</a></td>
                      <td>{to.missing ? <span className="muted">{to.name} (not found)</span> : <a href={href({ page: 'rule', id: to.ruleId, version: to.version ?? 'latest' })}>{to.name}</a>}</td>
                      <td>{EDGE_LABELS[edge.kind]}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
