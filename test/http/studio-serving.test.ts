// The Studio served by Verdict: index, hashed assets with long cache headers, the single-page-app fallback, the
// redirect from /, a 503 page when the build is missing, nothing at all under STUDIO_ENABLED=false, and none of it
// in the OpenAPI documents. A built Studio is stood in for by a temporary directory of the same shape.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { startTestServer } from './harness.ts';
import type { TestServer } from './harness.ts';

// As Vite writes it with html.cspNonce (studio/vite.config.ts): the server puts a fresh nonce in each answer.
const INDEX = '<!doctype html><html><head><meta property="csp-nonce" nonce="VERDICT_CSP_NONCE"><script type="module" src="/studio/assets/index-Abc123.js"></script></head><body><div id="root"></div></body></html>';
const CSP_FIXED = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The page as answered: the nonce its CSP header names is the one in its meta element, and nowhere else. */
async function pageOf(reply: Response, path: string): Promise<string> {
  const csp = reply.headers.get('content-security-policy') ?? '';
  const nonce = /'nonce-([A-Za-z0-9+/=]{24})'/.exec(csp)?.[1];
  assert.ok(nonce, `${path}: a nonce in ${csp}`);
  assert.equal(csp, CSP_FIXED.replace("style-src 'self'", `style-src 'self' 'nonce-${nonce}'`), path);
  const text = await reply.text();
  assert.equal(text, INDEX.replace('VERDICT_CSP_NONCE', nonce), path);
  return nonce;
}
const SCRIPT = 'console.log("studio");';

function fakeBuild(): string {
  // The build directory's own path holds "assets": only files under the build's assets/ folder are immutable.
  const dir = join(mkdtempSync(join(tmpdir(), 'verdict-studio-')), 'assets', 'dist');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-Abc123.js'), SCRIPT);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

async function withServer(env: Record<string, string>, studioDir: string, run: (server: TestServer) => Promise<void>): Promise<void> {
  const backend = sqliteBackend();
  const server = await startTestServer({ backend, env, studioDir });
  try {
    await run(server);
  } finally {
    await server.close();
    await backend.cleanup();
  }
}

/** GET without following redirects. */
async function get(server: TestServer, path: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { redirect: 'manual' });
}

describe('Studio serving with a build', () => {
  let backend: Backend;
  let server: TestServer;
  let dir: string;

  before(async () => {
    dir = fakeBuild();
    backend = sqliteBackend();
    server = await startTestServer({ backend, studioDir: dir });
  });
  after(async () => {
    await server.close();
    await backend.cleanup();
    rmSync(join(dir, '..', '..'), { recursive: true, force: true });
  });

  test('GET / redirects (302) to /studio/', async () => {
    const reply = await get(server, '/');
    assert.equal(reply.status, 302);
    assert.equal(reply.headers.get('location'), '/studio/');
  });

  test('/studio/ answers index.html with a strict CSP and a fresh nonce each time, never cached, not framable', async () => {
    const nonces = new Set<string>();
    for (const path of ['/studio/', '/studio', '/studio/index.html', '/studio/']) {
      const reply = await get(server, path);
      assert.equal(reply.status, 200, path);
      assert.match(reply.headers.get('content-type') ?? '', /^text\/html/, path);
      nonces.add(await pageOf(reply, path));
      assert.equal(reply.headers.get('cache-control'), 'no-cache', path);
      assert.equal(reply.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(reply.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(reply.headers.get('referrer-policy'), 'same-origin', path);
    }
    assert.equal(nonces.size, 4, 'every answer has its own nonce');
  });

  test('hashed assets are served with a year-long immutable cache header; other files are revalidated', async () => {
    const asset = await get(server, '/studio/assets/index-Abc123.js');
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.equal(await asset.text(), SCRIPT);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const icon = await get(server, '/studio/favicon.svg');
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('cache-control'), 'no-cache');
    for (const file of [asset, icon]) {
      assert.equal(file.headers.get('content-security-policy'), CSP_FIXED, 'files carry the policy too (an SVG opened directly is a document)');
      assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
    }
  });

  test('any other /studio/ path is a route of the app: index.html; a missing asset stays a 404', async () => {
    for (const path of ['/studio/rules', '/studio/rules/abc/2/compare?with=1', '/studio/deep/a/b/c']) {
      const reply = await get(server, path);
      assert.equal(reply.status, 200, path);
      await pageOf(reply, path);
      assert.equal(reply.headers.get('cache-control'), 'no-cache', path);
    }
    const missing = await get(server, '/studio/assets/index-Old999.js');
    assert.equal(missing.status, 404);
    assert.match((await missing.json() as { error: { message: string } }).error.message, /^No route GET \/studio\/assets\/index-Old999\.js$/);
    const post = await server.call('POST', '/studio/rules', { body: {} });
    assert.equal(post.status, 404);
  });

  test('paths cannot climb out of the build directory', async () => {
    for (const path of ['/studio/../package.json', '/studio/%2e%2e/package.json', '/studio/assets/%2e%2e/%2e%2e/package.json']) {
      const reply = await get(server, path);
      const text = await reply.text();
      assert.doesNotMatch(text, /"name": "verdict"/, path);
    }
  });

  test('the Studio routes are in neither OpenAPI document', async () => {
    for (const docs of ['/api/docs/json', '/api/solver/docs/json']) {
      const paths = Object.keys((await server.call('GET', docs)).json.paths);
      assert.ok(!paths.some((p) => p === '/' || p.startsWith('/studio')), `${docs}: ${paths.filter((p) => p.startsWith('/studio')).join(', ')}`);
    }
  });
});

describe('Studio serving without a build, and turned off', () => {
  test('a missing build answers 503 with a page saying to run npm run build (no stack trace)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'verdict-studio-empty-'));
    try {
      await withServer({}, empty, async (server) => {
        for (const path of ['/studio/', '/studio/rules/x', '/studio/assets/a.js']) {
          const reply = await get(server, path);
          assert.equal(reply.status, 503, path);
          assert.match(reply.headers.get('content-type') ?? '', /^text\/html/);
          const text = await reply.text();
          assert.match(text, /npm run build/);
          assert.doesNotMatch(text, /\n\s+at |Error:/);
        }
        assert.equal((await get(server, '/')).headers.get('location'), '/studio/', 'the redirect still leads to the explanation');
        assert.equal((await server.call('GET', '/health-check')).status, 200, 'the API is unaffected');
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('STUDIO_ENABLED=false: /studio/ is a 404 and / does not redirect', async () => {
    const dir = fakeBuild();
    try {
      await withServer({ STUDIO_ENABLED: 'false' }, dir, async (server) => {
        for (const path of ['/studio/', '/studio/assets/index-Abc123.js', '/']) {
          const reply = await get(server, path);
          assert.equal(reply.status, 404, path);
          assert.equal(reply.headers.get('location'), null);
        }
      });
    } finally {
      rmSync(join(dir, '..', '..'), { recursive: true, force: true });
    }
  });
});
