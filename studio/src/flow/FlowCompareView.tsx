// Two versions of a flow compared: a list of the nodes and connections added, removed, changed or moved.
import { useMemo } from 'react';
import type { CompareProps } from '../kinds/types.ts';
import { diffFlows } from './model/diff.ts';
import type { ChangeKind } from './model/diff.ts';
import { formatOf } from './formats.ts';

const KIND_TEXT: Record<ChangeKind, string> = { added: 'only right', removed: 'only left', changed: 'changed', moved: 'moved' };

export function FlowCompareView(props: CompareProps) {
  const differences = useMemo(() => diffFlows(formatOf(props.left.type), props.left, props.right), [props.left, props.right]);
  const real = differences.filter((d) => d.kind !== 'moved');
  return (
    <div className="compare">
      <div className="compare-toolbar">
        <span className="compare-count" aria-live="polite">
          {real.length === 0 ? 'No differences' : `${real.length} difference${real.length === 1 ? '' : 's'}`}
          {differences.length > real.length && ` (and ${differences.length - real.length} node${differences.length - real.length === 1 ? '' : 's'} moved)`}
        </span>
      </div>
      {differences.length > 0 && (
        <table className="mini-table" aria-label={`Comparison of ${props.leftLabel} and ${props.rightLabel}`}>
          <thead><tr><th scope="col">Change</th><th scope="col">Node or connection</th><th scope="col">What changed</th></tr></thead>
          <tbody>
            {differences.map((d, i) => (
              <tr key={i} className={`flow-diff-${d.kind}`}>
                <td>{KIND_TEXT[d.kind]}</td>
                <td>{d.what === 'connection' ? 'Connection ' : ''}{d.subject}</td>
                <td>{d.details.map((x) => <code key={x} className="flow-diff-detail">{x}</code>)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
