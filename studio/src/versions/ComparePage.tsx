import { useCallback, useEffect, useState } from 'react';
import type { RuleItem } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { href, navigate } from '../app/router.ts';
import { ErrorState, Loading } from '../ui/states.tsx';
import { VersionCompare } from './VersionCompare.tsx';

export function ComparePage(props: { id: string; left: number; right: number }) {
  const { api } = useStudio();
  const [docs, setDocs] = useState<[RuleDocument, RuleDocument] | null>(null);
  const [versions, setVersions] = useState<RuleItem[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      const [l, r] = await Promise.all([api.getRule(props.id, props.left), api.getRule(props.id, props.right)]);
      setDocs([l.rule, r.rule]);
      setVersions((await api.listItems()).filter((i) => i.ruleId === l.rule.ruleId).sort((a, b) => a.version - b.version));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [api, props.id, props.left, props.right]);
  useEffect(() => { void load(); }, [load]);

  if (error) return <div className="content"><ErrorState title="The versions could not be compared" message={error} onRetry={() => void load()} /></div>;
  if (!docs) return <div className="content"><Loading label="Loading both versions…" /></div>;

  const pick = (side: 'left' | 'right', version: number) =>
    navigate({ page: 'compare', id: props.id, left: side === 'left' ? version : props.left, right: side === 'right' ? version : props.right });

  return (
    <div className="compare-page">
      <header className="rule-header">
        <div className="rule-title">
          <nav aria-label="Breadcrumb" className="breadcrumb">
            <a href="#/rules">Rules</a><span aria-hidden="true">/</span>
            <a href={href({ page: 'rule', id: props.id, version: props.right })}>{docs[1].name}</a><span aria-hidden="true">/</span>
          </nav>
          <h1>Compare versions</h1>
        </div>
        <div className="actions">
          <label className="field field-inline"><span>Left</span>
            <select value={props.left} onChange={(e) => pick('left', Number(e.target.value))}>
              {versions.map((v) => <option key={v.version} value={v.version}>v{v.version} · {v.status}</option>)}
            </select>
          </label>
          <label className="field field-inline"><span>Right</span>
            <select value={props.right} onChange={(e) => pick('right', Number(e.target.value))}>
              {versions.map((v) => <option key={v.version} value={v.version}>v{v.version} · {v.status}</option>)}
            </select>
          </label>
        </div>
      </header>
      <VersionCompare left={docs[0]} right={docs[1]} leftLabel={`v${props.left}`} rightLabel={`v${props.right}`} />
    </div>
  );
}
