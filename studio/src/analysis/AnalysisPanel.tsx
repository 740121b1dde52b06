// The rule page's Analysis tab (issue 14): the findings of the draft as it is in the designer (unreachable,
// overlap, gap, contradiction, duplicate, type), re-analysed shortly after each edit. Each finding names its rows
// (clicking one selects that row in the grid) and shows its example input; the rows concerned are marked in the
// grid's row headers by a style sheet keyed on aria-rowindex, so the designer needs no hook for it.
import { useEffect, useState } from 'react';
import type { RuleDocument } from '../api/types.ts';
import { ROW_HEIGHT } from '../designer/Grid.tsx';
import { analyseDraft } from './analyse.ts';
import type { DraftAnalysis, Finding } from './analyse.ts';
import { cspNonce } from '../csp-nonce.ts';
import './analysis.css';

/** Edits arrive per keystroke; the analysis waits until they pause. */
const DEBOUNCE_MS = 300;
const GRID = '[role="grid"][aria-label="Decision table"]';

export function AnalysisPanel(props: { rule: RuleDocument }) {
  const [analysis, setAnalysis] = useState<DraftAnalysis | null>(null);
  const [stale, setStale] = useState(true);

  useEffect(() => {
    setStale(true);
    const timer = window.setTimeout(() => {
      setAnalysis(analyseDraft(props.rule));
      setStale(false);
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [props.rule]);

  const findings = analysis?.kind === 'report' ? analysis.report.findings : [];
  return (
    <section className="analysis" aria-label="Analysis" aria-busy={stale}>
      <style nonce={cspNonce()}>{rowMarks(findings)}</style>
      {analysis === null && <p className="muted">Analysing…</p>}
      {analysis?.kind === 'invalid' && <p className="muted">Not analysed: {analysis.message}</p>}
      {analysis?.kind === 'report' && (
        <>
          <p className="analysis-summary" aria-live="polite">
            {findings.length === 0 ? 'No findings: every row is reachable, nothing overlaps, contradicts or is missing.' : `${findings.length} finding${findings.length === 1 ? '' : 's'}`}
            <span className="muted small"> · {analysis.ms} ms{stale ? ' · updating…' : ''}</span>
          </p>
          <ul className="findings" aria-label="Findings">
            {findings.map((finding, i) => <FindingItem key={i} finding={finding} />)}
          </ul>
          {analysis.report.undecided.rows.length > 0 && (
            <p className="muted small">Not decided for row{analysis.report.undecided.rows.length === 1 ? '' : 's'} {analysis.report.undecided.rows.map((r) => r + 1).join(', ')}: {analysis.report.undecided.reasons.map((r) => r.reason).join('; ')}</p>
          )}
        </>
      )}
    </section>
  );
}

function FindingItem(props: { finding: Finding }) {
  const { finding } = props;
  return (
    <li className={`finding finding-${finding.kind}`}>
      <span className={`badge finding-badge-${finding.kind}`}>{finding.kind}</span> {finding.message}
      {finding.rows.length > 0 && (
        <div className="finding-rows">
          {finding.rows.map((r) => (
            <button key={r} type="button" className="btn btn-small" aria-label={`Select row ${r + 1}`} onClick={() => void selectGridRow(r)}>Row {r + 1}</button>
          ))}
        </div>
      )}
      {finding.example && <pre className="finding-example" aria-label="Example input">{JSON.stringify(finding.example)}</pre>}
    </li>
  );
}

/** CSS marking the row headers of rows with findings (defects red, the rest amber); grid row r is aria-rowindex r + 2. */
function rowMarks(findings: readonly Finding[]): string {
  const defect = new Set<number>();
  const notice = new Set<number>();
  for (const f of findings) {
    const rows = f.kind === 'unreachable' ? f.rows.slice(0, 1) : f.rows;
    for (const r of rows) (f.kind === 'unreachable' || f.kind === 'contradiction' || f.kind === 'type' ? defect : notice).add(r);
  }
  const rule = (rows: Set<number>, color: string) =>
    rows.size === 0 ? '' : `${[...rows].map((r) => `${GRID} [role="row"][aria-rowindex="${r + 2}"] [role="rowheader"]`).join(',\n')} { box-shadow: inset 4px 0 0 ${color}; }\n`;
  return rule(notice, '#f59f00') + rule(defect, '#c92a2a');
}

/** Selects a grid row as a click on its row header would, scrolling it into view first (the grid renders only visible rows). */
async function selectGridRow(r: number): Promise<void> {
  const grid = document.querySelector<HTMLElement>(GRID);
  if (!grid) return;
  const header = () => grid.querySelector<HTMLElement>(`[role="row"][aria-rowindex="${r + 2}"] [role="rowheader"]`);
  if (!header()) {
    grid.scrollTop = Math.max(0, r * ROW_HEIGHT - grid.clientHeight / 2);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }
  const target = header();
  if (!target) return;
  target.scrollIntoView({ block: 'nearest' });
  target.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
  window.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, button: 0 }));
  grid.focus();
}
