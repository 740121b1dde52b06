// Shared by the management API suites: a server per suite on SQLite or PostgreSQL, a caller bound to a key, and
// the checks every error answer must pass.
import assert from 'node:assert/strict';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import { backendOf, postgresSkip } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from '../http/harness.ts';
import type { Reply, TestServer } from '../http/harness.ts';

export type Doc = Record<string, any>;

export type Api = (method: string, path: string, body?: unknown) => Promise<Reply>;

export function apiFor(server: TestServer, key: string): Api {
  return (method, path, body) => server.call(method, path, body === undefined ? { key } : { key, body });
}

/** The body of a create: the fixture without the fields the server decides (kept only when asked to). */
export function asNew(doc: Doc, keep: Array<'ruleId' | 'ruleAlias'> = []): Doc {
  const { ruleId, ruleAlias, version: _version, baseId: _baseId, ...rest } = doc;
  return { ...rest, ...(keep.includes('ruleId') ? { ruleId } : {}), ...(keep.includes('ruleAlias') ? { ruleAlias } : {}) };
}

export function assertError(reply: Reply, status: number, message: string | RegExp): void {
  assert.equal(reply.status, status, `status of ${reply.text}`);
  assert.equal(typeof reply.json?.error?.message, 'string', `error body shape: ${reply.text}`);
  if (typeof message === 'string') assert.equal(reply.json.error.message, message);
  else assert.match(reply.json.error.message, message);
  assert.ok(reply.headers.get('x-correlation-id'), 'errors carry X-Correlation-Id');
  assert.doesNotMatch(reply.text, /\n\s+at |"stack"/, 'no stack trace');
}

export interface SuiteServer {
  server: TestServer;
  backend: Backend;
  /** The server's first space. */
  space: CreatedSpace;
  api: Api;
  solve(path: string, data: unknown, key?: string): Promise<Reply>;
  close(): Promise<void>;
}

/** undefined when the backend is PostgreSQL and it is not reachable (outside CI). */
export async function skipReason(kind: 'sqlite' | 'postgres'): Promise<string | false> {
  return kind === 'postgres' ? postgresSkip() : false;
}

export async function startSuiteServer(kind: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<SuiteServer> {
  const backend = await backendOf(kind);
  const server = await startTestServer({ backend, env });
  const space = server.space;
  return {
    server,
    backend,
    space,
    api: apiFor(server, space.managementKey),
    solve: (path, data, key = space.solverKey) => server.call('POST', path, { key, body: { data } }),
    close: async () => {
      await server.close();
      await backend.cleanup();
    },
  };
}
