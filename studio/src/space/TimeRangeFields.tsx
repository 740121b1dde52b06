// The From and To fields and the Apply/Clear actions of a log's filter bar (the audit log, the activity log); the
// range is checked by timeRange (audit-filter.ts).
export function TimeRangeFields(props: { from: string; to: string; onChange(change: { from?: string; to?: string }): void; onClear(): void }) {
  return (
    <>
      <label className="field">
        <span>From</span>
        <input type="datetime-local" step={1} value={props.from} onChange={(e) => props.onChange({ from: e.target.value })} />
      </label>
      <label className="field">
        <span>To</span>
        <input type="datetime-local" step={1} value={props.to} onChange={(e) => props.onChange({ to: e.target.value })} />
      </label>
      <div className="filter-bar-actions">
        <button type="submit" className="btn btn-primary">Apply filters</button>
        <button type="button" className="btn btn-ghost" onClick={props.onClear}>Clear</button>
      </div>
    </>
  );
}
