// The audit log of the signed-in space (GET /api/audit): filter by rule, correlation id, status and time, newest
// first with "Load more"; opening a record shows its input, output or error and, when it was solved with
// X-Debug: true, its trace drawn exactly as the test bench draws a run (AuditTrace).
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import type { RuleItem } from '../api/client.ts';
import { useStudio } from '../app/context.ts';
import { href } from '../app/router.ts';
import { TimeRangeFields } from './TimeRangeFields.tsx';
import { EmptyState, ErrorState, Loading, formatShortTime, formatTime } from '../ui/states.tsx';
import { spaceApi } from './api.ts';
import type { AuditFilter, AuditRecord } from './api.ts';
import { EMPTY_AUDIT_FORM, auditFilterOf } from './audit-filter.ts';
import type { AuditForm } from './audit-filter.ts';
import { AuditTrace } from './AuditTrace.tsx';

function statusTone(status: number): string {
  return status < 300 ? 'badge-published' : status < 500 ? 'badge-pending' : 'badge-revoked';
}

export function AuditPage() {
  const { api } = useStudio();
  const [form, setForm] = useState<AuditForm>(EMPTY_AUDIT_FORM);
  const [filter, setFilter] = useState<AuditFilter>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [records, setRecords] = useState<AuditRecord[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [open, setOpen] = useState<AuditRecord | null>(null);
  const [rules, setRules] = useState<RuleItem[]>([]);

  const load = useCallback(async (applied: AuditFilter) => {
    setError(null);
    setRecords(null);
    try {
      const page = await spaceApi.audit(api, applied);
      setRecords(page.items);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [api]);
  useEffect(() => { void load(filter); }, [load, filter]);
  useEffect(() => { api.listItems().then(setRules, () => setRules([])); }, [api]);

  async function more() {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await spaceApi.audit(api, { ...filter, cursor });
      setRecords((current) => [...(current ?? []), ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoadingMore(false);
    }
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    const checked = auditFilterOf(form);
    if (checked.error !== undefined) {
      setFormError(checked.error);
      return;
    }
    setFormError(null);
    setFilter(checked.filter);
  }

  if (open) return <AuditRecordView record={open} onBack={() => setOpen(null)} />;

  const aliases = [...new Set(rules.map((r) => r.ruleAlias ?? r.ruleId))].sort();
  const set = (patch: Partial<AuditForm>) => setForm((current) => ({ ...current, ...patch }));
  return (
    <section className="content space-page" aria-labelledby="audit-title">
      <div className="content-header">
        <div>
          <h1 id="audit-title">Audit log</h1>
          <p className="muted">Solves recorded with <code>X-Audit: true</code> or <code>X-Debug: true</code> (or by a rule's audit setting), newest first.</p>
        </div>
        <div className="actions"><button type="button" className="btn" onClick={() => void load(filter)}>Refresh</button></div>
      </div>
      <form className="filter-bar" aria-label="Audit filters" onSubmit={apply}>
        <label className="field">
          <span>Rule</span>
          <input list="audit-rules" value={form.ruleId} placeholder="Id or alias" onChange={(e) => set({ ruleId: e.target.value })} />
          <datalist id="audit-rules">{aliases.map((a) => <option key={a} value={a} />)}</datalist>
        </label>
        <label className="field">
          <span>Correlation id</span>
          <input value={form.correlationId} onChange={(e) => set({ correlationId: e.target.value })} />
        </label>
        <label className="field field-narrow">
          <span>Status</span>
          <input value={form.status} inputMode="numeric" placeholder="e.g. 400" maxLength={3} onChange={(e) => set({ status: e.target.value })} />
        </label>
        <TimeRangeFields from={form.from} to={form.to} onChange={set} onClear={() => { setForm(EMPTY_AUDIT_FORM); setFormError(null); setFilter({}); }} />
      </form>
      {formError && <p className="form-error" role="alert">{formError}</p>}
      {error && <ErrorState title="The audit log could not be loaded" message={error} onRetry={() => void load(filter)} />}
      {!error && records === null && <Loading label="Loading audit records…" />}
      {records !== null && records.length === 0 && (
        <EmptyState title={Object.keys(filter).length ? 'No record matches the filters' : 'No audit records yet'}>
          <p>Solve with the header <code>X-Audit: true</code> (add <code>X-Debug: true</code> for the trace) to record a solve here.</p>
        </EmptyState>
      )}
      {records !== null && records.length > 0 && (
        <>
          <table className="data-table" aria-label="Audit records">
            <thead>
              <tr><th scope="col">Time</th><th scope="col">Rule</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Correlation id</th><th scope="col">Trace</th><th scope="col"><span className="visually-hidden">Open</span></th></tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.id}>
                  <td className="nowrap">{formatShortTime(r.createdAt)}</td>
                  <td>{r.ruleAlias ?? r.ruleId}{r.version !== null && <span className="muted small"> v{r.version}</span>}</td>
                  <td className="nowrap"><span className={`badge ${statusTone(r.statusCode)}`}>{r.statusCode}</span>{r.errorKind && <span className="muted small">{r.errorKind}</span>}</td>
                  <td className="nowrap">{r.executionTimeMs.toFixed(1)} ms</td>
                  <td><code className="small">{r.correlationId}</code></td>
                  <td>{r.debug !== null && r.debug !== undefined ? 'yes' : <span className="muted">—</span>}</td>
                  <td className="row-actions">
                    <button type="button" className="btn btn-small" aria-label={`Open record ${r.correlationId}`} onClick={() => setOpen(r)}>Open</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {cursor && <button type="button" className="btn btn-block load-more" disabled={loadingMore} onClick={() => void more()}>{loadingMore ? 'Loading…' : 'Load more'}</button>}
        </>
      )}
    </section>
  );
}

function AuditRecordView(props: { record: AuditRecord; onBack(): void }) {
  const r = props.record;
  return (
    <section className="content space-page audit-record" aria-labelledby="record-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <button type="button" className="btn btn-ghost btn-small" onClick={props.onBack}>← Audit log</button>
      </nav>
      <div className="content-header">
        <div>
          <h1 id="record-title">Audit record <code>{r.correlationId}</code></h1>
          <p className="muted">
            {formatTime(r.createdAt)} · <a href={href({ page: 'rule', id: r.ruleId, version: r.version ?? 'latest' })}>{r.ruleAlias ?? r.ruleId}{r.version !== null ? ` v${r.version}` : ''}</a>
            {' '}· {r.strategy} · {r.executionTimeMs.toFixed(1)} ms · kept until {formatTime(r.expiresAt)}
          </p>
        </div>
        <span className={`badge ${statusTone(r.statusCode)}`}>{r.statusCode}{r.errorKind ? ` ${r.errorKind}` : ''}</span>
      </div>
      {r.errorMessage && <div className="banner banner-error" role="alert">{r.errorMessage}</div>}
      <div className="record-io">
        <figure>
          <figcaption>Input</figcaption>
          <pre className="json-view" aria-label="Record input">{JSON.stringify(r.input, null, 2)}</pre>
        </figure>
        <figure>
          <figcaption>Output</figcaption>
          <pre className="json-view" aria-label="Record output">{r.output === null ? '(no output: the solve failed)' : JSON.stringify(r.output, null, 2)}</pre>
        </figure>
      </div>
      <AuditTrace record={r} />
    </section>
  );
}
