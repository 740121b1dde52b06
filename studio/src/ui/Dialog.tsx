// A modal dialog on the native <dialog> element: focus moves into it, Esc closes it, and the rest of the page
// is inert while it is open.
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

export function Dialog(props: { title: string; open: boolean; onClose(): void; children: ReactNode; wide?: boolean; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} className={`dialog${props.wide ? ' dialog-wide' : ''}${props.className ? ` ${props.className}` : ''}`} aria-label={props.title} onClose={props.onClose}
      onCancel={(e) => { e.preventDefault(); props.onClose(); }}>
      {props.open && (
        <>
          <h2 className="dialog-title">{props.title}</h2>
          {props.children}
        </>
      )}
    </dialog>
  );
}

export function ConfirmDialog(props: {
  title: string; open: boolean; message: ReactNode; confirmLabel: string; danger?: boolean; onConfirm(): void; onClose(): void;
}) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <div className="dialog-body">{props.message}</div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>Cancel</button>
        <button type="button" className={`btn ${props.danger ? 'btn-danger' : 'btn-primary'}`} onClick={props.onConfirm}>{props.confirmLabel}</button>
      </div>
    </Dialog>
  );
}
