// API keys of the signed-in space: every key with its type, name and dates (never a secret: only hashes are
// stored), `Create key` (the secret shown once, with Copy), `Revoke` after a confirmation. The key the Studio is
// signed in with cannot be revoked here (docs/decisions/studio-space-pages.md).
import { useCallback, useState } from 'react';
import type { FormEvent } from 'react';
import { useStudio } from '../app/context.ts';
import { ConfirmDialog, Dialog } from '../ui/Dialog.tsx';
import { EmptyState, ErrorState, Loading, formatTime } from '../ui/states.tsx';
import { useResource } from '../ui/useResource.ts';
import { spaceApi } from './api.ts';
import type { CreatedKey, KeyType, SpaceKey } from './api.ts';

const TYPE_NAMES: Record<KeyType, string> = { solver: 'Solver', management: 'Management' };

function keyLabel(key: SpaceKey): string {
  return key.name ?? key.id;
}

export function KeysPage() {
  const { api, notify } = useStudio();
  const { value: keys, error, reload: load } = useResource(useCallback(() => spaceApi.keys(api), [api]));
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<SpaceKey | null>(null);

  async function revoke(key: SpaceKey) {
    setRevoking(null);
    try {
      await spaceApi.revokeKey(api, key.id);
      notify(`Revoked ${keyLabel(key)}: it is refused from its next request`, 'success');
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), 'error');
    }
    void load();
  }

  const active = keys?.filter((k) => k.revokedAt === null) ?? [];
  const revoked = keys?.filter((k) => k.revokedAt !== null) ?? [];

  return (
    <section className="content space-page" aria-labelledby="keys-title">
      <div className="content-header">
        <div>
          <h1 id="keys-title">API keys</h1>
          <p className="muted">Solver keys solve rules (HTTP and Kafka); management keys manage rules and sign in here. A key is shown only when it is created.</p>
        </div>
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Create key</button>
        </div>
      </div>
      {error && <ErrorState title="The keys could not be loaded" message={error} onRetry={() => void load()} />}
      {!error && keys === null && <Loading label="Loading keys…" />}
      {keys !== null && keys.length === 0 && <EmptyState title="No keys in this space" />}
      {keys !== null && keys.length > 0 && (
        <table className="data-table" aria-label="API keys">
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Id</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {[...active, ...revoked].map((key) => (
              <tr key={key.id} className={key.revokedAt ? 'is-inactive' : undefined}>
                <td>{key.name ?? <span className="muted">(no name)</span>}</td>
                <td>{TYPE_NAMES[key.type]}</td>
                <td><code>{key.id}</code></td>
                <td className="nowrap">{formatTime(key.createdAt)}</td>
                <td className="nowrap">
                  {key.revokedAt ? <span className="badge badge-revoked">revoked {formatTime(key.revokedAt)}</span> : <span className="badge badge-published">active</span>}
                  {key.current && <span className="badge badge-current" title="The Studio is signed in with this key">this session</span>}
                </td>
                <td className="row-actions">
                  {!key.revokedAt && !key.current && (
                    <button type="button" className="btn btn-small btn-ghost btn-danger-text" aria-label={`Revoke ${keyLabel(key)}`} onClick={() => setRevoking(key)}>Revoke</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateKeyDialog open={creating} onClose={() => { setCreating(false); void load(); }} />
      <ConfirmDialog
        open={revoking !== null} title="Revoke key" danger confirmLabel="Revoke"
        message={revoking && <p>Revoke <strong>{keyLabel(revoking)}</strong> ({TYPE_NAMES[revoking.type].toLowerCase()} key)? Every client using it is refused from its next request, on every server. This cannot be undone.</p>}
        onClose={() => setRevoking(null)} onConfirm={() => revoking && void revoke(revoking)}
      />
    </section>
  );
}

function CreateKeyDialog(props: { open: boolean; onClose(): void }) {
  const { api, notify } = useStudio();
  const [type, setType] = useState<KeyType>('solver');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);

  function close() {
    setCreated(null);
    setName('');
    setError(null);
    props.onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setCreated(await spaceApi.createKey(api, type, name.trim() || undefined));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function copy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      notify('Key copied to the clipboard', 'success');
    } catch {
      notify('The browser refused the clipboard: select the key and copy it by hand', 'error');
    }
  }

  return (
    <Dialog title={created ? 'Key created' : 'Create key'} open={props.open} onClose={close}>
      {created ? (
        <div className="dialog-body">
          <p><strong>Copy the key now: it is not shown again.</strong> Only its hash is stored, so a lost key cannot be recovered; create a new one instead.</p>
          <label className="field">
            <span>New {TYPE_NAMES[created.type].toLowerCase()} key{created.name ? ` (${created.name})` : ''}</span>
            <input className="secret" readOnly value={created.key} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => void copy(created.key)}>Copy</button>
            <button type="button" className="btn btn-primary" onClick={close}>Done</button>
          </div>
        </div>
      ) : (
        <form className="dialog-body" onSubmit={(e) => void submit(e)}>
          <fieldset className="field">
            <legend>Key type</legend>
            <label className="field-inline"><input type="radio" name="key-type" checked={type === 'solver'} onChange={() => setType('solver')} /> Solver: solves rules</label>
            <label className="field-inline"><input type="radio" name="key-type" checked={type === 'management'} onChange={() => setType('management')} /> Management: manages rules, keys and the Studio</label>
          </fieldset>
          <label className="field">
            <span>Key name</span>
            <input value={name} maxLength={100} placeholder="Who or what uses it, e.g. checkout service" onChange={(e) => setName(e.target.value)} autoFocus />
          </label>
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={close}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Creating…' : 'Create'}</button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
