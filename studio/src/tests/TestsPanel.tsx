// The rule page's Tests tab (issue 13): the rule's suites and tests, a test editor (name, input, expected output,
// ignored paths, strategy), "Save as test" from the bench (the seed), runs of all or the selected tests against
// the saved version open in the designer, each result with its differences (path, expected, received), and the
// run history. Tests belong to the rule (every version); a run names the version it ran.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { formatTime } from '../ui/states.tsx';
import { testsApi } from './api.ts';
import type { Run, RuleTest, RunSummary, Suite, TestDefinition, TestResult } from './api.ts';
import './tests.css';
import { GuardedButton } from '../ui/GuardedButton.tsx';

const STRATEGIES = ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'];
/** The suite a test goes to when the rule has none yet. */
const FIRST_SUITE = 'Tests';

interface EditorState {
  /** The test being edited; undefined: a new one. */
  testId?: string;
  suiteId: string;
  name: string;
  input: string;
  expected: string;
  ignore: string;
  strategy: string;
  included?: string[] | null;
  excluded?: string[] | null;
}

function editorOf(test: TestDefinition, suiteId: string, testId?: string): EditorState {
  return {
    testId, suiteId, name: test.name,
    input: JSON.stringify(test.input, null, 2), expected: JSON.stringify(test.expected, null, 2),
    ignore: (test.ignore ?? []).join('\n'), strategy: test.strategy ?? '',
    included: test.includedConditionCols, excluded: test.excludedConditionCols,
  };
}

/** Reads the editor into a test body, or says which field does not parse. */
function definitionOf(state: EditorState): TestDefinition | string {
  let input: unknown;
  let expected: unknown;
  try { input = JSON.parse(state.input); } catch (err) { return `Input is not valid JSON: ${(err as Error).message}`; }
  try { expected = JSON.parse(state.expected); } catch (err) { return `Expected output is not valid JSON: ${(err as Error).message}`; }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return 'Input must be a JSON object';
  if (!Array.isArray(expected)) return 'Expected output must be a JSON array (the result list a solve returns)';
  return {
    name: state.name.trim(), input: input as Record<string, unknown>, expected,
    ignore: state.ignore.split('\n').map((l) => l.trim()).filter((l) => l !== ''),
    strategy: state.strategy === '' ? null : state.strategy,
    ...(state.included ? { includedConditionCols: state.included } : {}),
    ...(state.excluded ? { excludedConditionCols: state.excluded } : {}),
  };
}

function show(value: unknown): string {
  return value === undefined ? '—' : JSON.stringify(value);
}

