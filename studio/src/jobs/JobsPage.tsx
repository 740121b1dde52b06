// The Jobs page: start a job on a published rule version from a file (NDJSON, CSV or a JSON array), follow each
// job's progress, cancel a running one, download a completed one's results (NDJSON, one line per input). The list
// refreshes while any job is active.
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import type { RuleItem } from '../api/client.ts';
import { useStudio } from '../app/context.ts';
import { EmptyState, ErrorState, Loading, downloadBlob, formatShortTime } from '../ui/states.tsx';
import { isActive, jobsApi } from './api.ts';
import type { Job } from './api.ts';

const REFRESH_MS = 1000;

/** Published rule versions, newest version of each rule first. */
function publishedVersions(items: RuleItem[]): Array<{ key: string; label: string; rule: string; version: number }> {
  return items
    .filter((item) => item.status === 'published')
    .sort((a, b) => a.name.localeCompare(b.name) || b.version - a.version)
    .map((item) => ({ key: `${item.ruleId}/${item.version}`, label: `${item.name} (${item.ruleAlias ?? item.ruleId}) v${item.version}`, rule: item.ruleId, version: item.version }));
}

function percent(job: Job): number {
  return job.total === 0 ? (job.state === 'Completed' ? 100 : 0) : Math.round((job.processed / job.total) * 100);
}

export function JobsPage() {
  const { api, notify } = useStudio();
  const [jobs, setJobs] = useState<Job[] | null>(null);
  const [rules, setRules] = useState<ReturnType<typeof publishedVersions>>([]);
  const [choice, setChoice] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setJobs(await jobsApi.list(api));
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [api]);

  useEffect(() => {
    void load();
    void api.listItems().then((items) => {
      const versions = publishedVersions(items);
      setRules(versions);
      setChoice((current) => current || (versions[0]?.key ?? ''));
    }, (err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, [api, load]);

  const active = (jobs ?? []).some(isActive);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, load]);

  async function start(event: FormEvent) {
    event.preventDefault();
    const target = rules.find((r) => r.key === choice);
    if (!target || !file) {
      setFormError('Choose a rule version and a file of inputs.');
      return;
    }
    setFormError(null);
    setStarting(true);
    try {
      const job = await jobsApi.start(api, target.rule, target.version, file);
      notify(`Job started: ${job.total} inputs`, 'success');
      await load();
    } catch (err) {
      setFormError(err instanceof Error ? err.message : String(err));
    } finally {
      setStarting(false);
    }
  }

  async function cancel(job: Job) {
    try {
      await jobsApi.cancel(api, job.jobId);
      notify('Job canceled', 'info');
      await load();
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), 'error');
    }
  }

  async function download(job: Job) {
    try {
      downloadBlob(`job-${job.ruleAlias}-v${job.version}-${job.jobId.slice(0, 8)}.ndjson`, await jobsApi.result(api, job.jobId));
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), 'error');
    }
  }

  return (
    <section className="content space-page" aria-labelledby="jobs-title">
      <div className="content-header">
        <div>
          <h1 id="jobs-title">Jobs</h1>
          <p className="muted">Solve a file of inputs with a rule version: every input is answered in order, and the results are kept for download until they expire.</p>
        </div>
      </div>
      <form className="filter-bar" aria-label="Start a job" onSubmit={(e) => void start(e)}>
        <label className="field">
          <span>Rule version</span>
          <select value={choice} onChange={(e) => setChoice(e.target.value)}>
            {rules.map((r) => <option key={r.key} value={r.key}>{r.label}</option>)}
          </select>
        </label>
        <label className="field">
          <span>Inputs file</span>
          <input type="file" accept=".ndjson,.jsonl,.csv,.json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <button type="submit" className="btn btn-primary" disabled={starting}>{starting ? 'Starting…' : 'Start job'}</button>
      </form>
      {formError && <p role="alert" className="form-error">{formError}</p>}
      <p className="muted small">NDJSON or JSON Lines: one input object per line. CSV: a header row of field paths (order.total) and one input per row. JSON: an array of input objects.</p>
      {error ? <ErrorState title="The jobs cannot be loaded" message={error} onRetry={() => void load()} />
        : jobs === null ? <Loading label="Loading jobs" />
          : jobs.length === 0 ? <EmptyState title="No jobs yet">Start one from a file above.</EmptyState>
            : (
              <table className="data-table" aria-label="Jobs">
                <thead>
                  <tr><th scope="col">Rule</th><th scope="col">State</th><th scope="col">Progress</th><th scope="col">Rate</th><th scope="col">Started</th><th scope="col">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
                </thead>
                <tbody>
                  {jobs.map((job) => (
                    <tr key={job.jobId}>
                      <td>{job.ruleAlias} v{job.version}</td>
                      <td>{job.state}{job.error ? `: ${job.error}` : ''}</td>
                      <td>
                        <progress max={100} value={percent(job)} aria-label={`Progress of job ${job.ruleAlias} v${job.version}`} />
                        {' '}{job.processed.toLocaleString()} of {job.total.toLocaleString()}{job.failed > 0 ? ` (${job.failed.toLocaleString()} errors)` : ''}
                      </td>
                      <td>{job.rate > 0 ? `${Math.round(job.rate).toLocaleString()}/s` : '–'}</td>
                      <td>{formatShortTime(job.startedAt ?? job.createdAt)}</td>
                      <td>{job.expiresAt ? formatShortTime(job.expiresAt) : '–'}</td>
                      <td>
                        {job.state === 'Completed' && <button type="button" className="btn" onClick={() => void download(job)}>Download results</button>}
                        {(job.state === 'Waiting' || job.state === 'Running') && <button type="button" className="btn" onClick={() => void cancel(job)}>Cancel</button>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
    </section>
  );
}
