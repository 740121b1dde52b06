// What the bench's trace says about each node of a flow. Decision flows trace one entry per node run
// ({nodeId, name, type, status, iteration?, input?, output?}, src/engine/flow/workflow.ts); rule flows one per rule
// node and one for the end ({globalVariable, input, output}, src/engine/flow/composition.ts). Nodes the trace does
// not mention did not run; a START ran when anything ran; an END ran when a node before it ran and sent the run
// on along the connection into it. Decision graphs trace one entry per node that ran ({id, name, type, input,
// output, performance?, traceData?}, zen's trace; an object keyed by node id is read as well).
import type { FlowGraph, GraphNode } from './graph.ts';
import { isRecord } from './format.ts';

export type RunStatus = 'ran' | 'canceled' | 'not-run';

export interface NodeRun {
  status: 'done' | 'canceled';
  /** Indexes of the enclosing loops' items, outermost first (decision flows). */
  iteration?: number[];
  input?: unknown;
  output?: unknown;
  /** What the node says about its run (decision graphs: a table's matched rows, zen's traceData). */
  traceData?: unknown;
  /** How long the node took, as the engine reports it ("0.1ms"). */
  performance?: string;
}

export interface NodeResult {
  status: RunStatus;
  runs: NodeRun[];
}

/** The per-node results of a bench run, by node id; undefined when there is no trace. */
export function nodeResults(ruleType: string, graph: FlowGraph, trace: unknown): Map<string, NodeResult> | undefined {
  // Bulk input: the first input's trace. zen keys its trace by node id: its values are the entries.
  const first = Array.isArray(trace) && (Array.isArray(trace[0]) || (ruleType === 'decision-graph' && isRecord(trace[0]) && !('id' in trace[0]))) ? trace[0] : trace;
  const entries: unknown[] | undefined = Array.isArray(first) ? first : ruleType === 'decision-graph' && isRecord(first) ? Object.values(first) : undefined;
  if (!entries) return undefined;
  const runs = new Map<string, NodeRun[]>();
  const add = (id: string | undefined, run: NodeRun) => {
    if (id === undefined) return;
    runs.set(id, [...(runs.get(id) ?? []), run]);
  };
  for (const entry of entries.filter(isRecord)) {
    if (ruleType === 'decision-graph') {
      const run: NodeRun = { status: 'done', input: entry.input, output: entry.output };
      if (entry.traceData !== undefined && entry.traceData !== null) run.traceData = entry.traceData;
      if (typeof entry.performance === 'string') run.performance = entry.performance;
      add(typeof entry.id === 'string' ? entry.id : undefined, run);
    } else if (ruleType === 'composition') {
      const node = graph.nodes.find((n) => n.name === entry.globalVariable);
      add(node?.id, { status: 'done', input: entry.input, output: entry.output });
    } else {
      const run: NodeRun = { status: entry.status === 'canceled' ? 'canceled' : 'done' };
      if (Array.isArray(entry.iteration)) run.iteration = entry.iteration as number[];
      if ('input' in entry) run.input = entry.input;
      if ('output' in entry) run.output = entry.output;
      add(typeof entry.nodeId === 'string' ? entry.nodeId : undefined, run);
    }
  }
  const results = new Map<string, NodeResult>();
  const statusOf = (list: NodeRun[] | undefined): RunStatus => (!list?.length ? 'not-run' : list.some((r) => r.status === 'done') ? 'ran' : 'canceled');
  for (const node of graph.nodes) results.set(node.id, { status: statusOf(runs.get(node.id)), runs: runs.get(node.id) ?? [] });

  const anything = entries.length > 0;
  for (const node of graph.nodes) {
    const result = results.get(node.id)!;
    if (result.status !== 'not-run') continue;
    if (node.type === 'start' || (node.type === 'START' && anything)) results.set(node.id, { status: 'ran', runs: [] });
    else if (node.type === 'END') results.set(node.id, { status: endStatus(graph, node, results), runs: [] });
  }
  return results;
}

function endStatus(graph: FlowGraph, end: GraphNode, results: ReadonlyMap<string, NodeResult>): RunStatus {
  let canceled = false;
  for (const edge of graph.edges.filter((e) => e.target === end.id)) {
    const source = graph.nodes.find((n) => n.id === edge.source);
    const result = results.get(edge.source);
    if (!source || !result || result.status === 'not-run') continue;
    if (result.status === 'canceled') {
      canceled = true;
      continue;
    }
    if (source.type !== 'IF_STATEMENT') return 'ran';
    // A Switch sends the run on only along the cases that passed (its output lists their names).
    const passed = result.runs.flatMap((r) => (isRecord(r.output) && Array.isArray(r.output.cases) ? r.output.cases : []));
    const chosen = (source.data?.cases ?? []).find((c: any) => c?.connectorId === edge.sourcePort);
    if (chosen && passed.includes(chosen.name)) return 'ran';
    canceled = true;
  }
  return canceled ? 'canceled' : 'not-run';
}

/**
 * Whether a run left `node` through `portId`. A decision graph's switch names the statements it took
 * (traceData `{statements: [{id}]}`); any other node that ran sends the run along every out-port.
 */
export function portTaken(node: GraphNode, portId: string, result: NodeResult | undefined): boolean {
  if (!result || result.status !== 'ran') return false;
  if (node.type !== 'switchNode') return true;
  const handle = node.ports.find((p) => p.id === portId)?.extra?.handle;
  return result.runs.some((run) => isRecord(run.traceData) && Array.isArray(run.traceData.statements)
    && run.traceData.statements.some((s: unknown) => isRecord(s) && s.id === handle));
}