export function TestsPanel(props: { rule: RuleDocument; dirty: boolean; seed: TestDefinition | null; onSeedUsed(): void }) {
  const { api, notify } = useStudio();
  const tests = useMemo(() => testsApi(api), [api]);
  const ruleId: string = props.rule.ruleId;
  const version: number = props.rule.version;
  const [suites, setSuites] = useState<Suite[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [editorError, setEditorError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [run, setRun] = useState<Run | null>(null);
  const [running, setRunning] = useState(false);
  const [history, setHistory] = useState<RunSummary[] | null>(null);
  const [renaming, setRenaming] = useState<{ suiteId: string; name: string } | null>(null);

  const fail = useCallback((err: unknown) => notify(err instanceof Error ? err.message : String(err), 'error'), [notify]);

  const load = useCallback(async () => {
    try {
      setSuites(await tests.suites(ruleId));
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [tests, ruleId]);
  useEffect(() => { void load(); }, [load]);

  // "Save as test" on the bench: open the editor on the bench's input and result.
  useEffect(() => {
    if (!props.seed || suites === null) return;
    setEditor(editorOf(props.seed, suites[0]?.id ?? ''));
    setEditorError(null);
    props.onSeedUsed();
  }, [props.seed, suites, props]);

  const statusOf = useMemo(() => new Map((run?.results ?? []).map((r) => [r.testId, r.status])), [run]);

  async function saveTest() {
    if (!editor) return;
    const definition = definitionOf(editor);
    if (typeof definition === 'string') { setEditorError(definition); return; }
    if (definition.name === '') { setEditorError('Name the test'); return; }
    try {
      let suiteId = editor.suiteId;
      if (suiteId === '') suiteId = (await tests.createSuite(ruleId, FIRST_SUITE)).id;
      if (editor.testId) await tests.updateTest(suiteId, editor.testId, definition);
      else await tests.createTest(suiteId, definition);
      notify(`Test "${definition.name}" saved`, 'success');
      setEditor(null);
      await load();
    } catch (err) {
      const problems = (err as { problems?: { path: string; message: string }[] }).problems ?? [];
      setEditorError([err instanceof Error ? err.message : String(err), ...problems.map((p) => `${p.path}: ${p.message}`)].join(' · '));
    }
  }

  async function newSuite() {
    const taken = new Set((suites ?? []).map((s) => s.name));
    let name = 'New suite';
    for (let i = 2; taken.has(name); i++) name = `New suite ${i}`;
    try {
      const suite = await tests.createSuite(ruleId, name);
      await load();
      setRenaming({ suiteId: suite.id, name: suite.name });
    } catch (err) { fail(err); }
  }

  async function runTests(testIds?: string[]) {
    setRunning(true);
    try {
      const result = await tests.run(ruleId, version, testIds);
      setRun(result);
      setHistory(null);
      notify(`${result.passed} passed, ${result.failed} failed${result.errors ? `, ${result.errors} errors` : ''}`, result.failed + result.errors > 0 ? 'error' : 'success');
    } catch (err) { fail(err); } finally { setRunning(false); }
  }

  async function openHistory() {
    try { setHistory(await tests.runs(ruleId)); } catch (err) { fail(err); }
  }

  if (error) return <div className="banner banner-error" role="alert">The tests could not be read: {error}</div>;
  if (suites === null) return <p className="muted">Reading the tests…</p>;
  const all = suites.flatMap((s) => s.tests);

  return (
    <div className="tests-tab">
      <div className="tests-toolbar">
        <GuardedButton className="btn btn-small" permission="rules:edit" what="edit tests" onClick={() => { setEditor({ suiteId: suites[0]?.id ?? '', name: '', input: '{\n  \n}', expected: '[]', ignore: '', strategy: '' }); setEditorError(null); }}>New test</GuardedButton>
        <GuardedButton className="btn btn-small" permission="rules:edit" what="edit tests" onClick={() => void newSuite()}>New suite</GuardedButton>
        <button type="button" className="btn btn-small btn-primary" disabled={running || all.length === 0} onClick={() => void runTests()}>{running ? 'Running…' : 'Run tests'}</button>
        <button type="button" className="btn btn-small" disabled={running || selected.size === 0} onClick={() => void runTests([...selected])}>Run selected</button>
        <button type="button" className="btn btn-small" onClick={() => void openHistory()}>Run history</button>
      </div>
      <p className="muted small">Runs against the saved v{version}{props.dirty ? ' — save the draft to test your edits' : ''}.</p>

      {editor && (
        <section className="test-editor" aria-label="Test editor">
          <h3>{editor.testId ? 'Edit test' : 'New test'}</h3>
          {suites.length > 1 && (
            <label className="field">
              <span>Suite</span>
              <select value={editor.suiteId} onChange={(e) => setEditor({ ...editor, suiteId: e.target.value })} disabled={editor.testId !== undefined}>
                {suites.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
              </select>
            </label>
          )}
          <label className="field"><span>Test name</span><input value={editor.name} onChange={(e) => setEditor({ ...editor, name: e.target.value })} /></label>
          <label className="field"><span>Test input (JSON)</span><textarea rows={5} spellCheck={false} value={editor.input} onChange={(e) => setEditor({ ...editor, input: e.target.value })} /></label>
          <label className="field"><span>Expected output (JSON)</span><textarea rows={5} spellCheck={false} value={editor.expected} onChange={(e) => setEditor({ ...editor, expected: e.target.value })} /></label>
          <label className="field"><span>Ignored paths (one per line)</span><textarea rows={2} spellCheck={false} value={editor.ignore} onChange={(e) => setEditor({ ...editor, ignore: e.target.value })} /></label>
          <label className="field">
            <span>Strategy</span>
            <select value={editor.strategy} onChange={(e) => setEditor({ ...editor, strategy: e.target.value })}>
              <option value="">Rule default</option>
              {STRATEGIES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </label>
          {editorError && <p className="form-error" role="alert">{editorError}</p>}
          <div className="dialog-actions">
            <button type="button" className="btn btn-small" onClick={() => setEditor(null)}>Cancel</button>
            <button type="button" className="btn btn-small btn-primary" onClick={() => void saveTest()}>Save test</button>
          </div>
        </section>
      )}

      {all.length === 0 && suites.length === 0 && !editor && (
        <p className="muted">No tests yet. Run an input on the test bench and choose “Save as test”, or create one with “New test”.</p>
      )}
      {suites.map((suite) => (
        <section key={suite.id} className="test-suite" aria-label={`Suite ${suite.name}`}>
          <div className="suite-head">
            {renaming?.suiteId === suite.id ? (
              <form onSubmit={(e) => { e.preventDefault(); void tests.renameSuite(suite.id, renaming.name).then(() => { setRenaming(null); return load(); }, fail); }}>
                <input aria-label="Suite name" value={renaming.name} onChange={(e) => setRenaming({ ...renaming, name: e.target.value })} />
                <button type="submit" className="btn btn-small">Save name</button>
              </form>
            ) : (
              <h3>{suite.name} <span className="muted small">{suite.tests.length} test{suite.tests.length === 1 ? '' : 's'}</span></h3>
            )}
            <GuardedButton className="btn btn-small" permission="rules:edit" what="edit tests" aria-label={`Rename suite ${suite.name}`} onClick={() => setRenaming({ suiteId: suite.id, name: suite.name })}>Rename</GuardedButton>
            <GuardedButton className="btn btn-small btn-danger" permission="rules:edit" what="edit tests" aria-label={`Delete suite ${suite.name}`} onClick={() => void tests.deleteSuite(suite.id).then(load, fail)}>Delete</GuardedButton>
          </div>
          <ul className="test-list">
            {suite.tests.map((test) => (
              <TestLine key={test.id} test={test} status={statusOf.get(test.id)} selected={selected.has(test.id)}
                onSelect={(on) => setSelected((current) => { const next = new Set(current); if (on) next.add(test.id); else next.delete(test.id); return next; })}
                onEdit={() => { setEditor(editorOf(test, suite.id, test.id)); setEditorError(null); }}
                onDelete={() => void tests.deleteTest(suite.id, test.id).then(load, fail)} />
            ))}
          </ul>
        </section>
      ))}

      {history && (
        <section className="run-history" aria-label="Run history">
          <h3>Run history</h3>
          {history.length === 0 ? <p className="muted">No run yet.</p> : (
            <ul>
              {history.map((h) => (
                <li key={h.id}>
                  <button type="button" className="link-button" onClick={() => void tests.runById(h.id).then((r) => { setRun(r); setHistory(null); }, fail)}>
                    {formatTime(h.createdAt)} · v{h.version} · {h.passed} passed, {h.failed} failed{h.errors ? `, ${h.errors} errors` : ''}{h.trigger === 'publish' ? ` · publish${h.forced ? ' (forced)' : ''}` : ''}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {run && <RunResults run={run} />}
    </div>
  );
}

function TestLine(props: { test: RuleTest; status?: TestResult['status']; selected: boolean; onSelect(on: boolean): void; onEdit(): void; onDelete(): void }) {
  const { test } = props;
  return (
    <li className="test-line">
      <input type="checkbox" aria-label={`Select ${test.name}`} checked={props.selected} onChange={(e) => props.onSelect(e.target.checked)} />
      <span className="test-name">{test.name}</span>
      {props.status && <span className={`badge test-${props.status}`}>{props.status}</span>}
      <GuardedButton className="btn btn-small" permission="rules:edit" what="edit tests" aria-label={`Edit ${test.name}`} onClick={props.onEdit}>Edit</GuardedButton>
      <GuardedButton className="btn btn-small btn-danger" permission="rules:edit" what="edit tests" aria-label={`Delete ${test.name}`} onClick={props.onDelete}>Delete</GuardedButton>
    </li>
  );
}

/** One run: a line per test, and for a failed test its differences, expected and received side by side. */
function RunResults(props: { run: Run }) {
  const { run } = props;
  return (
    <section className="test-results" aria-label="Test results">
      <h3>Run of v{run.version} <span className="muted small">{formatTime(run.createdAt)}</span></h3>
      <p className={run.failed + run.errors > 0 ? 'tests-summary tests-summary-failed' : 'tests-summary tests-summary-passed'}>
        {run.passed} passed, {run.failed} failed{run.errors ? `, ${run.errors} errors` : ''}
      </p>
      <ul className="result-list">
        {run.results.map((result) => (
          <li key={result.testId} className={`test-result test-result-${result.status}`}>
            <div><span className={`badge test-${result.status}`}>{result.status}</span> <strong>{result.suiteName}</strong> › {result.testName}</div>
            {result.error && <p className="form-error">{result.error}</p>}
            {result.differences.length > 0 && (
              <table className="mini-table diff-table" aria-label={`Differences for ${result.testName}`}>
                <thead><tr><th scope="col">Path</th><th scope="col">Expected</th><th scope="col">Received</th></tr></thead>
                <tbody>
                  {result.differences.map((d, i) => (
                    <tr key={i}>
                      <td><code>{d.path}</code>{d.kind !== 'changed' && <span className="muted small"> ({d.kind})</span>}</td>
                      <td className="diff-expected"><code>{show(d.expected)}</code></td>
                      <td className="diff-received"><code>{show(d.received)}</code></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
