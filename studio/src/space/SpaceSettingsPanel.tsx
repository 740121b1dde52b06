// The space's settings as checkboxes (admins change them; other roles see them disabled with the reason):
// - liveEdits (docs/decisions/live-edits.md): checked, the server refuses to replace a published version's content
//   in place, and the rule page offers only "Save as new version (pending)";
// - approvals (issue 32): checked, a version is published only after someone other than its last editor approved it.
import { useCallback, useEffect, useId, useState } from 'react';
import { useStudio } from '../app/context.ts';
import { useResource } from '../ui/useResource.ts';
import { spaceApi } from './api.ts';
import type { SpaceSettingsChange } from './api.ts';

export function SpaceSettingsPanel() {
  const { api, notify, grants } = useStudio();
  const { value: settings, error, reload } = useResource(useCallback(() => spaceApi.settings(api), [api]));
  // What the checkboxes show: the server's values, or the ones just asked for while the write is under way.
  const [shown, setShown] = useState<{ forbidLive: boolean; approvals: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonId = useId();
  useEffect(() => {
    if (settings) setShown({ forbidLive: settings.liveEdits === 'forbidden', approvals: settings.approvals });
  }, [settings]);

  async function change(patch: SpaceSettingsChange, done: string, next: Partial<NonNullable<typeof shown>>) {
    setShown((current) => (current ? { ...current, ...next } : current));
    setBusy(true);
    try {
      await spaceApi.setSettings(api, patch);
      notify(done, 'success');
    } catch (err) {
      notify(`The setting was not changed: ${err instanceof Error ? err.message : String(err)}`, 'error');
    } finally {
      await reload();
      setBusy(false);
    }
  }

  const reason = grants.reason('space:admin', 'change the space settings');
  const disabled = shown === null || busy || reason !== undefined;
  const described = reason ? { 'aria-describedby': reasonId, title: reason } : {};
  return (
    <fieldset className="space-settings">
      <legend>Space settings</legend>
      {error
        ? <p className="muted" role="alert">The space settings could not be read: {error}</p>
        : (
          <>
            <label className="checkbox-line">
              <input type="checkbox" checked={shown?.forbidLive === true} disabled={disabled} {...described}
                onChange={(e) => void change({ liveEdits: e.target.checked ? 'forbidden' : 'allowed' },
                  e.target.checked ? 'Published versions can no longer be edited in place' : 'Published versions can be edited in place again',
                  { forbidLive: e.target.checked })} />
              Forbid editing published versions in place
              <span className="muted small">— changes then go to a new pending version, published when ready (the API answers 409 to an in-place save)</span>
            </label>
            <label className="checkbox-line">
              <input type="checkbox" checked={shown?.approvals === true} disabled={disabled} {...described}
                onChange={(e) => void change({ approvals: e.target.checked },
                  e.target.checked ? 'Publishing now needs an approval' : 'Publishing no longer needs an approval',
                  { approvals: e.target.checked })} />
              Require approval before publishing
              <span className="muted small">— a version is published only after someone other than its last editor approved it</span>
            </label>
            {reason && <p id={reasonId} className="muted small">{reason}.</p>}
          </>
        )}
    </fieldset>
  );
}
