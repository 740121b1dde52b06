import type { ReactNode } from 'react';

export function Loading(props: { label: string }) {
  return <div className="state state-loading" role="status" aria-live="polite"><span className="spinner" aria-hidden="true" />{props.label}</div>;
}

export function ErrorState(props: { title: string; message: string; onRetry?(): void }) {
  return (
    <div className="state state-error" role="alert">
      <strong>{props.title}</strong>
      <p>{props.message}</p>
      {props.onRetry && <button type="button" className="btn" onClick={props.onRetry}>Try again</button>}
    </div>
  );
}

export function EmptyState(props: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <strong>{props.title}</strong>
      {props.children}
    </div>
  );
}

export function formatTime(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Compact time for dense lists: `Nov 25, 06:35:12`. */
export function formatShortTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

export function downloadJson(fileName: string, value: unknown): void {
  downloadText(fileName, JSON.stringify(value, null, 2), 'application/json');
}

/** Offers text as a file download (an export). */
export function downloadText(fileName: string, text: string, type: string): void {
  downloadBlob(fileName, new Blob([text], { type }));
}

/** Offers a file's bytes as a download (an .xlsx export). */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}
