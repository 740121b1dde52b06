// Hash routing (#/rules, #/rules/<id>/<version>, #/rules/<id>/compare/<left>/<right>, and the space pages
// #/overview, #/dependencies[/<id>], #/jobs, #/audit, #/activity, #/members, #/keys, #/kafka, #/webhooks): the server serves one index.html at /studio/ and
// never sees the route, so deep links and reloads work behind any static server.
import { useSyncExternalStore } from 'react';

export type Route =
  | { page: 'rules' }
  | { page: 'rule'; id: string; version: number | 'latest' }
  | { page: 'compare'; id: string; left: number; right: number }
  | { page: SpacePage }
  | { page: 'dependencies'; id?: string };

/** The space's pages without parameters. */
export type SpacePage = 'overview' | 'jobs' | 'audit' | 'activity' | 'members' | 'keys' | 'kafka' | 'webhooks';
const SPACE_PAGES: readonly string[] = ['overview', 'jobs', 'audit', 'activity', 'members', 'keys', 'kafka', 'webhooks'] satisfies SpacePage[];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'rules' && parts[1]) {
    if (parts[2] === 'compare' && parts[3] && parts[4]) return { page: 'compare', id: parts[1], left: Number(parts[3]), right: Number(parts[4]) };
    const version = parts[2] && /^\d+$/.test(parts[2]) ? Number(parts[2]) : 'latest';
    return { page: 'rule', id: parts[1], version };
  }
  if (parts[0] === 'dependencies') return parts[1] ? { page: 'dependencies', id: parts[1] } : { page: 'dependencies' };
  if (parts[0] !== undefined && SPACE_PAGES.includes(parts[0])) return { page: parts[0] as SpacePage };
  return { page: 'rules' };
}

export function href(route: Route): string {
  const e = encodeURIComponent;
  switch (route.page) {
    case 'rules':
      return '#/rules';
    case 'rule':
      return `#/rules/${e(route.id)}/${route.version}`;
    case 'compare':
      return `#/rules/${e(route.id)}/compare/${route.left}/${route.right}`;
    case 'dependencies':
      return route.id === undefined ? '#/dependencies' : `#/dependencies/${e(route.id)}`;
    default:
      return `#/${route.page}`;
  }
}

export function navigate(route: Route): void {
  window.location.hash = href(route);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash);
}
