// The test bench: runs the unsaved draft through POST /api/tools/solve with a JSON input (CodeMirror, linted) or
// a form generated from the input model; the strategies the rule's kind offers and, for tables, included/excluded
// condition columns; results as JSON and as a table, then the kind's own view of the run (BenchView); the trace
// goes to the designer so the matched rows light up. Inputs are remembered per rule.
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../api/client.ts';
import type { Problem, SolveDraftResponse } from '../api/client.ts';
import type { RuleKind } from '../kinds/types.ts';
import type { RuleDocument } from '../api/types.ts';
import { useStudio } from '../app/context.ts';
import { columnTitle, tableOf } from '../compare/diff.ts';
import { benchInputs } from '../drafts/storage.ts';
import type { BenchInputs } from '../drafts/storage.ts';
import { JsonEditor } from '../designer/JsonEditor.tsx';
import { benchFields, conditionPath, fieldText, getPath, setPath, skeletonText, untouchedInput } from './model.ts';
import type { TestDefinition } from '../tests/api.ts';

function defaultInputs(json: string): BenchInputs {
  return { mode: 'json', json, strategy: 'STANDARD', included: [], excluded: [] };
}

type Outcome = { kind: 'result'; result: unknown; ms: number; input: unknown; response: SolveDraftResponse } | { kind: 'error'; message: string; problems: Problem[] };

