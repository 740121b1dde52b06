import { useCallback, useMemo, useRef, useState } from 'react';
import { ApiClient } from '../api/client.ts';
import { session } from '../drafts/storage.ts';
import { RuleList } from '../rules/RuleList.tsx';
import { RulePage } from '../rules/RulePage.tsx';
import { ComparePage } from '../versions/ComparePage.tsx';
import { AuditPage } from '../space/AuditPage.tsx';
import { DependenciesPage } from '../space/DependenciesPage.tsx';
import { KafkaPage } from '../space/KafkaPage.tsx';
import { KeysPage } from '../space/KeysPage.tsx';
import { OverviewPage } from '../space/OverviewPage.tsx';
import '../space/space.css';
import { Studio } from './context.ts';
import type { StudioContext } from './context.ts';
import { href, parseRoute, useHash } from './router.ts';
import type { Route } from './router.ts';
import { SignIn } from './SignIn.tsx';

/** The main navigation: the rules, then the space's pages. */
const NAV: ReadonlyArray<{ label: string; route: Route; pages: ReadonlyArray<Route['page']> }> = [
  { label: 'Rules', route: { page: 'rules' }, pages: ['rules', 'rule', 'compare'] },
  { label: 'Overview', route: { page: 'overview' }, pages: ['overview'] },
  { label: 'Dependencies', route: { page: 'dependencies' }, pages: ['dependencies'] },
  { label: 'Audit log', route: { page: 'audit' }, pages: ['audit'] },
  { label: 'API keys', route: { page: 'keys' }, pages: ['keys'] },
  { label: 'Kafka', route: { page: 'kafka' }, pages: ['kafka'] },
];

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
            {NAV.map((item) => (
              <a key={item.label} href={href(item.route)} aria-current={item.pages.includes(route.page) ? 'page' : undefined}>{item.label}</a>
            ))}
            <a href="/api/docs" target="_blank" rel="noreferrer">API docs</a>
          </nav>
          <button type="button" className="btn btn-ghost" onClick={signOut}>Sign out</button>
        </header>
        <div className="page">
          {route.page === 'rules' && <RuleList />}
          {route.page === 'rule' && <RulePage key={`${route.id}/${route.version}`} id={route.id} version={route.version} />}
          {route.page === 'compare' && <ComparePage key={`${route.id}/${route.left}/${route.right}`} id={route.id} left={route.left} right={route.right} />}
          {route.page === 'overview' && <OverviewPage />}
          {route.page === 'dependencies' && <DependenciesPage id={route.id} />}
          {route.page === 'audit' && <AuditPage />}
          {route.page === 'keys' && <KeysPage />}
          {route.page === 'kafka' && <KafkaPage />}
        </div>
        <div className={`toast${notice ? ` toast-${notice.tone}` : ''}`} role="status" aria-live="polite">
          {notice?.message}
        </div>
      </div>
    </Studio.Provider>
  );
}
