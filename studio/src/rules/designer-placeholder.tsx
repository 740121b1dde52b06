// Read-only stand-in for the table designer (same props), used only until studio/src/designer is merged.
import type { RuleDocument } from '../api/types.ts';
import { cellText, columnTitle, tableOf } from '../compare/diff.ts';

export function TableDesigner(props: { rule: RuleDocument; onChange(next: RuleDocument): void; problems: Array<{ path: string; message: string }>; trace?: unknown; readOnly?: boolean }) {
  const table = tableOf(props.rule);
  return (
    <div role="grid" aria-label="Decision table" aria-readonly="true" className="placeholder-grid">
      <div role="row">{table.columns.map((c) => <span role="columnheader" key={c.columnId}>{columnTitle(c)}</span>)}</div>
      {table.rows.slice(0, 200).map((row, i) => (
        <div role="row" key={i}>{table.columns.map((c) => <span role="gridcell" key={c.columnId}>{cellText(row, c)}</span>)}</div>
      ))}
    </div>
  );
}
