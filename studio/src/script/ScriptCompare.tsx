// Two versions of a scripting rule: the changes of name, alias, description and models listed, then the script as
// a line diff (removed lines marked −, added +, with the line numbers of both sides).
import { useMemo } from 'react';
import type { CompareProps } from '../kinds/types.ts';
import { documentDifferences } from '../compare/diff.ts';
import { diffLines } from '../compare/lines.ts';

function scriptOf(rule: CompareProps['left']): string {
  return typeof rule.script === 'string' ? rule.script : '';
}

export function ScriptCompare(props: CompareProps) {
  const lines = useMemo(() => diffLines(scriptOf(props.left), scriptOf(props.right)), [props.left, props.right]);
  const notes = useMemo(() => documentDifferences(props.left, props.right).map((d) => d.label), [props.left, props.right]);
  // a run of removed and added lines is one change
  const changes = lines.filter((line, i) => line.kind !== 'same' && (i === 0 || lines[i - 1]!.kind === 'same')).length;
  const total = notes.length + changes;
  return (
    <div className="compare">
      <div className="compare-toolbar">
        <span className="compare-count" aria-live="polite">
          {total === 0 ? 'No differences' : `${total} difference${total === 1 ? '' : 's'}`}
          {changes > 0 && ` (${changes} in the script)`}
        </span>
        <span className="legend"><span className="swatch swatch-left" /> only in {props.leftLabel} <span className="swatch swatch-right" /> only in {props.rightLabel}</span>
      </div>
      {notes.length > 0 && <ul className="compare-notes">{notes.map((n) => <li key={n}>{n}</li>)}</ul>}
      <table className="sc-diff" aria-label={`Comparison of ${props.leftLabel} and ${props.rightLabel}`}>
        <thead>
          <tr><th scope="col">{props.leftLabel}</th><th scope="col">{props.rightLabel}</th><th scope="col"><span className="visually-hidden">Change</span></th><th scope="col">Script</th></tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            <tr key={i} className={`sc-diff-${line.kind}`}>
              <td className="sc-diff-number">{line.left ?? ''}</td>
              <td className="sc-diff-number">{line.right ?? ''}</td>
              <td className="sc-diff-mark">{line.kind === 'removed' ? '−' : line.kind === 'added' ? '+' : ''}<span className="visually-hidden">{line.kind === 'same' ? '' : line.kind}</span></td>
              <td><code>{line.text}</code></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
