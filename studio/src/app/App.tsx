import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { authApi, displayName } from '../api/auth.ts';
import type { Me, Permission } from '../api/auth.ts';
import { ApiClient } from '../api/client.ts';
import { preferences } from '../drafts/storage.ts';
import { RuleList } from '../rules/RuleList.tsx';
import { RulePage } from '../rules/RulePage.tsx';
import { ComparePage } from '../versions/ComparePage.tsx';
import { ActivityPage } from '../activity/ActivityPage.tsx';
import { JobsPage } from '../jobs/JobsPage.tsx';
import { MembersPage } from '../members/MembersPage.tsx';
import { AuditPage } from '../space/AuditPage.tsx';
import { DependenciesPage } from '../space/DependenciesPage.tsx';
import { KafkaPage } from '../space/KafkaPage.tsx';
import { KeysPage } from '../space/KeysPage.tsx';
import { OverviewPage } from '../space/OverviewPage.tsx';
import { WebhooksPage } from '../webhooks/WebhooksPage.tsx';
import '../space/space.css';
import { Studio } from './context.ts';
import type { StudioContext } from './context.ts';
import { grantsOf } from './permissions.ts';
import { href, parseRoute, useHash } from './router.ts';
import type { Route } from './router.ts';
import { SignIn } from './SignIn.tsx';
import { NotAllowed } from './NotAllowed.tsx';

/** The main navigation: the rules, then the space's pages (with the permission a page needs to open). */
const NAV: ReadonlyArray<{ label: string; route: Route; pages: ReadonlyArray<Route['page']> }> = [
  { label: 'Rules', route: { page: 'rules' }, pages: ['rules', 'rule', 'compare'] },
  { label: 'Overview', route: { page: 'overview' }, pages: ['overview'] },
  { label: 'Dependencies', route: { page: 'dependencies' }, pages: ['dependencies'] },
  { label: 'Jobs', route: { page: 'jobs' }, pages: ['jobs'] },
  { label: 'Activity', route: { page: 'activity' }, pages: ['activity'] },
  { label: 'Audit log', route: { page: 'audit' }, pages: ['audit'] },
  { label: 'Members', route: { page: 'members' }, pages: ['members'] },
  { label: 'API keys', route: { page: 'keys' }, pages: ['keys'] },
  { label: 'Kafka', route: { page: 'kafka' }, pages: ['kafka'] },
  { label: 'Webhooks', route: { page: 'webhooks' }, pages: ['webhooks'] },
];

/** The pages a role may not be allowed to open: the permission, and the page's name in the refusal. */
const PAGE_PERMISSION: Partial<Record<Route['page'], { permission: Permission; name: string }>> = {
  jobs: { permission: 'rules:solve', name: 'the jobs' },
  activity: { permission: 'audit:read', name: 'the activity log' },
  audit: { permission: 'audit:read', name: 'the audit log' },
  members: { permission: 'space:admin', name: 'the members of the space' },
  keys: { permission: 'space:admin', name: 'the API keys' },
  kafka: { permission: 'space:admin', name: 'the Kafka settings' },
  webhooks: { permission: 'space:admin', name: 'the webhooks' },
};

interface Notice {
  id: number;
  message: string;
  tone: 'info' | 'error' | 'success';
}

type Session = { state: 'checking' } | { state: 'signed-out'; message?: string } | { state: 'signed-in'; me: Me };

/** The space shown: the one chosen before (when still a member), else the first by name as the server picks. */
function chosenSpace(me: Me, wanted: string | null): string | undefined {
  const names = me.spaces.map((s) => s.space).sort();
  return wanted !== null && names.includes(wanted) ? wanted : names[0];
}

