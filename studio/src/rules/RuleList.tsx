// The rule list: one line per rule (its latest version), filtered by folder, tag and a search over name, alias
// and id. New rule (with the alias the user chooses), Import (file picker or a file dropped anywhere on the page),
// export and delete. Each rule shows its alias under its name; where two rules share a name, the alias is part of
// their links' names too.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DragEvent, FormEvent, MouseEvent as ReactMouseEvent } from 'react';
import { lastChange } from '../api/client.ts';
import type { RuleItem } from '../api/client.ts';
import { useStudio } from '../app/context.ts';
import { href, navigate } from '../app/router.ts';
import type { Route } from '../app/router.ts';
import { ConfirmDialog, Dialog } from '../ui/Dialog.tsx';
import { EmptyState, ErrorState, Loading, downloadJson, formatTime } from '../ui/states.tsx';
import { RULE_KINDS } from '../kinds/registry.ts';
import { MAX_ALIAS_LENGTH, aliasProblem, aliasSlug, suggestedAlias, useSpaceItems } from './alias.tsx';
import { GuardedButton } from '../ui/GuardedButton.tsx';
import { detectFormat } from '../../../src/formats/jdm/detect.ts';
import { baseName } from '../../../src/formats/jdm/read.ts';
import { baseName as dmnBaseName, isDmnXml } from '../../../src/formats/dmn/index.ts';

interface RuleSummary {
  latest: RuleItem;
  versions: number;
  published: number | null;
}

export const TYPE_LABELS: Record<string, string> = {
  'decision-table': 'Decision table', 'decision-tree': 'Decision tree', 'complex-rule': 'Scripting rule', 'lookup-table': 'Lookup table',
  composition: 'Rule flow', workflow: 'Decision flow', 'integration-flow': 'Integration flow',
};

function summarise(items: RuleItem[]): RuleSummary[] {
  const byRule = new Map<string, RuleItem[]>();
  for (const item of items) byRule.set(item.ruleId, [...(byRule.get(item.ruleId) ?? []), item]);
  return [...byRule.values()].map((versions) => {
    const sorted = versions.sort((a, b) => b.version - a.version);
    const published = sorted.find((v) => v.status === 'published');
    return { latest: sorted[0], versions: sorted.length, published: published?.version ?? null };
  }).sort((a, b) => (lastChange(b.latest) ?? '').localeCompare(lastChange(a.latest) ?? ''));
}

function folderOf(item: RuleItem): string {
  return item.folder && item.folder !== '' ? item.folder : '/';
}

