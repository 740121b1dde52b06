// The sign-in page: user name and password first; a button per single sign-on provider the server lists; signing in
// with a management key second, only when the server allows it (STUDIO_KEY_SIGNIN). Every way ends in a session
// cookie and Me; the key is sent once to POST /api/auth/key-login and never kept in the browser.
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { authApi, ssoLoginUrl } from '../api/auth.ts';
import type { AuthConfig, Me } from '../api/auth.ts';
import { ApiClient, ApiError } from '../api/client.ts';

/**
 * What the sign-in says of a refused key. The server names a valid solver key as such (src/service/keys.ts), so
 * the person is told which key to fetch instead of doubting a key that works for solving.
 */
function keyRefusal(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof ApiError) || err.status !== 401) return message;
  if (/\bsolver key\b/i.test(message)) return 'This is a solver key; sign in with a management key of your space.';
  return `The server refused this key: ${message}. Use a management key of your space.`;
}

/** The server's own words: a wrong password and an unknown user read the same; a throttle says when to retry. */
function passwordRefusal(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The reason a single sign-on failed: the server's callback lands here with it (once: the address is cleaned). */
function singleSignOnError(): string | null {
  const params = new URLSearchParams(window.location.search);
  const reason = params.get('signInError');
  if (reason === null) return null;
  params.delete('signInError');
  const rest = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  return `Single sign-on failed: ${reason}`;
}

export function SignIn(props: { onSignedIn(me: Me): void; message?: string }) {
  const [config, setConfig] = useState<AuthConfig | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const [withKey, setWithKey] = useState(false);
  const [error, setError] = useState<string | null>(props.message ?? singleSignOnError());
  /** Which form the error is about: shown beside it, and its fields marked invalid. */
  const [errorOf, setErrorOf] = useState<'password' | 'key'>('password');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Without the configuration the password form is still offered: it is always there (the embedded default).
    authApi.config(new ApiClient()).then(setConfig, () => setConfig({ password: true, keySignIn: false, sso: [] }));
  }, []);

  async function attempt(form: 'password' | 'key', run: () => Promise<Me>, refusal: (err: unknown) => string) {
    setBusy(true);
    setError(null);
    setErrorOf(form);
    try {
      props.onSignedIn(await run());
    } catch (err) {
      setError(refusal(err));
    } finally {
      setBusy(false);
    }
  }

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    if (username.trim() === '' || password === '') {
      setErrorOf('password');
      setError('Enter your user name and password.');
      return;
    }
    void attempt('password', () => authApi.login(new ApiClient(), username.trim(), password), passwordRefusal);
  }

  function submitKey(event: FormEvent) {
    event.preventDefault();
    const trimmed = key.trim();
    if (trimmed === '') {
      setErrorOf('key');
      setError('Enter a management key.');
      return;
    }
    void attempt('key', () => authApi.keyLogin(new ApiClient(), trimmed), keyRefusal);
  }

  const invalid = (form: 'password' | 'key') => (error && errorOf === form ? { 'aria-invalid': true, 'aria-describedby': 'signin-error' } : {});
  const message = (form: 'password' | 'key') => error && errorOf === form && <p id="signin-error" className="form-error" role="alert">{error}</p>;
  return (
    <main className="signin">
      <div className="signin-card">
        <div className="brand brand-large" aria-hidden="true"><span className="brand-mark">V</span> Verdict Studio</div>
        <h1 id="signin-title">Sign in to your space</h1>
        <p className="muted">Author, test, compare and publish the rules of your space: decision tables, decision trees, lookup tables, scripting rules, rule flows and decision flows.</p>
        {message('password')}
        <form className="signin-form" onSubmit={submitPassword} aria-labelledby="signin-title">
          <label className="field">
            <span>User name</span>
            <input autoComplete="username" spellCheck={false} autoFocus value={username} onChange={(e) => setUsername(e.target.value)} {...invalid('password')} />
          </label>
          <label className="field">
            <span>Password</span>
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} {...invalid('password')} />
          </label>
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        </form>
        {config && config.sso.length > 0 && (
          <div className="signin-sso" role="group" aria-label="Single sign-on">
            <p className="signin-or muted small"><span>or</span></p>
            {config.sso.map((p) => <a key={p.id} className="btn btn-block" href={ssoLoginUrl(p.id)}>Sign in with {p.name}</a>)}
          </div>
        )}
        {config?.keySignIn && (
          <div className="signin-key">
            <button type="button" className="btn btn-ghost btn-small" aria-expanded={withKey} aria-controls="signin-key-form" onClick={() => setWithKey(!withKey)}>
              Sign in with a management key
            </button>
            {withKey && (
              <form id="signin-key-form" onSubmit={submitKey} aria-label="Sign in with a management key">
                <label className="field">
                  <span>Management key</span>
                  <input type="password" autoComplete="off" spellCheck={false} autoFocus value={key} onChange={(e) => setKey(e.target.value)} {...invalid('key')} />
                </label>
                {message('key')}
                <button type="submit" className="btn btn-block" disabled={busy}>Sign in with key</button>
                <p className="muted small">The key is exchanged for a session and not kept in this browser. <code>verdict key create --type management</code> makes one.</p>
              </form>
            )}
          </div>
        )}
      </div>
    </main>
  );
}
