// Saving a published version changes what POST /rule/solve answers at once (issue 26). Before such a save the
// rule page asks: the default is a new pending version with the draft's content, saving to the live version is
// the second choice, and it is not offered when the space forbids live edits (docs/decisions/live-edits.md).
import { useEffect, useRef } from 'react';
import { Dialog } from '../ui/Dialog.tsx';

const LIVE_DIALOG_TITLE = 'This version is live';

export function LiveSaveDialog(props: {
  open: boolean;
  name: string;
  version: number;
  /** The space forbids editing published versions in place: only the new version is offered. */
  forbidden: boolean;
  onNewVersion(): void;
  onSaveLive(): void;
  onClose(): void;
}) {
  const primary = useRef<HTMLButtonElement>(null);
  // After the dialog's own showModal (a child's effect runs first), so the safe choice has the focus.
  useEffect(() => {
    if (props.open) primary.current?.focus();
  }, [props.open]);
  return (
    <Dialog title={LIVE_DIALOG_TITLE} open={props.open} onClose={props.onClose} className="dialog-actions-3">
      <div className="dialog-body">
        <p>v{props.version} of {props.name} is published. Saving it changes the answers of <code className="nowrap">POST /rule/solve</code> for
          every caller at once.</p>
        {props.forbidden
          ? <p>This space forbids editing published versions in place (the space setting <strong>live edits</strong>, on the
            Overview). Save your changes as a new pending version, test it, and publish it when it is ready.</p>
          : <p>Save your changes as a new pending version instead, test it, and publish it when it is ready.</p>}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>Cancel</button>
        {!props.forbidden && <button type="button" className="btn btn-danger" onClick={props.onSaveLive}>Save to the live version</button>}
        <button ref={primary} type="button" className="btn btn-primary" onClick={props.onNewVersion}>Save as new version (pending)</button>
      </div>
    </Dialog>
  );
}
