import { useCallback, useMemo, useRef, useState } from 'react';
import { ApiClient } from '../api/client.ts';
import { session } from '../drafts/storage.ts';
import { RuleList } from '../rules/RuleList.tsx';
import { RulePage } from '../rules/RulePage.tsx';
import { ComparePage } from '../versions/ComparePage.tsx';
import { Studio } from './context.ts';
import type { StudioContext } from './context.ts';
import { parseRoute, useHash } from './router.ts';
import { SignIn } from './SignIn.tsx';

interface Notice {
  id: number;
  message: string;
  tone: 'info' | 'error' | 'success';
}

export function App() {
  const [key, setKey] = useState<string | null>(() => session.key());
  const [signInMessage, setSignInMessage] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | null>(null);
  const counter = useRef(0);
  const hash = useHash();
  const route = parseRoute(hash);

  const signOut = useCallback(() => {
    session.signOut();
    setKey(null);
  }, []);
  const notify = useCallback((message: string, tone: Notice['tone'] = 'info') => {
    counter.current += 1;
    const id = counter.current;
    setNotice({ id, message, tone });
    window.setTimeout(() => setNotice((n) => (n?.id === id ? null : n)), 6000);
  }, []);
  const refused = useCallback((message: string) => {
    session.signOut();
    setSignInMessage(`You were signed out: the server refused the key (${message}). It may have been revoked.`);
    setKey(null);
  }, []);
  const context = useMemo<StudioContext | null>(
    () => (key ? { api: new ApiClient(key, { onUnauthorized: refused }), signOut, notify } : null),
    [key, signOut, notify, refused],
  );

  if (!context) {
    return <SignIn message={signInMessage} onSignedIn={(k) => { session.signIn(k); setSignInMessage(undefined); setKey(k); }} />;
  }

  return (
    <Studio.Provider value={context}>
      <div className="shell">
        <header className="topbar">
          <a className="brand" href="#/rules"><span className="brand-mark" aria-hidden="true">V</span> Verdict Studio</a>
          <nav aria-label="Main" className="topnav">
            <a href="#/rules" aria-current={route.page === 'rules' ? 'page' : undefined}>Rules</a>
            <a href="/api/docs" target="_blank" rel="noreferrer">API docs</a>
          </nav>
          <button type="button" className="btn btn-ghost" onClick={signOut}>Sign out</button>
        </header>
        <div className="page">
          {route.page === 'rules' && <RuleList />}
          {route.page === 'rule' && <RulePage key={`${route.id}/${route.version}`} id={route.id} version={route.version} />}
          {route.page === 'compare' && <ComparePage key={`${route.id}/${route.left}/${route.right}`} id={route.id} left={route.left} right={route.right} />}
        </div>
        <div className={`toast${notice ? ` toast-${notice.tone}` : ''}`} role="status" aria-live="polite">
          {notice?.message}
        </div>
      </div>
    </Studio.Provider>
  );
}