export function TestBench(props: { rule: RuleDocument; kind: RuleKind; onTrace(trace: unknown): void; onSaveAsTest?(test: TestDefinition): void }) {
  const { api } = useStudio();
  const ruleId: string = props.rule.ruleId;
  // The input starts as the input model's skeleton and follows the model while the person has not typed in it.
  const skeleton = useMemo(() => skeletonText(props.rule.inputSchema), [props.rule.inputSchema]);
  const [inputs, setInputs] = useState<BenchInputs>(() => {
    const stored: BenchInputs = { ...defaultInputs(skeleton), ...(benchInputs.get(ruleId) ?? {}) };
    return untouchedInput(stored.json) ? { ...stored, json: skeleton } : stored;
  });
  const [givenSkeleton, setGivenSkeleton] = useState(skeleton);
  if (skeleton !== givenSkeleton) {
    setGivenSkeleton(skeleton);
    if (untouchedInput(inputs.json)) setInputs({ ...inputs, json: skeleton });
  }
  const selection = props.kind.benchSelection;
  const selectable = useMemo(() => selection?.names(props.rule) ?? [], [selection, props.rule]);
  /** The parts chosen to run alone (none: the whole rule); names the rule no longer has are not sent. */
  const [selected, setSelected] = useState<string[]>([]);
  const chosen = selected.filter((name) => selectable.includes(name));
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [running, setRunning] = useState(false);
  const [view, setView] = useState<'table' | 'json'>('table');
  useEffect(() => benchInputs.put(ruleId, inputs), [ruleId, inputs]);

  const fields = useMemo(() => benchFields(props.rule, props.kind.inputPaths?.(props.rule)), [props.rule, props.kind]);
  const strategies = props.kind.strategies ?? [];
  const strategyField = props.kind.strategyField ?? 'strategy';
  const BenchView = props.kind.BenchView;
  const conditionColumns = useMemo(() => (props.rule.type === 'decision-table' ? tableOf(props.rule).columns.filter((c) => c.type === 'input') : []), [props.rule]);
  const parsed = useMemo(() => {
    try {
      return { data: JSON.parse(inputs.json) as unknown };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }, [inputs.json]);
  const formData = parsed.data && typeof parsed.data === 'object' && !Array.isArray(parsed.data) ? (parsed.data as Record<string, unknown>) : {};

  const update = (patch: Partial<BenchInputs>) => setInputs((current) => ({ ...current, ...patch }));
  const toggle = (list: 'included' | 'excluded', name: string, on: boolean) =>
    setInputs((current) => ({ ...current, [list]: on ? [...current[list], name] : current[list].filter((n) => n !== name) }));

  async function run() {
    if (parsed.error !== undefined) {
      setOutcome({ kind: 'error', message: `The input is not valid JSON: ${parsed.error}`, problems: [] });
      return;
    }
    setRunning(true);
    const started = performance.now();
    try {
      const options = {
        ...(inputs.included.length ? { includedConditionCols: inputs.included } : {}),
        ...(inputs.excluded.length ? { excludedConditionCols: inputs.excluded } : {}),
        ...(selection && chosen.length ? { [selection.option]: chosen } : {}),
      };
      const response = await api.solveDraft({
        rule: props.rule, data: parsed.data, ...(strategies.includes(inputs.strategy) ? { [strategyField]: inputs.strategy } : {}),
        ...(Object.keys(options).length ? { options } : {}),
      });
      setOutcome({ kind: 'result', result: response.result, ms: Math.round(performance.now() - started), input: parsed.data, response });
      props.onTrace(response.trace);
    } catch (err) {
      props.onTrace(undefined);
      setOutcome({ kind: 'error', message: err instanceof Error ? err.message : String(err), problems: err instanceof ApiError ? err.problems : [] });
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="bench">
      <div className="segmented" role="radiogroup" aria-label="Bench input">
        <label><input type="radio" name="bench-mode" checked={inputs.mode === 'json'} onChange={() => update({ mode: 'json' })} /> JSON</label>
        <label><input type="radio" name="bench-mode" checked={inputs.mode === 'simple'} onChange={() => update({ mode: 'simple' })} /> Form</label>
      </div>
      {inputs.mode === 'json' ? (
        <JsonEditor label="Bench input (JSON)" value={inputs.json} onChange={(json) => update({ json })} />
      ) : (
        <div className="bench-form">
          {parsed.error !== undefined && <p className="form-error" role="alert">The JSON input does not parse; fix it in the JSON view first.</p>}
          {fields.length === 0 && <p className="muted">The input model is empty. Add input attributes in the designer.</p>}
          {fields.map((field) => (
            <label key={field.path} className="field field-inline">
              <span><code>{field.path}</code></span>
              <input
                type={field.kind === 'date' ? 'date' : 'text'} value={fieldText(getPath(formData, field.path))}
                disabled={parsed.error !== undefined}
                onChange={(e) => update({ json: JSON.stringify(setPath(formData, field.path, e.target.value), null, 2) })}
              />
            </label>
          ))}
        </div>
      )}
      <div className="bench-options">
        {strategies.length > 0 && (
          <label className="field field-inline">
            <span>{strategyField === 'lookupMethod' ? 'Lookup method' : 'Strategy'}</span>
            <select value={strategies.includes(inputs.strategy) ? inputs.strategy : strategies[0]} onChange={(e) => update({ strategy: e.target.value })}>
              {strategies.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </label>
        )}
        {conditionColumns.length > 0 && (
          <details className="column-options">
            <summary>Condition columns{inputs.included.length + inputs.excluded.length > 0 ? ` (${inputs.included.length} included, ${inputs.excluded.length} excluded)` : ''}</summary>
            <table className="mini-table">
              <thead><tr><th scope="col">Column</th><th scope="col">Only these</th><th scope="col">Skip</th></tr></thead>
              <tbody>
                {conditionColumns.map((column) => {
                  const name = column.alias ?? conditionPath(column) ?? column.columnId;
                  const title = columnTitle(column);
                  return (
                    <tr key={column.columnId}>
                      <td>{title}</td>
                      <td><input type="checkbox" aria-label={`Include only ${title}`} checked={inputs.included.includes(name)} onChange={(e) => toggle('included', name, e.target.checked)} /></td>
                      <td><input type="checkbox" aria-label={`Exclude ${title}`} checked={inputs.excluded.includes(name)} onChange={(e) => toggle('excluded', name, e.target.checked)} /></td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </details>
        )}
        {selection && selectable.length > 1 && (
          <fieldset className="bench-choices">
            <legend>{selection.label}{chosen.length ? ` (${chosen.length} of ${selectable.length})` : ' (all)'}</legend>
            {selectable.map((name) => (
              <label key={name}>
                <input type="checkbox" checked={chosen.includes(name)}
                  onChange={(e) => setSelected((current) => (e.target.checked ? [...current, name] : current.filter((n) => n !== name)))} /> {name}
              </label>
            ))}
          </fieldset>
        )}
      </div>
      <button type="button" className="btn btn-primary btn-block" onClick={() => void run()} disabled={running}>{running ? 'Running…' : 'Run'}</button>
      <p className="muted small">Runs the draft as it is in the designer, saved or not. Nothing is stored.</p>
      <section className="bench-result" aria-label="Bench result" aria-live="polite">
        {outcome?.kind === 'error' && (
          <div className="banner banner-error" role="alert">
            {outcome.message}
            {props.kind.explainError?.(outcome.message) && <p>{props.kind.explainError(outcome.message)}</p>}
            {outcome.problems.length > 0 && <ul>{outcome.problems.map((p, i) => <li key={i}><code>{p.path}</code> {p.message}</li>)}</ul>}
          </div>
        )}
        {outcome?.kind === 'result' && (
          <>
            <div className="result-header">
              <h3>Result <span className="muted small">{outcome.ms} ms</span></h3>
              <div className="segmented" role="radiogroup" aria-label="Result view">
                <label><input type="radio" name="result-view" checked={view === 'table'} onChange={() => setView('table')} /> Table</label>
                <label><input type="radio" name="result-view" checked={view === 'json'} onChange={() => setView('json')} /> JSON</label>
              </div>
            </div>
            {/* A rule test keeps a strategy but no lookup method: only a run with the default method makes a test. */}
            {props.onSaveAsTest && (strategyField === 'strategy' || !strategies.includes(inputs.strategy) || inputs.strategy === strategies[0]) && outcome.input !== null && typeof outcome.input === 'object' && !Array.isArray(outcome.input) && Array.isArray(outcome.result) && (
              <button type="button" className="btn btn-small" onClick={() => props.onSaveAsTest!({
                name: '', input: outcome.input as Record<string, unknown>, expected: outcome.result as unknown[],
                strategy: strategyField !== 'strategy' || !strategies.includes(inputs.strategy) || inputs.strategy === 'STANDARD' ? null : inputs.strategy,
                includedConditionCols: inputs.included.length ? inputs.included : null,
                excludedConditionCols: inputs.excluded.length ? inputs.excluded : null,
              })}>Save as test</button>
            )}
            {view === 'json' ? <pre className="json-view" aria-label="Result JSON">{JSON.stringify(outcome.result, null, 2)}</pre> : <ResultTable result={outcome.result} />}
            {BenchView && <BenchView rule={props.rule} response={outcome.response} />}
          </>
        )}
      </section>
    </div>
  );
}

function flatten(value: unknown, prefix = '', into: Record<string, unknown> = {}): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) flatten(child, prefix ? `${prefix}.${key}` : key, into);
  } else into[prefix || 'value'] = value;
  return into;
}

/** One line per result object (per input for a bulk run), one column per output path. */
function ResultTable(props: { result: unknown }) {
  const groups: unknown[][] = Array.isArray(props.result) && props.result.every(Array.isArray) && props.result.length > 0 ? (props.result as unknown[][]) : [Array.isArray(props.result) ? props.result : [props.result]];
  const rows = groups.flatMap((group, input) => group.map((item) => ({ input, values: flatten(item) })));
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
  if (rows.length === 0) return <p className="muted">No row matched: the result is empty.</p>;
  return (
    <table className="mini-table result-table" aria-label="Result table">
      <thead><tr>{groups.length > 1 && <th scope="col">Input</th>}{keys.map((k) => <th key={k} scope="col">{k}</th>)}</tr></thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>{groups.length > 1 && <td>{row.input + 1}</td>}{keys.map((k) => <td key={k}>{row.values[k] === undefined ? '' : typeof row.values[k] === 'string' ? (row.values[k] as string) : JSON.stringify(row.values[k])}</td>)}</tr>
        ))}
      </tbody>
    </table>
  );
}
