// The space's activity and event log: every management, job and test event with its actor (a user, a key by name,
// a token by subject), newest first, filtered by actor, rule, event type and time range, with "Load more" over the
// server's cursor. The event types are the ones webhooks subscribe to (docs/decisions/event-log.md).
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import type { Actor } from '../api/auth.ts';
import { useStudio } from '../app/context.ts';
import { href } from '../app/router.ts';
import { timeRange } from '../space/audit-filter.ts';
import { TimeRangeFields } from '../space/TimeRangeFields.tsx';
import { EmptyState, ErrorState, Loading, formatShortTime } from '../ui/states.tsx';
import { activityApi, EVENT_TYPE_NAMES } from './api.ts';
import type { ActivityFilter, ActivityItem } from './api.ts';

const ACTOR_KINDS: Record<Actor['kind'], string> = { user: 'user', key: 'key', token: 'token', cli: 'command line' };
const EMPTY_FORM = { actor: '', rule: '', type: '', from: '', to: '' };

/** The entry's detail as `name: value` pairs (a status change, the role given, a review's comment). */
function detailText(detail: Record<string, unknown> | null): string {
  if (!detail) return '';
  return Object.entries(detail).map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`).join(', ');
}

export function ActivityPage() {
  const { api } = useStudio();
  const [form, setForm] = useState(EMPTY_FORM);
  const [filter, setFilter] = useState<ActivityFilter>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [items, setItems] = useState<ActivityItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  const load = useCallback(async (applied: ActivityFilter) => {
    setError(null);
    setItems(null);
    try {
      const page = await activityApi.page(api, applied);
      setItems(page.items);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [api]);
  useEffect(() => { void load(filter); }, [load, filter]);

  async function more() {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await activityApi.page(api, filter, cursor);
      setItems((current) => [...(current ?? []), ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoadingMore(false);
    }
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    const range = timeRange(form.from, form.to);
    if (range.error !== undefined) {
      setFormError(range.error);
      return;
    }
    setFormError(null);
    setFilter({ actor: form.actor.trim() || undefined, rule: form.rule.trim() || undefined, type: form.type || undefined, from: range.from, to: range.to });
  }

  const set = (patch: Partial<typeof EMPTY_FORM>) => setForm((current) => ({ ...current, ...patch }));
  const filtered = Object.values(filter).some((v) => v !== undefined);
  return (
    <section className="content space-page" aria-labelledby="activity-title">
      <div className="content-header">
        <div>
          <h1 id="activity-title">Activity</h1>
          <p className="muted">Who changed what in this space: every rule, key, member, review, job and failing test event with the user, key or token behind it, newest first. Webhooks subscribe to these event types.</p>
        </div>
        <div className="actions"><button type="button" className="btn" onClick={() => void load(filter)}>Refresh</button></div>
      </div>
      <form className="filter-bar" aria-label="Activity filters" onSubmit={apply}>
        <label className="field">
          <span>Actor</span>
          <input value={form.actor} placeholder="User, key or token" onChange={(e) => set({ actor: e.target.value })} />
        </label>
        <label className="field">
          <span>Rule</span>
          <input value={form.rule} placeholder="Id or alias" onChange={(e) => set({ rule: e.target.value })} />
        </label>
        <label className="field">
          <span>Event type</span>
          <select value={form.type} onChange={(e) => set({ type: e.target.value })}>
            <option value="">Every type</option>
            {EVENT_TYPE_NAMES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </label>
        <TimeRangeFields from={form.from} to={form.to} onChange={set} onClear={() => { setForm(EMPTY_FORM); setFormError(null); setFilter({}); }} />
      </form>
      {formError && <p className="form-error" role="alert">{formError}</p>}
      {error && <ErrorState title="The activity could not be loaded" message={error} onRetry={() => void load(filter)} />}
      {!error && items === null && <Loading label="Loading activity…" />}
      {items !== null && items.length === 0 && <EmptyState title={filtered ? 'No event matches the filters' : 'No activity yet'} />}
      {items !== null && items.length > 0 && (
        <>
          <table className="data-table" aria-label="Activity">
            <thead>
              <tr><th scope="col">Time</th><th scope="col">Actor</th><th scope="col">Event</th><th scope="col">Rule</th><th scope="col">Detail</th></tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <td className="nowrap"><time dateTime={item.at}>{formatShortTime(item.at)}</time></td>
                  <td className="nowrap">{item.actor.name} <span className="muted small">{ACTOR_KINDS[item.actor.kind] ?? item.actor.kind}</span></td>
                  <td><code title={`action ${item.action}`}>{item.type}</code></td>
                  <td>
                    {item.rule
                      ? <a href={href({ page: 'rule', id: item.rule.ruleId, version: item.rule.version ?? 'latest' })}>
                          {item.rule.name ?? item.rule.alias ?? item.rule.ruleId}{item.rule.version !== null && <span className="muted small"> v{item.rule.version}</span>}
                        </a>
                      : <span className="muted">—</span>}
                  </td>
                  <td className="small">{detailText(item.detail)}</td>
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
