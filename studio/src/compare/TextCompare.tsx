// Two versions whose body is text (a script, a DMN model's XML): the changes of name, alias, description and models
// listed, then the text as a line diff (removed lines marked −, added +, with the line numbers of both sides). The
// diff's look is in script/script.css (sc-diff), where it began.
import { useMemo } from 'react';
import type { CompareProps } from '../kinds/types.ts';
import type { RuleDocument } from '../api/types.ts';
import { documentDifferences } from './diff.ts';
import { diffLines } from './lines.ts';

export function TextCompare(props: CompareProps & { textOf(rule: RuleDocument): string; what: string }) {
  const lines = useMemo(() => diffLines(props.textOf(props.left), props.textOf(props.right)), [props.left, props.right, props.textOf]);
  const notes = useMemo(() => documentDifferences(props.left, props.right).map((d) => d.label), [props.left, props.right]);
  // a run of removed and added lines is one change
  const changes = lines.filter((line, i) => line.kind !== 'same' && (i === 0 || lines[i - 1]!.kind === 'same')).length;
  const total = notes.length + changes;
  return (
    <div className="compare">
      <div className="compare-toolbar">
        <span className="compare-count" aria-live="polite">
          {total === 0 ? 'No differences' : `${total} difference${total === 1 ? '' : 's'}`}
          {changes > 0 && ` (${changes} in the ${props.what})`}
        </span>
        <span className="legend"><span className="swatch swatch-left" /> only in {props.leftLabel} <span className="swatch swatch-right" /> only in {props.rightLabel}</span>
      </div>
      {notes.length > 0 && <ul className="compare-notes">{notes.map((n) => <li key={n}>{n}</li>)}</ul>}
      <table className="sc-diff" aria-label={`Comparison of ${props.leftLabel} and ${props.rightLabel}`}>
        <thead>
          <tr><th scope="col">{props.leftLabel}</th><th scope="col">{props.rightLabel}</th><th scope="col"><span className="visually-hidden">Change</span></th><th scope="col">{props.what[0]!.toUpperCase() + props.what.slice(1)}</th></tr>
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
