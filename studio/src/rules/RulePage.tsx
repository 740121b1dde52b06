// The rule page: the designer of the rule's type (studio/src/kinds) over a local draft, Save (server problems placed on the cells they name and
// listed), the question before saving a published version (LiveSaveDialog), the offer of an unsaved draft on opening,
// the conflict dialog of a refused save, the test bench and the versions panel. Actions the role does not allow are
// disabled with the reason (GuardedButton); when the space requires approvals, the review bar (ReviewPanel) and
// Publish disabled until the version is approved.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, ConflictError } from '../api/client.ts';
import type { Problem, RuleItem, SaveWarnings, VersionedRule } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { href, navigate } from '../app/router.ts';
import { TestBench } from '../bench/TestBench.tsx';
import { VersionCompare } from '../versions/VersionCompare.tsx';
import { VersionsPanel } from '../versions/VersionsPanel.tsx';
import { drafts } from '../drafts/storage.ts';
import type { Draft } from '../drafts/storage.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { ErrorState, Loading, downloadBlob, downloadJson, formatTime } from '../ui/states.tsx';
import { kindOf } from '../kinds/registry.ts';
import type { Panel } from '../kinds/types.ts';
import { TestsPanel } from '../tests/TestsPanel.tsx';
import type { TestDefinition } from '../tests/api.ts';
import { AnalysisPanel } from '../analysis/AnalysisPanel.tsx';
import { ChangeAliasDialog } from './alias.tsx';
import { problemText } from './problemText.ts';
import { spaceApi } from '../space/api.ts';
import { LiveSaveDialog } from './LiveSaveDialog.tsx';
import { GuardedButton } from '../ui/GuardedButton.tsx';
import { ReviewPanel } from '../review/ReviewPanel.tsx';
import { approved, reviewApi } from '../review/api.ts';
import type { Review } from '../review/api.ts';
import { ExcelActions } from './ExcelActions.tsx';

const AUTOSAVE_MS = 250;

const ALL_PANELS: readonly Panel[] = ['bench', 'tests', 'analysis', 'versions'];
const COMMON_PANELS: readonly Panel[] = ['bench', 'tests', 'versions'];
const PANEL_NAMES: Record<Panel, string> = { bench: 'Test bench', tests: 'Tests', analysis: 'Analysis', versions: 'Versions' };

