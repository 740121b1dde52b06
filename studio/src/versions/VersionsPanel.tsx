// Versions of the open rule: open one, restore an old one as a new version, pick two to compare, and the
// history of saves and lifecycle changes (time, and who where the key has a name).
import { useEffect, useState } from 'react';
import { lastChange } from '../api/client.ts';
import type { HistoryEntry, RuleItem } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { href, navigate } from '../app/router.ts';
import { formatShortTime, formatTime } from '../ui/states.tsx';
import { GuardedButton } from '../ui/GuardedButton.tsx';

export function VersionsPanel(props: { rule: RuleDocument; versions: RuleItem[]; onRestore(doc: RuleDocument, from: number): void }) {
  const { api, notify } = useStudio();
  const current: number = props.rule.version;
  const others = props.versions.filter((v) => v.version !== current);
  const [left, setLeft] = useState<number>(others[0]?.version ?? current);
  const [right, setRight] = useState<number>(current);
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.history(props.rule.ruleId).then((items) => live && setHistory(items), (err: unknown) => live && setHistoryError(err instanceof Error ? err.message : String(err)));
    return () => { live = false; };
  }, [api, props.rule.ruleId, props.rule.lastUpdate, props.rule.status, props.rule.locked]);

  async function restore(version: number) {
    try {
      const { rule } = await api.getRule(props.rule.ruleId, version);
      props.onRestore(rule, version);
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), 'error');
    }
  }

  return (
    <div className="versions">
      <h3>Versions</h3>
      <ul className="version-list">
        {props.versions.map((v) => (
          <li key={v.version} className={v.version === current ? 'is-current' : undefined}>
            <div>
              <a href={href({ page: 'rule', id: v.ruleId, version: v.version })} aria-current={v.version === current ? 'page' : undefined}>Version {v.version}</a>
              <span className={`badge badge-${v.status}`}>{v.status}</span>
              {v.locked && <span className="badge badge-locked">locked</span>}
              <div className="muted small">{formatTime(lastChange(v))}</div>
            </div>
            {v.version !== current && (
              <GuardedButton className="btn btn-small btn-ghost" permission="rules:publish" what="restore versions" aria-label={`Restore version ${v.version} as a new version`} onClick={() => void restore(v.version)}>Restore</GuardedButton>
            )}
          </li>
        ))}
      </ul>
      <h3>Compare two versions</h3>
      <div className="compare-pick">
        <label className="field field-inline"><span>Left version</span>
          <select value={left} onChange={(e) => setLeft(Number(e.target.value))}>
            {props.versions.map((v) => <option key={v.version} value={v.version}>v{v.version}</option>)}
          </select>
        </label>
        <label className="field field-inline"><span>Right version</span>
          <select value={right} onChange={(e) => setRight(Number(e.target.value))}>
            {props.versions.map((v) => <option key={v.version} value={v.version}>v{v.version}</option>)}
          </select>
        </label>
        <button type="button" className="btn btn-primary" onClick={() => navigate({ page: 'compare', id: props.rule.ruleId, left, right })}>Compare</button>
      </div>
      <h3>History</h3>
      {historyError && <p className="muted">History is not available: {historyError}</p>}
      {!historyError && history === null && <p className="muted">Loading history…</p>}
      {history && history.length === 0 && <p className="muted">No history recorded yet.</p>}
      {history && history.length > 0 && (
        <table className="mini-table" aria-label="History">
          <thead><tr><th scope="col">When</th><th scope="col">Version</th><th scope="col">What</th><th scope="col">Who</th></tr></thead>
          <tbody>
            {history.map((h, i) => (
              <tr key={i}>
                <td className="nowrap"><time dateTime={h.at}>{formatShortTime(h.at)}</time></td><td>v{h.version}</td><td>{h.action}</td>
                <td>{h.by ?? <span className="muted" title="The key that made this change has no name">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
