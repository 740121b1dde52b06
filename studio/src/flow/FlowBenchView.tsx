// The bench's view of a flow run: per node, whether it ran (and how often, inside loops), was canceled (an
// unselected Switch branch) or did not run, with what it read and what it produced.
import type { BenchViewProps } from '../kinds/types.ts';
import { label as nodeLabel, topologicalOrder } from './model/graph.ts';
import { typeLabel } from './model/format.ts';
import { nodeResults } from './model/trace.ts';
import type { NodeRun, RunStatus } from './model/trace.ts';
import { formatOf } from './formats.ts';

const STATUS_TEXT: Record<RunStatus, string> = { ran: 'Ran', canceled: 'Canceled', 'not-run': 'Did not run' };

function json(value: unknown): string {
  return value === undefined ? '—' : JSON.stringify(value, null, 2);
}

export function FlowBenchView(props: BenchViewProps) {
  const format = formatOf(props.rule.type);
  const graph = format.fromDocument(props.rule);
  const results = nodeResults(format.ruleType, graph, props.response.trace);
  if (!results) return <p className="muted small">The run left no trace to show per node.</p>;
  const order = topologicalOrder(graph);
  return (
    <section className="flow-bench" aria-label="Node results">
      <h3>Nodes</h3>
      <table className="mini-table" aria-label="Node results">
        <thead><tr><th scope="col">Node</th><th scope="col">Status</th><th scope="col">Input and output</th></tr></thead>
        <tbody>
          {order.map((node) => {
            const result = results.get(node.id)!;
            const name = `${typeLabel(format, node.type)}${node.name !== undefined && node.name !== node.type ? ` ${nodeLabel(node)}` : ''}`;
            return (
              <tr key={node.id} className={`run-${result.status}`}>
                <th scope="row">{name}</th>
                <td><span className={`run-badge run-${result.status}`}>{STATUS_TEXT[result.status]}{result.runs.length > 1 ? ` ×${result.runs.length}` : ''}</span></td>
                <td>{result.runs.filter((r) => r.input !== undefined || r.output !== undefined).map((run, i) => <RunDetails key={i} name={name} run={run} />)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function RunDetails(props: { name: string; run: NodeRun }) {
  const { run } = props;
  const where = run.iteration ? ` (item ${run.iteration.map((i) => i + 1).join('.')})` : '';
  return (
    <details className="flow-run">
      <summary>{run.status === 'canceled' ? 'canceled' : 'input and output'}{where}</summary>
      {run.input !== undefined && <><div className="muted small">Input</div><pre className="json-view" aria-label={`Input of ${props.name}${where}`}>{json(run.input)}</pre></>}
      {run.output !== undefined && <><div className="muted small">Output</div><pre className="json-view" aria-label={`Output of ${props.name}${where}`}>{json(run.output)}</pre></>}
      {/* A decision graph's node says what it did: a table's matched row, a switch's statements, a function's log. */}
      {run.traceData !== undefined && <><div className="muted small">Trace{run.performance ? ` (${run.performance})` : ''}</div><pre className="json-view" aria-label={`Trace of ${props.name}${where}`}>{json(run.traceData)}</pre></>}
    </details>
  );
}