function sameDocument(a: RuleDocument, b: RuleDocument): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function RulePage(props: { id: string; version: number | 'latest' }) {
  const { api, notify, grants } = useStudio();
  const [loaded, setLoadedState] = useState<VersionedRule | null>(null);
  // The document last read from or written to the server, for updates made after an await (the state seen by a
  // closure may be older).
  const loadedRule = useRef<RuleDocument | null>(null);
  const setLoaded = useCallback((value: VersionedRule) => {
    loadedRule.current = value.rule;
    setLoadedState(value);
  }, []);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<RuleDocument | null>(null);
  const [offered, setOffered] = useState<Draft | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  /** The warnings the last save answered (it succeeded): cells outside their column's valid values. */
  const [saveWarnings, setSaveWarnings] = useState<SaveWarnings | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<VersionedRule | null>(null);
  const [conflictCompare, setConflictCompare] = useState(false);
  /** Save was asked for on a published version: the dialog that says so (forbidden: the space forbids live edits). */
  const [liveSave, setLiveSave] = useState<{ forbidden: boolean } | null>(null);
  const [trace, setTrace] = useState<unknown>(undefined);
  /** The side panel's tab, and whether the panel is collapsed to its tab strip (only the collapse button does that). */
  const [chosenPanel, setChosenPanel] = useState<Panel>('bench');
  const [collapsed, setCollapsed] = useState(false);
  const panel: Panel | null = collapsed ? null : chosenPanel;
  const setPanel = useCallback((next: Panel) => { setChosenPanel(next); setCollapsed(false); }, []);
  /** A test made from the bench's input and result ("Save as test"), for the Tests tab to open. */
  const [testSeed, setTestSeed] = useState<TestDefinition | null>(null);
  const [versions, setVersions] = useState<RuleItem[]>([]);
  const pending = useRef<{ rule: RuleDocument; timer: number } | null>(null);
  // The server version the draft builds on: the loaded one, or the one a restored draft was started from, so a
  // save refuses (412) when someone saved in between.
  const [baseEtag, setBaseEtag] = useState<string | null>(null);
  /** When the draft was last written to this browser's storage (shown, so an author knows the edit is safe). */
  const [keptAt, setKeptAt] = useState<Date | null>(null);
  const [changingAlias, setChangingAlias] = useState(false);
  /** The space requires an approval before publishing (space setting `approvals`), and this version's review. */
  const [approvals, setApprovals] = useState(false);
  const [review, setReview] = useState<Review | null>(null);

  const ruleId: string | undefined = loaded?.rule.ruleId;
  const version: number | undefined = loaded?.rule.version;

  useEffect(() => {
    let live = true;
    spaceApi.settings(api).then((settings) => live && setApprovals(settings.approvals), () => undefined);
    return () => { live = false; };
  }, [api]);
  const loadReview = useCallback(async () => {
    if (!approvals || ruleId === undefined || version === undefined) return;
    try {
      setReview(await reviewApi.get(api, ruleId, version));
    } catch (err) {
      notify(`The review state could not be read: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
  }, [api, approvals, ruleId, version, notify]);
  useEffect(() => { void loadReview(); }, [loadReview, loaded]);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const result = await api.getRule(props.id, props.version);
      setLoaded(result);
      setBaseEtag(result.etag);
      const local = await drafts.get(result.rule.ruleId, result.rule.version);
      if (local && !sameDocument(local.rule, result.rule)) setOffered(local);
      else if (local) void drafts.discard(result.rule.ruleId, result.rule.version);
      setDraft(result.rule);
    } catch (err) {
      setLoadError(err instanceof ApiError && err.status === 404 ? `No rule ${props.id} version ${props.version} in this space.` : err instanceof Error ? err.message : String(err));
    }
  }, [api, props.id, props.version, setLoaded]);
  useEffect(() => { void load(); }, [load]);

  const loadVersions = useCallback(async () => {
    if (!ruleId) return;
    try {
      setVersions((await api.listItems()).filter((i) => i.ruleId === ruleId).sort((a, b) => b.version - a.version));
    } catch {
      setVersions([]);
    }
  }, [api, ruleId]);
  useEffect(() => { void loadVersions(); }, [loadVersions]);

  // Autosave of the draft: shortly after each edit, and at once when the tab is hidden or closed.
  const flush = useCallback(() => {
    const p = pending.current;
    if (!p || ruleId === undefined || version === undefined) return;
    window.clearTimeout(p.timer);
    pending.current = null;
    void drafts.put(ruleId, version, p.rule, baseEtag).then((kept) => {
      if (kept) setKeptAt(new Date());
      else notify('The browser refused to keep the draft (storage full or private mode). Save or export it now.', 'error');
    });
  }, [ruleId, version, baseEtag, notify]);
  useEffect(() => {
    const onHide = () => flush();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
      flush();
    };
  }, [flush]);

  const onChange = useCallback((next: RuleDocument) => {
    setDraft(next);
    setOffered(null);
    if (pending.current) window.clearTimeout(pending.current.timer);
    pending.current = { rule: next, timer: window.setTimeout(() => flush(), AUTOSAVE_MS) };
  }, [flush]);

  // The designer hands back a new document on every edit, so identity tells whether anything changed since the
  // load or the last save (an edit undone by hand still counts: saving it is harmless).
  const dirty = draft !== null && loaded !== null && draft !== loaded.rule;

  async function save(overwrite?: VersionedRule): Promise<boolean> {
    if (!draft || !loaded || ruleId === undefined || version === undefined) return false;
    flush();
    setSaving(true);
    setSaveError(null);
    try {
      const saved = await api.updateRule(ruleId, version, draft, overwrite ? overwrite.etag : baseEtag);
      setLoaded(saved);
      setBaseEtag(saved.etag);
      setDraft(saved.rule);
      setProblems([]);
      setSaveWarnings(saved.warnings ?? null);
      setConflict(null);
      void drafts.discard(ruleId, version);
      const warned = saved.warnings?.count ?? 0;
      notify(`Saved ${saved.rule.name} v${version}${warned > 0 ? ` with ${warned} warning${warned === 1 ? '' : 's'}` : ''}`, 'success');
      void loadVersions();
      return true;
    } catch (err) {
      if (err instanceof ConflictError) {
        try {
          setConflict(await api.getRule(ruleId, version));
        } catch (inner) {
          setSaveError(inner instanceof Error ? inner.message : String(inner));
        }
      } else if (err instanceof ApiError) {
        setProblems(err.problems);
        setSaveError(err.message);
        notify(err.problems.length ? `Not saved: ${err.problems.length} problem${err.problems.length === 1 ? '' : 's'} to fix. Your draft is kept.` : `Not saved: ${err.message}`, 'error');
      } else {
        setSaveError(String(err));
      }
      return false;
    } finally {
      setSaving(false);
    }
  }

  /** Save: a published version asks first (its answers change at once); a pending one saves as it is. */
  async function requestSave() {
    if (loaded?.rule.status !== 'published') {
      void save();
      return;
    }
    let forbidden = false;
    try {
      forbidden = (await spaceApi.settings(api)).liveEdits === 'forbidden';
    } catch {
      // Unknown setting: both choices are offered; the server still refuses a forbidden live save (409).
    }
    setLiveSave({ forbidden });
  }

  /** The draft as a new pending version, opened; the live version and its answers stay as they are. */
  async function saveAsNewVersion() {
    if (!draft || ruleId === undefined || version === undefined) return;
    setLiveSave(null);
    if (pending.current) window.clearTimeout(pending.current.timer);
    pending.current = null;
    try {
      const created = await api.newVersion(ruleId, draft);
      // The edit now lives in the new version: the published one keeps no draft to offer back.
      await drafts.discard(ruleId, version);
      notify(`Saved as v${created.version} (pending); v${version} still answers until you publish it`, 'success');
      navigate({ page: 'rule', id: created.ruleId, version: created.version });
    } catch (err) {
      onChange(draft);
      notify(`Not saved: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
  }

  async function lifecycle(action: () => Promise<RuleDocument>, done: string) {
    try {
      await action();
      const fresh = await api.getRule(ruleId!, version!);
      const previous = loadedRule.current;
      setLoaded(fresh);
      // A lifecycle change (publish, lock) is a write of our own: the draft now builds on the fresh version.
      setBaseEtag(fresh.etag);
      setDraft((current) => (current === previous ? fresh.rule : current));
      notify(done, 'success');
      void loadVersions();
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), 'error');
    }
  }

  async function publish() {
    // Unsaved edits of a live version would be saved to it before it goes pending: ask first, as Save does.
    if (dirty && loaded?.rule.status === 'published') {
      await requestSave();
      return;
    }
    if (dirty && !(await save())) return;
    const next = loaded?.rule.status === 'published' ? 'pending' : 'published';
    await lifecycle(() => api.setStatus(ruleId!, version!, next), next === 'published' ? `Published v${version}` : `v${version} is pending`);
  }

  async function newVersion(from: RuleDocument, message: string) {
    try {
      flush();
      const created = await api.newVersion(ruleId!, from);
      notify(message, 'success');
      navigate({ page: 'rule', id: created.ruleId, version: created.version });
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), 'error');
    }
  }

  if (loadError) {
    return (
      <div className="content">
        <ErrorState title="This rule could not be opened" message={loadError} onRetry={() => void load()} />
        <a href="#/rules">Back to the rules</a>
      </div>
    );
  }
  if (!loaded || !draft) return <div className="content"><Loading label="Opening the rule…" /></div>;

  const rule = loaded.rule;
  const locked = rule.locked === true;
  const kind = kindOf(rule.type);
  if (!kind) {
    return (
      <div className="content">
        <ErrorState title={`${rule.name} is a ${rule.type}`} message="The Studio cannot edit this rule type. Export this rule to edit it elsewhere." />
        <button type="button" className="btn" onClick={() => downloadJson(`${rule.ruleAlias}_v${rule.version}.json`, rule)}>Export</button>
      </div>
    );
  }

  const canEdit = grants.can('rules:edit');
  const publishing = rule.status !== 'published';
  const unapproved = approvals && publishing && !approved(review)
    ? `This version needs an approval of its current content before it can be published (review: ${review === null ? 'loading' : review.state === 'none' ? 'not requested' : review.current ? review.state : 'content changed since'})`
    : undefined;
  const PANELS = ALL_PANELS.filter((p) => COMMON_PANELS.includes(p) || kind.extraPanels?.includes(p));
  const Designer = kind.Designer;

  return (
    <div className="rule-page">
      {/* Two rows, so that the draft state and the actions never squeeze what names the rule: the first row is the
          name, version, alias and status; the second the draft state and the actions. */}
      <header className="rule-header">
        <div className="rule-title">
          <nav aria-label="Breadcrumb" className="breadcrumb"><a href="#/rules">Rules</a><span aria-hidden="true">/</span></nav>
          <h1>{draft.name}</h1>
          <label className="version-select">
            <span className="visually-hidden">Rule version</span>
            <select value={rule.version} onChange={(e) => navigate({ page: 'rule', id: rule.ruleId, version: Number(e.target.value) })}>
              {(versions.length ? versions : [{ version: rule.version, status: rule.status } as RuleItem]).map((v) => (
                <option key={v.version} value={v.version}>v{v.version} · {v.status}</option>
              ))}
            </select>
          </label>
          {/* The alias is its own Change alias button. */}
          <GuardedButton className="rule-alias-button" permission="rules:edit" what="change aliases" title="Alias (click to change it)" aria-label={`Change alias (${rule.ruleAlias})`}
            onClick={() => setChangingAlias(true)}>
            <code className="muted small rule-alias">{rule.ruleAlias}</code><span className="rule-alias-edit" aria-hidden="true">✎</span>
          </GuardedButton>
          <span className={`badge badge-${rule.status}`}>{rule.status}</span>
          {locked && <span className="badge badge-locked">locked</span>}
        </div>
        <div className="rule-header-row">
          <div className="draft-state">
            {!canEdit && <span className="badge badge-locked" title={grants.reason('rules:edit', 'edit rules')}>read only · {grants.role}</span>}
            {dirty && <span className="badge badge-draft" title="Kept in this browser until saved">unsaved draft</span>}
            {dirty && keptAt && <span className="muted small nowrap" title="Unsaved edits are kept in this browser until you save or discard them">Kept in this browser {keptAt.toLocaleTimeString(undefined, { hour12: false })}</span>}
          </div>
          <div className="actions">
            <a className="btn" href={href({ page: 'dependencies', id: rule.ruleId })} aria-label={`Dependencies of ${rule.name}`}>Dependencies</a>
            <button type="button" className="btn" onClick={() => downloadJson(`${rule.ruleAlias}_v${rule.version}.json`, draft)}>Export</button>
            {rule.type === 'decision-table' && <ExcelActions rule={rule} draft={draft} dirty={dirty} onDraft={onChange} />}
            {rule.type === 'decision-graph' && (
              // The saved version as GoRules writes it (with its tests), named by alias so decision nodes find it as `alias.json`.
              <button type="button" className="btn" title={dirty ? 'Exports the saved version, without your unsaved edits' : 'Exports this version as a GoRules JDM file'}
                onClick={() => void api.exportJdm(rule.ruleId, rule.version).then(
                  (file) => downloadJson(`${rule.ruleAlias ?? rule.ruleId}.json`, file),
                  (err) => notify(`Export to JDM failed: ${err instanceof Error ? err.message : String(err)}`, 'error'),
                )}>Export JDM</button>
            )}
            {rule.type === 'dmn' && (
              // The saved version's XML, as other DMN tools read it.
              <button type="button" className="btn" title={dirty ? 'Exports the saved version, without your unsaved edits' : 'Exports this version as a .dmn file'}
                onClick={() => void api.exportDmn(rule.ruleId, rule.version).then(
                  ({ blob, fileName }) => downloadBlob(fileName, blob),
                  (err) => notify(`Export to DMN failed: ${err instanceof Error ? err.message : String(err)}`, 'error'),
                )}>Export DMN</button>
            )}
            <GuardedButton className="btn" permission="rules:publish" what={locked ? 'unlock versions' : 'lock versions'}
              onClick={() => void lifecycle(() => api.setLock(rule.ruleId, rule.version, !locked), locked ? 'Unlocked' : 'Locked')}>{locked ? 'Unlock' : 'Lock'}</GuardedButton>
            <GuardedButton className="btn" permission="rules:edit" what="create versions" onClick={() => void newVersion(draft, 'New version created from this one')}>New version</GuardedButton>
            <GuardedButton className="btn" permission="rules:publish" what={publishing ? 'publish' : 'set versions pending'} disabled={locked} blocked={unapproved}
              onClick={() => void publish()}>{publishing ? 'Publish' : 'Set pending'}</GuardedButton>
            <GuardedButton className="btn btn-primary" permission="rules:edit" what="edit rules" disabled={locked || saving} onClick={() => void requestSave()}>{saving ? 'Saving…' : 'Save'}</GuardedButton>
          </div>
        </div>
      </header>
      {offered && (
        <div className="banner banner-warning" role="alert">
          <span>This version has an unsaved draft from {formatTime(offered.savedAt)} in this browser.</span>
          <button type="button" className="btn btn-small btn-primary" onClick={() => { setDraft(offered.rule); setBaseEtag(offered.baseEtag); setOffered(null); }}>Restore draft</button>
          <button type="button" className="btn btn-small" onClick={() => { void drafts.discard(rule.ruleId, rule.version); setOffered(null); }}>Discard draft</button>
        </div>
      )}
      {approvals && <ReviewPanel rule={rule} review={review} versions={versions} onChanged={() => void loadReview()} />}
      {saveError && problems.length === 0 && <div className="banner banner-error" role="alert">Not saved: {saveError} Your draft is kept in this browser.</div>}
      {saveWarnings && problems.length === 0 && (
        <section className="problems problems-warning" aria-label="Warnings">
          <h2>Saved with {saveWarnings.count} warning{saveWarnings.count === 1 ? '' : 's'} <span className="muted small">— the version is stored; values outside a column's valid values are flagged on their cells</span></h2>
          <ul>
            {saveWarnings.warnings.map((p, i) => {
              const text = problemText(draft, p);
              return <li key={i}>{text.where ? <><strong>{text.where}:</strong> {text.message}</> : <><code>{text.path}</code> {text.message}</>}</li>;
            })}
            {saveWarnings.count > saveWarnings.warnings.length && <li className="muted">and {saveWarnings.count - saveWarnings.warnings.length} more (the analysis lists them all)</li>}
          </ul>
          <button type="button" className="btn btn-small" onClick={() => setSaveWarnings(null)}>Dismiss warnings</button>
        </section>
      )}
      {problems.length > 0 && (
        // Under the header, near Save and away from the notices at the bottom of the window, so neither hides the other.
        <section className="problems" aria-label="Problems">
          <h2>{problems.length} problem{problems.length === 1 ? '' : 's'} found by the server <span className="muted small">— your draft is kept; fix them and save again</span></h2>
          <ul>
            {problems.map((p, i) => {
              const text = problemText(draft, p);
              return (
                <li key={i}>
                  {text.where ? <><strong>{text.where}:</strong> {text.message} <code className="muted small problem-path" title="Where in the rule document">{text.path}</code></>
                    : <><code>{text.path}</code> {text.message}</>}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      <div className={`rule-body${panel ? ' with-panel' : ''}`}>
        <section className="designer-area" aria-label={`${kind.label} designer`}>
          <Designer rule={draft} onChange={onChange} problems={problems} trace={trace} readOnly={locked || !canEdit} />
        </section>
        <aside className="side-panel" aria-label="Rule tools">
          <div className="panel-bar">
          <div className="tabs" role="tablist" aria-label="Rule tools" onKeyDown={(e) => {
            // ARIA tabs pattern: arrow keys move between the tabs (and select), Tab leaves the list.
            if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
            e.preventDefault();
            const at = PANELS.indexOf(chosenPanel);
            const next = PANELS[(at + (e.key === 'ArrowRight' ? 1 : PANELS.length - 1)) % PANELS.length]!;
            setPanel(next);
            document.getElementById(`tab-${next}`)?.focus();
          }}>
            {PANELS.map((id) => (
              <button key={id} type="button" role="tab" id={`tab-${id}`} aria-controls={`panel-${id}`} aria-selected={panel === id}
                tabIndex={chosenPanel === id ? 0 : -1} onClick={() => setPanel(id)}>
                {PANEL_NAMES[id]}
              </button>
            ))}
          </div>
          {/* Collapsing is its own button: a click on the open tab used to hide the panel, which surprised people. */}
          <button type="button" className="btn btn-small panel-toggle" aria-expanded={!collapsed} aria-controls={`panel-${chosenPanel}`}
            aria-label={collapsed ? 'Expand panel' : 'Collapse panel'} title={collapsed ? 'Expand panel' : 'Collapse panel'}
            onClick={() => setCollapsed(!collapsed)}>
            <span aria-hidden="true">{collapsed ? '«' : '»'}</span>
          </button>
          </div>
          <div id="panel-bench" role="tabpanel" aria-labelledby="tab-bench" hidden={panel !== 'bench'} className="tab-panel">
            <TestBench rule={draft} kind={kind} onTrace={setTrace} onSaveAsTest={(seed) => { setTestSeed(seed); setPanel('tests'); }} />
          </div>
          <div id="panel-tests" role="tabpanel" aria-labelledby="tab-tests" hidden={panel !== 'tests'} className="tab-panel">
            {panel === 'tests' && <TestsPanel rule={rule} dirty={dirty} seed={testSeed} onSeedUsed={() => setTestSeed(null)} />}
          </div>
          {PANELS.includes('analysis') && (
            <div id="panel-analysis" role="tabpanel" aria-labelledby="tab-analysis" hidden={panel !== 'analysis'} className="tab-panel">
              {panel === 'analysis' && <AnalysisPanel rule={draft} />}
            </div>
          )}
          <div id="panel-versions" role="tabpanel" aria-labelledby="tab-versions" hidden={panel !== 'versions'} className="tab-panel">
            {panel === 'versions' && (
              <VersionsPanel rule={rule} versions={versions}
                onRestore={(doc, from) => void newVersion(doc, `Version ${from} restored as a new version`)} />
            )}
          </div>
        </aside>
      </div>
      <ChangeAliasDialog open={changingAlias} ruleId={rule.ruleId} ruleName={rule.name} alias={rule.ruleAlias}
        onClose={() => setChangingAlias(false)}
        onChanged={(alias) => {
          setChangingAlias(false);
          // The rename rewrote every version (new ETags): reload so the draft builds on the renamed version.
          void lifecycle(async () => rule, `Alias changed to ${alias}`);
        }} />
      <LiveSaveDialog open={liveSave !== null} name={rule.name} version={rule.version} forbidden={liveSave?.forbidden ?? false}
        onNewVersion={() => void saveAsNewVersion()} onSaveLive={() => { setLiveSave(null); void save(); }} onClose={() => setLiveSave(null)} />
      <Dialog title="This version changed on the server" open={conflict !== null} onClose={() => { setConflict(null); setConflictCompare(false); }} wide={conflictCompare}>
        {conflict && (
          <div className="dialog-body">
            <p>Someone saved v{rule.version} after you opened it, so your save was refused. Nothing is lost: your draft stays in this browser.
              Compare their version with your draft, or overwrite theirs with yours.</p>
            {conflictCompare && <VersionCompare left={conflict.rule} right={draft} leftLabel={`On the server (v${rule.version})`} rightLabel="Your draft" />}
            <div className="dialog-actions">
              <button type="button" className="btn" onClick={() => { setConflict(null); setConflictCompare(false); }}>Keep editing</button>
              {!conflictCompare && <button type="button" className="btn" onClick={() => setConflictCompare(true)}>Compare</button>}
              <button type="button" className="btn btn-danger" onClick={() => { setConflictCompare(false); void save(conflict); }}>Overwrite</button>
            </div>
          </div>
        )}
      </Dialog>
    </div>
  );
}
