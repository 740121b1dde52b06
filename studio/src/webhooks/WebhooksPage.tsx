// Webhooks of the space (admins; docs/webhooks.md): each webhook with its events and state, Create webhook (the
// signing secret shown once, with Copy), Send test event, Enable/Disable, Delete after a confirmation, and the
// delivery log of the webhook chosen: status, the receiver's response, attempts, time, and Redeliver. The log
// refreshes itself while a delivery is pending.
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useStudio } from '../app/context.ts';
import { EVENT_TYPE_NAMES } from '../activity/api.ts';
import { ConfirmDialog, Dialog } from '../ui/Dialog.tsx';
import { EmptyState, ErrorState, Loading, formatShortTime } from '../ui/states.tsx';
import { useResource } from '../ui/useResource.ts';
import { responseText, webhooksApi } from './api.ts';
import './webhooks.css';
import type { CreatedWebhook, Delivery, Webhook } from './api.ts';

const STATUS_BADGE: Record<Delivery['status'], string> = { delivered: 'badge-published', pending: 'badge-pending', failed: 'badge-revoked' };
const POLL_MS = 1500;

function eventsText(events: readonly string[]): string {
  return events.includes('*') ? 'every event' : events.join(', ');
}

export function WebhooksPage() {
  const { api, notify } = useStudio();
  const { value, error, reload } = useResource(useCallback(() => webhooksApi.list(api), [api]));
  const hooks = value?.items ?? null;
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [logVersion, setLogVersion] = useState(0);
  const selected = hooks?.find((h) => h.id === chosen) ?? hooks?.[0] ?? null;

  async function act(work: () => Promise<unknown>, success: string) {
    try {
      await work();
      notify(success, 'success');
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), 'error');
    }
    void reload();
    setLogVersion((v) => v + 1);
  }

  return (
    <section className="content space-page" aria-labelledby="webhooks-title">
      <div className="content-header">
        <div>
          <h1 id="webhooks-title">Webhooks</h1>
          <p className="muted">Each webhook receives the space's events it subscribes to as a signed POST (X-Verdict-Signature), retried with backoff for a day. The secret is shown only when a webhook is created.</p>
        </div>
        <div className="actions">
          <button type="button" className="btn" onClick={() => void reload()}>Refresh</button>
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Create webhook</button>
        </div>
      </div>
      {error && <ErrorState title="The webhooks could not be loaded" message={error} onRetry={() => void reload()} />}
      {!error && hooks === null && <Loading label="Loading webhooks…" />}
      {hooks !== null && hooks.length === 0 && <EmptyState title="No webhooks in this space">Create one to be told when rules are published, keys change or jobs end.</EmptyState>}
      {hooks !== null && hooks.length > 0 && (
        <table className="data-table" aria-label="Webhooks">
          <thead>
            <tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Created</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {hooks.map((hook) => (
              <tr key={hook.id} className={hook.enabled ? undefined : 'is-inactive'}>
                <td><code>{hook.url}</code></td>
                <td className="small">{eventsText(hook.events)}</td>
                <td>
                  {hook.enabled ? <span className="badge badge-published">enabled</span> : <span className="badge badge-revoked" title={hook.disabledReason ?? undefined}>disabled</span>}
                  {hook.disabledReason && <div className="muted small">{hook.disabledReason}</div>}
                  {hook.enabled && hook.consecutiveFailures > 0 && <div className="muted small">{hook.consecutiveFailures} failed attempts in a row</div>}
                </td>
                <td className="nowrap">{formatShortTime(hook.createdAt)}</td>
                <td className="row-actions">
                  <button type="button" className="btn btn-small" aria-label={`Deliveries of ${hook.url}`} onClick={() => setChosen(hook.id)}>Deliveries</button>
                  <button type="button" className="btn btn-small" aria-label={`Send test event to ${hook.url}`} disabled={!hook.enabled}
                    onClick={() => { setChosen(hook.id); void act(() => webhooksApi.test(api, hook.id), 'Test event queued: see the delivery log'); }}>Send test event</button>
                  <button type="button" className="btn btn-small btn-ghost" aria-label={`${hook.enabled ? 'Disable' : 'Enable'} ${hook.url}`}
                    onClick={() => void act(() => webhooksApi.update(api, hook.id, { enabled: !hook.enabled }), hook.enabled ? 'Webhook disabled' : 'Webhook enabled')}>{hook.enabled ? 'Disable' : 'Enable'}</button>
                  <button type="button" className="btn btn-small btn-ghost btn-danger-text" aria-label={`Delete ${hook.url}`} onClick={() => setDeleting(hook)}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && <DeliveryLog key={selected.id} hook={selected} version={logVersion} onRedeliver={(d) => void act(() => webhooksApi.redeliver(api, selected.id, d.id), 'Redelivery queued')} />}
      <CreateWebhookDialog open={creating} onClose={(created) => { setCreating(false); if (created) setChosen(created); void reload(); }} />
      <ConfirmDialog
        open={deleting !== null} title="Delete webhook" danger confirmLabel="Delete"
        message={deleting && <p>Delete the webhook to <strong>{deleting.url}</strong> with its delivery log? Pending deliveries are not sent.</p>}
        onClose={() => setDeleting(null)}
        onConfirm={() => { const hook = deleting; setDeleting(null); if (hook) void act(() => webhooksApi.remove(api, hook.id), 'Webhook deleted'); }}
      />
    </section>
  );
}

function DeliveryLog(props: { hook: Webhook; version: number; onRedeliver(delivery: Delivery): void }) {
  const { api } = useStudio();
  const { hook } = props;
  const [items, setItems] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setItems((await webhooksApi.deliveries(api, hook.id)).items);
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [api, hook.id]);
  useEffect(() => { void load(); }, [load, props.version]);
  // While a delivery is on its way, look again: its outcome shows without a manual refresh.
  const pending = items?.some((d) => d.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, items, load]);

  return (
    <section className="panel delivery-log" aria-labelledby="deliveries-title">
      <div className="content-header">
        <h2 id="deliveries-title">Deliveries to <code>{hook.url}</code></h2>
        <div className="actions"><button type="button" className="btn btn-small" onClick={() => void load()}>Refresh deliveries</button></div>
      </div>
      {error && <ErrorState title="The deliveries could not be loaded" message={error} onRetry={() => void load()} />}
      {!error && items === null && <Loading label="Loading deliveries…" />}
      {items !== null && items.length === 0 && <EmptyState title="No deliveries yet">Send a test event, or wait for an event it subscribes to.</EmptyState>}
      {items !== null && items.length > 0 && (
        <table className="data-table" aria-label="Deliveries">
          <thead>
            <tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Response</th><th scope="col">Attempts</th><th scope="col">Delivery</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.id}>
                <td className="nowrap"><time dateTime={d.createdAt}>{formatShortTime(d.createdAt)}</time></td>
                <td><code>{d.eventType}</code></td>
                <td className="nowrap">
                  <span className={`badge ${STATUS_BADGE[d.status]}`}>{d.status}</span>
                  {d.status === 'pending' && d.attempts > 0 && <div className="muted small">next try {formatShortTime(d.nextAt)}</div>}
                </td>
                <td className="small">{responseText(d)}{d.lastAttemptAt && <div className="muted small">{formatShortTime(d.lastAttemptAt)}</div>}</td>
                <td>{d.attempts}</td>
                <td className="small"><code>{d.id}</code>{d.redeliveryOf && <div className="muted small">redelivers {d.redeliveryOf}</div>}</td>
                <td className="row-actions">
                  <button type="button" className="btn btn-small" aria-label={`Redeliver ${d.id}`} disabled={!hook.enabled} onClick={() => props.onRedeliver(d)}>Redeliver</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function CreateWebhookDialog(props: { open: boolean; onClose(createdId?: string): void }) {
  const { api, notify } = useStudio();
  const [url, setUrl] = useState('');
  const [every, setEvery] = useState(false);
  const [events, setEvents] = useState<string[]>(['rule.published']);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  function close() {
    const id = created?.id;
    setCreated(null);
    setUrl('');
    setEvery(false);
    setEvents(['rule.published']);
    setError(null);
    props.onClose(id);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setCreated(await webhooksApi.create(api, url.trim(), every ? ['*'] : events));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function copy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      notify('Secret copied to the clipboard', 'success');
    } catch {
      notify('The browser refused the clipboard: select the secret and copy it by hand', 'error');
    }
  }

  const toggle = (type: string, on: boolean) => setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)));

  return (
    <Dialog title={created ? 'Webhook created' : 'Create webhook'} open={props.open} onClose={close} wide>
      {created ? (
        <div className="dialog-body">
          <p><strong>Copy the signing secret now: it is not shown again.</strong> Your receiver checks each delivery's X-Verdict-Signature with it (docs/webhooks.md).</p>
          <label className="field">
            <span>Signing secret</span>
            <input className="secret" readOnly value={created.secret} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => void copy(created.secret)}>Copy</button>
            <button type="button" className="btn btn-primary" onClick={close}>Done</button>
          </div>
        </div>
      ) : (
        <form className="dialog-body" onSubmit={(e) => void submit(e)}>
          <label className="field">
            <span>Receiver URL</span>
            <input type="url" required value={url} placeholder="https://hooks.example.com/verdict" onChange={(e) => setUrl(e.target.value)} autoFocus />
          </label>
          <fieldset className="field event-types">
            <legend>Events</legend>
            <label className="field-inline"><input type="checkbox" checked={every} onChange={(e) => setEvery(e.target.checked)} /> Every event</label>
            <div className="event-type-grid">
              {EVENT_TYPE_NAMES.map((type) => (
                <label key={type} className="field-inline">
                  <input type="checkbox" disabled={every} checked={every || events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} /> {type}
                </label>
              ))}
            </div>
          </fieldset>
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={close}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={busy || (!every && events.length === 0)}>{busy ? 'Creating…' : 'Create'}</button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
