import { useState } from 'react';
import type { FormEvent } from 'react';
import { ApiClient, ApiError } from '../api/client.ts';

/**
 * What the sign-in says of a 401. The management API names a valid solver key as such (src/service/keys.ts), so
 * the person is told which key to fetch instead of doubting a key that works for solving.
 */
function refusal(message: string): string {
  if (/\bsolver key\b/i.test(message)) return 'This is a solver key; sign in with a management key of your space.';
  return `The server refused this key: ${message}. Use a management key of your space.`;
}

export function SignIn(props: { onSignedIn(key: string): void; message?: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(props.message ?? null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = key.trim();
    if (trimmed === '') {
      setError('Enter a management key.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await new ApiClient(trimmed).listItems();
      props.onSignedIn(trimmed);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setError(refusal(err.message));
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <form className="signin-card" onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
        <div className="brand brand-large" aria-hidden="true"><span className="brand-mark">V</span> Verdict Studio</div>
        <h1 id="signin-title">Sign in to your space</h1>
        <p className="muted">
          Author, test, compare and publish the rules of your space: decision tables, decision trees, lookup tables,
          scripting rules, rule flows and decision flows. The key stays in this browser tab only.
        </p>
        <label className="field">
          <span>Management key</span>
          <input
            type="password" autoComplete="off" spellCheck={false} autoFocus value={key}
            onChange={(e) => setKey(e.target.value)} aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'signin-error' : undefined}
          />
        </label>
        {error && <p id="signin-error" className="form-error" role="alert">{error}</p>}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        <p className="muted small">The first start of the server prints a management key; <code>verdict key create --type management</code> makes another.</p>
      </form>
    </main>
  );
}
