// Starts a real Verdict server (the same startServer as `verdict serve`) on a random port over a test database,
// and calls it over real HTTP with fetch.
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server/start.ts';
import type { RunningServer, StartServerOptions } from '../../src/server/start.ts';
import type { CreatedSpace } from '../../src/service/spaces.ts';
import type { Backend } from '../store/backends.ts';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface CallOptions {
  key?: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless `raw` is given. */
  body?: unknown;
  /** Sent as is; with a Uint8Array no Content-Type is added. */
  raw?: string | Uint8Array;
}

export interface TestServer {
  url: string;
  running: RunningServer;
  space: CreatedSpace;
  /** Log lines written by the server (parsed JSON). */
  logs: Array<Record<string, unknown>>;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  solve(path: string, body: unknown, headers?: Record<string, string>, key?: string): Promise<Reply>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  backend: Backend;
  env?: Record<string, string>;
  clock?: () => number;
  services?: StartServerOptions['services'];
  studioDir?: string;
  /** Extra plugins (routes made for a test). */
  plugins?: StartServerOptions['plugins'];
}

export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const config = loadConfig({
    DATABASE_URL: options.backend.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    AUDIT_FLUSH_MS: '10',
    VERDICT_SEED_EXAMPLES: 'false',
    ...options.env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: config.logLevel }, sink);
  const running = await startServer({ config, logger, clock: options.clock, services: { defaultMetrics: false, ...options.services }, studioDir: options.studioDir, plugins: options.plugins });
  let space = running.createdDefaultSpace;
  if (!space) {
    // Reusing a database: make a fresh space for this server.
    space = await running.services.spaces.create(`s${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`);
  }
  const url = running.url;
  return {
    url,
    running,
    space,
    logs,
    call: (method, path, callOptions) => call(url, method, path, callOptions),
    solve: (path, body, headers = {}, key = space.solverKey) => call(url, 'POST', path, { key, body, headers }),
    close: () => running.close(),
  };
}

/**
 * Polls `probe` until it returns a value other than undefined (audit records are written asynchronously). The
 * guard only ends a wait for something that never comes: it is no time limit of the behaviour, and at a load
 * average of 8 on two cores even a 10 ms audit flush can take seconds.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
