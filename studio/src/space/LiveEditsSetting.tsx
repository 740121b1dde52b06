// The space setting liveEdits (docs/decisions/live-edits.md) as a checkbox: checked, the server refuses to replace
// a published version's content in place, and the rule page offers only "Save as new version (pending)".
import { useCallback, useEffect, useState } from 'react';
import { useStudio } from '../app/context.ts';
import { useResource } from '../ui/useResource.ts';
import { spaceApi } from './api.ts';

export function LiveEditsSetting() {
  const { api, notify } = useStudio();
  const { value: settings, error, reload } = useResource(useCallback(() => spaceApi.settings(api), [api]));
  // What the checkbox shows: the server's value, or the one just asked for while the write is under way.
  const [forbidden, setForbidden] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings) setForbidden(settings.liveEdits === 'forbidden');
  }, [settings]);

  async function change(forbid: boolean) {
    setForbidden(forbid);
    setBusy(true);
    try {
      await spaceApi.setLiveEdits(api, forbid ? 'forbidden' : 'allowed');
      notify(forbid ? 'Published versions can no longer be edited in place' : 'Published versions can be edited in place again', 'success');
    } catch (err) {
      notify(`The setting was not changed: ${err instanceof Error ? err.message : String(err)}`, 'error');
    } finally {
      await reload();
      setBusy(false);
    }
  }

  return (
    <fieldset className="space-settings">
      <legend>Space settings</legend>
      {error
        ? <p className="muted" role="alert">The space settings could not be read: {error}</p>
        : (
          <label className="checkbox-line">
            <input type="checkbox" checked={forbidden === true} disabled={forbidden === null || busy} onChange={(e) => void change(e.target.checked)} />
            Forbid editing published versions in place
            <span className="muted small">— changes then go to a new pending version, published when ready (the API answers 409 to an in-place save)</span>
          </label>
        )}
    </fieldset>
  );
}