export function App() {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  const [space, setSpace] = useState<string | null>(() => preferences.space());
  const [notice, setNotice] = useState<Notice | null>(null);
  const counter = useRef(0);
  const hash = useHash();
  const route = parseRoute(hash);

  useEffect(() => {
    preferences.forgetLegacyKey();
    authApi.me(new ApiClient()).then(
      (me) => setSession({ state: 'signed-in', me }),
      () => setSession({ state: 'signed-out' }),
    );
  }, []);

  const notify = useCallback((message: string, tone: Notice['tone'] = 'info') => {
    counter.current += 1;
    const id = counter.current;
    setNotice({ id, message, tone });
    window.setTimeout(() => setNotice((n) => (n?.id === id ? null : n)), 6000);
  }, []);
  // A 401 on any call: the session ended (idle or absolute expiry, signed out elsewhere, the key revoked). Unsaved
  // drafts are in IndexedDB and the rule page flushes its pending one as it unmounts, so nothing is lost.
  const ended = useCallback(() => setSession({ state: 'signed-out', message: 'Your session ended; sign in again.' }), []);

  const me = session.state === 'signed-in' ? session.me : null;
  const spaceName = me ? chosenSpace(me, space) : undefined;
  const api = useMemo(
    () => (me ? new ApiClient({ csrfToken: me.csrfToken, space: spaceName, onUnauthorized: ended }) : null),
    [me, spaceName, ended],
  );
  const signOut = useCallback(() => {
    const leave = () => setSession({ state: 'signed-out' });
    if (api) authApi.logout(api).then(leave, leave);
    else leave();
  }, [api]);
  const context = useMemo<StudioContext | null>(() => {
    const membership = me?.spaces.find((s) => s.space === spaceName);
    if (!me || !api || !membership) return null;
    return { api, me, grants: grantsOf(membership), signOut, notify };
  }, [me, api, spaceName, signOut, notify]);

  if (session.state === 'checking') return <main className="signin"><p className="muted" role="status">Opening Verdict Studio…</p></main>;
  if (session.state === 'signed-out' || !me) {
    return <SignIn message={session.state === 'signed-out' ? session.message : undefined} onSignedIn={(signedIn) => setSession({ state: 'signed-in', me: signedIn })} />;
  }
  if (!context) {
    return (
      <main className="signin">
        <div className="signin-card" role="alert">
          <h1>No space to open</h1>
          <p>{displayName(me)} is not a member of any space. Ask an admin of your space to add you.</p>
          <button type="button" className="btn" onClick={signOut}>Sign out</button>
        </div>
      </main>
    );
  }

  const guard = PAGE_PERMISSION[route.page];
  const refusal = guard && context.grants.reason(guard.permission, `open ${guard.name}`);
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
          {me.spaces.length > 1 && (
            <label className="space-switch">
              <select aria-label="Space" value={context.grants.space} onChange={(e) => { preferences.setSpace(e.target.value); setSpace(e.target.value); }}>
                {me.spaces.map((s) => s.space).sort().map((s) => <option key={s} value={s}>{s}</option>)}
              </select>
            </label>
          )}
          <span className="session-user" aria-label={`Signed in as ${displayName(me)}, ${context.grants.role} of ${context.grants.space}`}>
            <span aria-hidden="true">{displayName(me)}</span><span className="role" aria-hidden="true">{context.grants.role}</span>
          </span>
          <button type="button" className="btn btn-ghost" onClick={signOut}>Sign out</button>
        </header>
        {/* Keyed by the space: switching spaces reloads every page from the new space. */}
        <div className="page" key={context.grants.space}>
          {refusal && guard ? <NotAllowed reason={refusal} permission={guard.permission} /> : (
            <>
              {route.page === 'rules' && <RuleList />}
              {route.page === 'rule' && <RulePage key={`${route.id}/${route.version}`} id={route.id} version={route.version} />}
              {route.page === 'compare' && <ComparePage key={`${route.id}/${route.left}/${route.right}`} id={route.id} left={route.left} right={route.right} />}
              {route.page === 'overview' && <OverviewPage />}
              {route.page === 'dependencies' && <DependenciesPage id={route.id} />}
              {route.page === 'jobs' && <JobsPage />}
              {route.page === 'activity' && <ActivityPage />}
              {route.page === 'audit' && <AuditPage />}
              {route.page === 'members' && <MembersPage />}
              {route.page === 'keys' && <KeysPage />}
              {route.page === 'kafka' && <KafkaPage />}
              {route.page === 'webhooks' && <WebhooksPage />}
            </>
          )}
        </div>
        <div className={`toast${notice ? ` toast-${notice.tone}` : ''}`} role="status" aria-live="polite">
          {notice?.message}
        </div>
      </div>
    </Studio.Provider>
  );
}
