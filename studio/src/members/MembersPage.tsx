// The members of the space (admins): each user with their role, Add member (a new user gets a one-time password,
// shown once with Copy), change a role in place, Remove after a confirmation. The server enforces space:admin.
import { useCallback, useState } from 'react';
import type { FormEvent } from 'react';
import type { MemberRole as Role } from '../api/auth.ts';
import { useStudio } from '../app/context.ts';
import { ConfirmDialog, Dialog } from '../ui/Dialog.tsx';
import { EmptyState, ErrorState, Loading } from '../ui/states.tsx';
import { useResource } from '../ui/useResource.ts';
import { ROLES, ROLE_SUMMARY, membersApi } from './api.ts';
import type { AddedMember, Member } from './api.ts';

export function MembersPage() {
  const { api, me, notify, grants } = useStudio();
  const { value: members, error, reload } = useResource(useCallback(() => membersApi.list(api), [api]));
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);

  async function changeRole(member: Member, role: Role) {
    try {
      await membersApi.setRole(api, member.user.username, role);
      notify(`${member.user.username} is now ${role}`, 'success');
    } catch (err) {
      notify(`The role was not changed: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
    void reload();
  }

  async function remove(member: Member) {
    setRemoving(null);
    try {
      await membersApi.remove(api, member.user.username);
      notify(`${member.user.username} is no longer a member of ${grants.space}`, 'success');
    } catch (err) {
      notify(`Not removed: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
    void reload();
  }

  const sorted = members ? [...members].sort((a, b) => a.user.username.localeCompare(b.user.username)) : null;
  return (
    <section className="content space-page" aria-labelledby="members-title">
      <div className="content-header">
        <div>
          <h1 id="members-title">Members</h1>
          <p className="muted">The people of the space <strong>{grants.space}</strong> and their roles. A role applies to this space only.</p>
        </div>
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>Add member</button>
        </div>
      </div>
      {error && <ErrorState title="The members could not be loaded" message={error} onRetry={() => void reload()} />}
      {!error && sorted === null && <Loading label="Loading members…" />}
      {sorted !== null && sorted.length === 0 && <EmptyState title="No members yet" />}
      {sorted !== null && sorted.length > 0 && (
        <table className="data-table" aria-label="Members">
          <thead>
            <tr><th scope="col">User name</th><th scope="col">Name</th><th scope="col">Sign-in</th><th scope="col">Role</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {sorted.map((m) => {
              const self = me.user?.id === m.user.id;
              return (
                <tr key={m.user.id}>
                  <td><strong>{m.user.username}</strong>{self && <span className="badge badge-current">you</span>}</td>
                  <td>{m.user.displayName && m.user.displayName !== m.user.username ? m.user.displayName : <span className="muted">—</span>}</td>
                  <td>{m.user.source === 'oidc' ? 'Single sign-on' : 'Password'}</td>
                  <td>
                    <select aria-label={`Role of ${m.user.username}`} value={m.role} onChange={(e) => void changeRole(m, e.target.value as Role)}>
                      {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  </td>
                  <td className="row-actions">
                    <button type="button" className="btn btn-small btn-ghost btn-danger-text" aria-label={`Remove ${m.user.username}`} onClick={() => setRemoving(m)}>Remove</button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <AddMemberDialog open={adding} onClose={() => { setAdding(false); void reload(); }} />
      <ConfirmDialog
        open={removing !== null} title="Remove member" danger confirmLabel="Remove"
        message={removing && <p>Remove <strong>{removing.user.username}</strong> from {grants.space}? Their sessions lose this space at once; the user and their other spaces stay.</p>}
        onClose={() => setRemoving(null)} onConfirm={() => removing && void remove(removing)}
      />
    </section>
  );
}

function AddMemberDialog(props: { open: boolean; onClose(): void }) {
  const { api, notify } = useStudio();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<AddedMember | null>(null);

  function close() {
    setAdded(null);
    setUsername('');
    setRole('viewer');
    setError(null);
    props.onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (username.trim() === '') {
      setError('Enter the user name of the member to add.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const member = await membersApi.add(api, username.trim(), role);
      if (member.oneTimePassword) setAdded(member);
      else {
        notify(`${member.user.username} added as ${member.role}`, 'success');
        close();
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function copy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      notify('Password copied to the clipboard', 'success');
    } catch {
      notify('The browser refused the clipboard: select the password and copy it by hand', 'error');
    }
  }

  return (
    <Dialog title={added ? 'Member added' : 'Add member'} open={props.open} onClose={close}>
      {added?.oneTimePassword ? (
        <div className="dialog-body">
          <p><strong>{added.user.username}</strong> was created as {added.role}. <strong>Give them this one-time password now: it is not shown again.</strong></p>
          <label className="field">
            <span>One-time password</span>
            <input className="secret" readOnly value={added.oneTimePassword} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => void copy(added.oneTimePassword!)}>Copy</button>
            <button type="button" className="btn btn-primary" onClick={close}>Done</button>
          </div>
        </div>
      ) : (
        <form className="dialog-body" onSubmit={(e) => void submit(e)}>
          <label className="field">
            <span>User name</span>
            <input value={username} maxLength={100} spellCheck={false} autoFocus placeholder="An existing user, or a new one to create"
              onChange={(e) => setUsername(e.target.value)} />
          </label>
          <fieldset className="field">
            <legend>Role</legend>
            {ROLES.map((r) => (
              <label key={r} className="field-inline">
                <input type="radio" name="member-role" checked={role === r} onChange={() => setRole(r)} /> {r}
                <span className="muted small">— {ROLE_SUMMARY[r]}</span>
              </label>
            ))}
          </fieldset>
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={close}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Adding…' : 'Add'}</button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