export function RuleList() {
  const { api, notify } = useStudio();
  const [items, setItems] = useState<RuleItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [folder, setFolder] = useState<string | null>(null);
  const [tag, setTag] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<RuleItem | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setItems(await api.listItems());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [api]);
  useEffect(() => { void load(); }, [load]);

  const rules = useMemo(() => summarise(items ?? []), [items]);
  // Names may repeat (imports, copies); the alias never does, so where a name repeats it joins the name in the
  // links' and buttons' names, which would otherwise be identical. The alias is shown under every name anyway.
  const repeatedNames = useMemo(() => {
    const seen = new Map<string, number>();
    for (const r of rules) seen.set(r.latest.name, (seen.get(r.latest.name) ?? 0) + 1);
    return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
  }, [rules]);
  const labelOf = (item: RuleItem): string => (repeatedNames.has(item.name) ? `${item.name} (${item.ruleAlias ?? item.ruleId})` : item.name);
  const folders = useMemo(() => [...new Set(rules.map((r) => folderOf(r.latest)))].sort(), [rules]);
  const tags = useMemo(() => [...new Set(rules.flatMap((r) => r.latest.tags ?? []))].sort(), [rules]);
  const visible = useMemo(() => {
    const q = query.trim().toLowerCase();
    return rules.filter(({ latest }) =>
      (folder === null || folderOf(latest) === folder)
      && (tag === null || (latest.tags ?? []).includes(tag))
      && (q === '' || [latest.name, latest.ruleAlias, latest.ruleId].some((s) => s?.toLowerCase().includes(q))));
  }, [rules, query, folder, tag]);

  async function importFiles(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const text = await file.text();
      // A DMN model (XML) is one `dmn` rule, named after the file.
      const dmn = isDmnXml(text);
      let parsed: unknown;
      if (!dmn) {
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          notify(`${file.name} is neither JSON nor a DMN model: ${err instanceof Error ? err.message : String(err)}`, 'error');
          continue;
        }
      }
      try {
        // A GoRules JDM file is one decision graph, named after the file; anything else is a DecisionRules export.
        const result = dmn ? await api.importDmn(text, dmnBaseName(file.name).slice(0, 100))
          : detectFormat(parsed) === 'jdm' ? await api.importJdm(parsed, baseName(file.name).slice(0, 100)) : await api.importExport(parsed);
        const count = result.imported.length;
        notify(`Imported ${count} rule version${count === 1 ? '' : 's'} from ${file.name}`, 'success');
      } catch (err) {
        const problems = err instanceof Error && 'problems' in err ? (err as { problems: Array<{ path: string; message: string }> }).problems : [];
        // The server's message already joins its problems: say them once, the first few, from the problems.
        const shown = problems.slice(0, 3).map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ');
        const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
        notify(`Import of ${file.name} failed: ${problems.length ? `${shown}${more}` : err instanceof Error ? err.message : String(err)}`, 'error');
      }
    }
    await load();
  }

  async function exportRule(item: RuleItem) {
    try {
      const { rule } = await api.getRule(item.ruleId, item.version);
      downloadJson(`${item.ruleAlias ?? item.ruleId}_v${item.version}.json`, rule);
    } catch (err) {
      notify(`Export failed: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
  }

  async function deleteRule(item: RuleItem) {
    setDeleting(null);
    try {
      await api.deleteRule(item.ruleId);
      notify(`Deleted ${item.name}`, 'success');
      await load();
    } catch (err) {
      notify(`Delete failed: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) void importFiles(event.dataTransfer.files);
  }

  return (
    <div className={`rule-list-page${dragging ? ' is-dragging' : ''}`}
      onDragOver={(e) => { if (e.dataTransfer.types.includes('Files')) { e.preventDefault(); setDragging(true); } }}
      onDragLeave={(e) => { if (e.currentTarget === e.target) setDragging(false); }}
      onDrop={onDrop}>
      <aside className="sidebar" aria-label="Filters">
        <h2 className="sidebar-title">Folders</h2>
        <ul className="filter-list">
          <li><button type="button" className="filter" aria-pressed={folder === null} onClick={() => setFolder(null)}>All rules <span className="count">{rules.length}</span></button></li>
          {folders.map((f) => (
            <li key={f}>
              <button type="button" className="filter" aria-pressed={folder === f} onClick={() => setFolder(f)}>
                <span className="folder-icon" aria-hidden="true">▸</span>{f === '/' ? 'Root' : f.replace(/^\//, '')}
                <span className="count">{rules.filter((r) => folderOf(r.latest) === f).length}</span>
              </button>
            </li>
          ))}
        </ul>
        {tags.length > 0 && (
          <>
            <h2 className="sidebar-title">Tags</h2>
            <div className="tag-cloud">
              {tags.map((t) => (
                <button type="button" key={t} className="tag" aria-pressed={tag === t} onClick={() => setTag(tag === t ? null : t)}>{t}</button>
              ))}
            </div>
          </>
        )}
      </aside>
      <section className="content" aria-labelledby="rules-title">
        <div className="content-header">
          <div>
            <h1 id="rules-title">Rules</h1>
            <p className="muted">Open a rule to edit and test it; drop a DecisionRules export, a GoRules JDM file or a DMN model anywhere here to import it.</p>
          </div>
          <div className="actions">
            <input ref={fileInput} type="file" accept="application/json,.json,.dmn,application/xml,.xml" multiple hidden aria-label="Export file to import"
              onChange={(e) => { if (e.target.files) void importFiles(e.target.files); e.target.value = ''; }} />
            <GuardedButton className="btn" permission="rules:edit" what="import rules" onClick={() => fileInput.current?.click()}>Import</GuardedButton>
            <GuardedButton className="btn btn-primary" permission="rules:edit" what="create rules" onClick={() => setCreating(true)}>New rule</GuardedButton>
          </div>
        </div>
        <div className="toolbar">
          <label className="search">
            <span className="visually-hidden">Search rules</span>
            <input type="search" placeholder="Search by name, alias or id" value={query} onChange={(e) => setQuery(e.target.value)} />
          </label>
          {(folder !== null || tag !== null) && (
            <button type="button" className="btn btn-ghost" onClick={() => { setFolder(null); setTag(null); }}>Clear filters</button>
          )}
        </div>
        {error && <ErrorState title="The rules could not be loaded" message={error} onRetry={() => void load()} />}
        {!error && items === null && <Loading label="Loading rules…" />}
        {!error && items !== null && rules.length === 0 && (
          <EmptyState title="No rules in this space yet">
            <p>Create a decision table from scratch, or import a DecisionRules export, a GoRules JDM file or a DMN model.</p>
            <div className="actions">
              <GuardedButton className="btn" permission="rules:edit" what="import rules" onClick={() => fileInput.current?.click()}>Import a file</GuardedButton>
              <GuardedButton className="btn btn-primary" permission="rules:edit" what="create rules" onClick={() => setCreating(true)}>Create a decision table</GuardedButton>
            </div>
          </EmptyState>
        )}
        {!error && rules.length > 0 && visible.length === 0 && <EmptyState title="No rule matches"><p>Change the search or the filters.</p></EmptyState>}
        {visible.length > 0 && (
          <table className="data-table" aria-label="Rules">
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Version</th><th scope="col">Last change</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {visible.map(({ latest, versions, published }) => (
                <tr key={latest.ruleId} className="row-opens" onClick={(e) => openFromRow(e, { page: 'rule', id: latest.ruleId, version: latest.version })}>
                  <td>
                    <a className="rule-name" href={href({ page: 'rule', id: latest.ruleId, version: latest.version })}
                      aria-label={repeatedNames.has(latest.name) ? labelOf(latest) : undefined}>{latest.name}</a>
                    <div className="rule-meta">
                      <code title="Alias">{latest.ruleAlias ?? latest.ruleId}</code>
                      {folderOf(latest) !== '/' && <span className="muted">{folderOf(latest)}</span>}
                      {(latest.tags ?? []).map((t) => <span key={t} className="tag tag-static">{t}</span>)}
                    </div>
                  </td>
                  <td className="nowrap">{TYPE_LABELS[latest.type] ?? latest.type}</td>
                  <td>
                    <span className={`badge badge-${latest.status}`}>{latest.status}</span>
                    {latest.locked && <span className="badge badge-locked">locked</span>}
                  </td>
                  <td className="nowrap">v{latest.version}<span className="muted small"> · {versions} version{versions === 1 ? '' : 's'}{published !== null ? `, v${published} live` : ''}</span></td>
                  <td className="nowrap">{formatTime(lastChange(latest))}</td>
                  <td className="row-actions">
                    <button type="button" className="btn btn-small btn-ghost" aria-label={`Export ${labelOf(latest)}`} onClick={() => void exportRule(latest)}>Export</button>
                    <GuardedButton className="btn btn-small btn-ghost btn-danger-text" permission="rules:publish" what="delete rules" aria-label={`Delete ${labelOf(latest)}`} onClick={() => setDeleting(latest)}>Delete</GuardedButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {dragging && <div className="drop-overlay" aria-hidden="true">Drop a DecisionRules export, a JDM file or a DMN model to import it</div>}
      </section>
      <NewRuleDialog open={creating} folder={folder} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={deleting !== null} title="Delete rule" danger confirmLabel="Delete"
        message={deleting && <p>Delete <strong>{deleting.name}</strong> and all its versions? Solvers using it will get “Unknown rule”. This cannot be undone.</p>}
        onClose={() => setDeleting(null)} onConfirm={() => deleting && void deleteRule(deleting)}
      />
    </div>
  );
}

/**
 * A click anywhere on a rule's row opens it, as the name's link does; the link stays the row's one keyboard stop
 * (a row is not focusable). Left alone: clicks on the row's own controls (the link itself, Export, Delete), clicks
 * with a modifier (the browser's own gestures on the link) and a click that ends a text selection (copying an id).
 */
function openFromRow(event: ReactMouseEvent<HTMLTableRowElement>, route: Route) {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  if ((event.target as HTMLElement).closest('a, button, input, select, textarea, label, summary')) return;
  if ((window.getSelection()?.toString() ?? '') !== '') return;
  navigate(route);
}

function NewRuleDialog(props: { open: boolean; folder: string | null; onClose(): void }) {
  const { api } = useStudio();
  const items = useSpaceItems(props.open);
  const [name, setName] = useState('');
  // The alias follows the name until the user edits it (then it is theirs).
  const [alias, setAlias] = useState('');
  const [aliasEdited, setAliasEdited] = useState(false);
  const [type, setType] = useState(RULE_KINDS[0]!.type);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const suggestion = aliasEdited || name.trim() === '' ? undefined : suggestedAlias(name, items ?? []);
  const shownAlias = aliasEdited ? alias : suggestion?.alias ?? '';
  // Nothing to say before a name or an alias is typed.
  const problem = shownAlias === '' && !aliasEdited ? null : aliasProblem(shownAlias, items ?? []);

  function reset() {
    setName('');
    setAlias('');
    setAliasEdited(false);
    setError(null);
  }

  // Cancel forgets what was typed: the next New rule starts from an empty name and an alias that follows it.
  function close() {
    reset();
    props.onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setError('Give the rule a name.');
      return;
    }
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const kind = RULE_KINDS.find((k) => k.type === type) ?? RULE_KINDS[0]!;
      const created = await api.createRule({ ...kind.blank(name.trim()), ruleAlias: shownAlias }, props.folder ?? undefined);
      close();
      navigate({ page: 'rule', id: created.ruleId, version: created.version });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title="New rule" open={props.open} onClose={close}>
      <form onSubmit={(e) => void submit(e)} className="dialog-body">
        <label className="field">
          <span>Rule type</span>
          <select value={type} onChange={(e) => setType(e.target.value)}>
            {RULE_KINDS.map((k) => <option key={k.type} value={k.type}>{k.label}</option>)}
          </select>
        </label>
        <label className="field">
          <span>Rule name</span>
          <input value={name} autoFocus onChange={(e) => setName(e.target.value)} maxLength={100} />
        </label>
        <label className="field">
          <span>Alias</span>
          <input value={shownAlias} spellCheck={false} maxLength={MAX_ALIAS_LENGTH} aria-invalid={problem !== null}
            aria-describedby={problem ? 'new-rule-alias-problem' : 'new-rule-alias-hint'}
            onChange={(e) => { setAlias(e.target.value); setAliasEdited(true); }} />
        </label>
        {problem
          ? <p id="new-rule-alias-problem" className="form-error" role="alert">{problem}</p>
          : (
            <p id="new-rule-alias-hint" className="muted small field-hint">
              {suggestion?.clashesWith && <>“{aliasSlug(name)}” is already the alias of the rule “{suggestion.clashesWith.name}”, so this one gets “{shownAlias}”. </>}
              Solvers call the rule by its alias: <code>POST /rule/solve/{shownAlias || 'alias'}</code>. You can change it later.
            </p>
          )}
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy || problem !== null}>Create</button>
        </div>
      </form>
    </Dialog>
  );
}
