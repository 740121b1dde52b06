// Two versions of a table side by side in one scroll area (rows stay aligned): rows and columns only on one side
// tinted, changed cells highlighted, and Previous/Next difference moving through the list from compare/diff.ts.
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TableRow } from '../api/types.ts';
import { cellText, columnTitle, diffTables, stepDifference, tableOf } from '../compare/diff.ts';
import type { ColumnPair, RowPair } from '../compare/diff.ts';
import { columnName } from '../designer/model/table.ts';
import { kindOf } from '../kinds/registry.ts';
import type { CompareViewProps } from '../kinds/types.ts';

const ROW_HEIGHT = 30;

/** The comparison of the rule's kind (studio/src/kinds), else the table comparison. */
export function CompareView(props: CompareViewProps) {
  const Own = kindOf(props.left.type)?.CompareView;
  return Own ? <Own {...props} /> : <TableCompareView {...props} />;
}

function TableCompareView(props: CompareViewProps) {
  const diff = useMemo(() => diffTables(props.left, props.right), [props.left, props.right]);
  const leftRows = useMemo(() => tableOf(props.left).rows, [props.left]);
  const rightRows = useMemo(() => tableOf(props.right).rows, [props.right]);
  const leftColumns = diff.columns.filter((c) => c.left);
  const rightColumns = diff.columns.filter((c) => c.right);
  const [current, setCurrent] = useState(-1);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: diff.rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const focus = current >= 0 ? diff.differences[current] : undefined;

  function step(direction: 1 | -1) {
    const next = stepDifference(diff.differences.length, current, direction);
    setCurrent(next);
    const target = diff.differences[next];
    if (target?.row !== undefined) virtualizer.scrollToIndex(target.row, { align: 'center' });
    else scroller.current?.scrollTo({ top: 0 });
  }

  const template = (columns: ColumnPair[]) => `48px repeat(${columns.length}, minmax(120px, 1fr))`;

  return (
    <div className="compare">
      <div className="compare-toolbar">
        <span className="compare-count" aria-live="polite">
          {diff.differences.length === 0 ? 'No differences' : focus ? `Difference ${current + 1} of ${diff.differences.length}: ${focus.label}` : `${diff.differences.length} difference${diff.differences.length === 1 ? '' : 's'}`}
        </span>
        <span className="legend"><span className="swatch swatch-changed" /> changed <span className="swatch swatch-left" /> only left <span className="swatch swatch-right" /> only right</span>
        <button type="button" className="btn btn-small" disabled={diff.differences.length === 0} onClick={() => step(-1)}>Previous difference</button>
        <button type="button" className="btn btn-small" disabled={diff.differences.length === 0} onClick={() => step(1)}>Next difference</button>
      </div>
      {diff.differences.some((d) => d.kind === 'model' || d.kind === 'property') && (
        <ul className="compare-notes">
          {diff.differences.filter((d) => d.kind === 'model' || d.kind === 'property').map((d) => <li key={d.label}>{d.label}</li>)}
        </ul>
      )}
      <div className="compare-scroller" ref={scroller} role="table" aria-label={`Comparison of ${props.leftLabel} and ${props.rightLabel}`}>
        <div className="compare-head" role="rowgroup">
          <div className="compare-row" role="row">
            <div className="compare-side" style={{ gridTemplateColumns: template(leftColumns) }}>
              <div role="columnheader" className="compare-side-label">{props.leftLabel}</div>
              <div role="columnheader" className="compare-rownum compare-header-cell">#</div>
              {leftColumns.map((c) => <HeaderCell key={c.columnId} pair={c} side="left" focused={focus?.kind === 'column' && focus.columnId === c.columnId} />)}
            </div>
            <div className="compare-side" style={{ gridTemplateColumns: template(rightColumns) }}>
              <div role="columnheader" className="compare-side-label">{props.rightLabel}</div>
              <div role="columnheader" className="compare-rownum compare-header-cell">#</div>
              {rightColumns.map((c) => <HeaderCell key={c.columnId} pair={c} side="right" focused={focus?.kind === 'column' && focus.columnId === c.columnId} />)}
            </div>
          </div>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const pair = diff.rows[item.index];
            const focusedRow = focus?.row === item.index;
            const wholeRow = focusedRow && focus?.kind === 'row';
            return (
              <div key={item.key} role="row" className={`compare-row status-${pair.status}${wholeRow ? ' is-focused' : ''}`}
                style={{ position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, width: '100%' }}>
                <SideRow columns={leftColumns} template={template(leftColumns)} row={pair.leftIndex === undefined ? undefined : leftRows[pair.leftIndex]} index={pair.leftIndex} pair={pair} focusColumn={focusedRow ? focus?.columnId : undefined} />
                <SideRow columns={rightColumns} template={template(rightColumns)} row={pair.rightIndex === undefined ? undefined : rightRows[pair.rightIndex]} index={pair.rightIndex} pair={pair} focusColumn={focusedRow ? focus?.columnId : undefined} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function HeaderCell(props: { pair: ColumnPair; side: 'left' | 'right'; focused: boolean }) {
  const column = props.side === 'left' ? props.pair.left! : props.pair.right!;
  const status = props.pair.status;
  return (
    <div role="columnheader" className={`compare-cell compare-header-cell col-${column.type} status-${status}${props.focused ? ' is-focused' : ''}`} title={columnTitle(column)}>
      {columnName(column) || columnTitle(column)}
      {status !== 'same' && <span className="visually-hidden"> ({status === 'changed' ? 'changed' : status === 'left-only' ? 'only in left' : 'only in right'})</span>}
    </div>
  );
}

function SideRow(props: { columns: ColumnPair[]; template: string; row: TableRow | undefined; index: number | undefined; pair: RowPair; focusColumn?: string }) {
  if (!props.row) {
    return <div className="compare-side compare-missing" style={{ gridTemplateColumns: props.template }}><div role="cell" className="compare-rownum" /><div role="cell" className="compare-cell compare-no-row muted">(no row)</div></div>;
  }
  return (
    <div className={`compare-side${props.row.active === false ? ' is-inactive' : ''}`} style={{ gridTemplateColumns: props.template }}>
      <div role="cell" className="compare-rownum">{props.index! + 1}</div>
      {props.columns.map((c) => {
        const changed = props.pair.changedColumns.includes(c.columnId);
        const oneSided = c.status === 'left-only' || c.status === 'right-only';
        const text = cellText(props.row, (c.right ?? c.left)!);
        return (
          <div role="cell" key={c.columnId} title={text}
            className={`compare-cell${changed ? ' is-changed' : ''}${oneSided ? ` status-${c.status}` : ''}${props.focusColumn === c.columnId ? ' is-focused' : ''}`}>
            {text}{changed && <span className="visually-hidden"> (changed)</span>}
          </div>
        );
      })}
    </div>
  );
}
