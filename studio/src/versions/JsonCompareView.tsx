// Two versions of a rule of any type side by side as aligned JSON (compare/json-diff.ts): lines only on one side
// tinted, changed lines highlighted, Previous/Next difference scrolling to each change. Rows are virtualized so
// a 40,000-row lookup table compares as smoothly as a small tree.
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { CompareProps } from '../kinds/types.ts';
import { stepDifference } from '../compare/diff.ts';
import { diffDocuments } from '../compare/json-diff.ts';
import type { DiffLine } from '../compare/json-diff.ts';
import './json-compare.css';

const LINE_HEIGHT = 22;
const STATUS_TEXT: Record<DiffLine['status'], string> = { same: '', changed: ' (changed)', 'left-only': ' (only in left)', 'right-only': ' (only in right)' };

export function JsonCompareView(props: CompareProps) {
  const diff = useMemo(() => diffDocuments(props.left, props.right), [props.left, props.right]);
  const [current, setCurrent] = useState(-1);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: diff.lines.length, getScrollElement: () => scroller.current, estimateSize: () => LINE_HEIGHT, overscan: 20 });
  const focus = current >= 0 ? diff.differences[current] : undefined;

  function step(direction: 1 | -1) {
    const next = stepDifference(diff.differences.length, current, direction);
    setCurrent(next);
    const target = diff.differences[next];
    if (target) virtualizer.scrollToIndex(target.line, { align: 'center' });
  }

  const count = diff.differences.length;
  return (
    <div className="compare json-compare">
      <div className="compare-toolbar">
        <span className="compare-count" aria-live="polite">
          {count === 0 ? 'No differences' : focus ? `Difference ${current + 1} of ${count}: ${focus.label}` : `${count} difference${count === 1 ? '' : 's'}`}
        </span>
        <span className="legend"><span className="swatch swatch-changed" /> changed <span className="swatch swatch-left" /> only left <span className="swatch swatch-right" /> only right</span>
        <button type="button" className="btn btn-small" disabled={count === 0} onClick={() => step(-1)}>Previous difference</button>
        <button type="button" className="btn btn-small" disabled={count === 0} onClick={() => step(1)}>Next difference</button>
      </div>
      <div className="compare-scroller" ref={scroller} role="table" aria-label={`Comparison of ${props.leftLabel} and ${props.rightLabel}`}>
        <div className="compare-head" role="rowgroup">
          <div className="compare-row" role="row">
            <div role="columnheader" className="compare-side-label">{props.leftLabel}</div>
            <div role="columnheader" className="compare-side-label">{props.rightLabel}</div>
          </div>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const line = diff.lines[item.index]!;
            const focused = focus !== undefined && item.index >= focus.line && item.index < focus.line + focus.count;
            return (
              <div key={item.key} role="row" className={`compare-row json-line status-${line.status}${focused ? ' is-focused' : ''}`}
                style={{ position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, height: LINE_HEIGHT, width: '100%' }}>
                <Side text={line.left} status={line.status} />
                <Side text={line.right} status={line.status} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function Side(props: { text: string | undefined; status: DiffLine['status'] }) {
  if (props.text === undefined) return <div role="cell" className="json-cell json-missing" />;
  return (
    <div role="cell" className={`json-cell${props.status === 'changed' ? ' is-changed' : ''}`}>
      {props.text}{props.status !== 'same' && <span className="visually-hidden">{STATUS_TEXT[props.status]}</span>}
    </div>
  );
}
