// `verdict user create|list|role|remove` as an operator runs them: a one-time password printed once (or one read
// with --password-stdin) that then signs in, roles per space, removal from a space or altogether, clear one-line
// failures, and never a password hash in any output.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withServices } from '../../src/server/one-shot.ts';
import { sqliteBackend } from '../store/backends.ts';
import type { Backend } from '../store/backends.ts';
import { runCli } from './helpers.ts';

describe('verdict user', () => {
  let backend: Backend;
  const cli = (args: string[], stdin?: string) => runCli(args, { stdin, env: { DATABASE_URL: backend.url } });
  /** Whether the password signs the user in (the check POST /api/auth/login makes). */
  const signsIn = (username: string, password: string) =>
    withServices(async (services) => (await services.users.verify(username, password)) !== undefined, { DATABASE_URL: backend.url });

  before(async () => {
    backend = sqliteBackend();
    for (const space of ['acme', 'beta']) assert.equal((await cli(['space', 'create', space])).code, 0);
  });
  after(() => backend.cleanup());

  test('create prints a one-time password once, and that password signs in', async () => {
    const run = await cli(['user', 'create', 'erin', '--space', 'acme', '--role', 'editor']);
    assert.equal(run.code, 0, run.stderr);
    const password = /^Password \(shown once; store it now\): (\S+)$/m.exec(run.stdout)?.[1];
    assert.ok(password, run.stdout);
    assert.match(run.stdout, /^User "erin" created: editor of space "acme"\.$/m);
    assert.equal(await signsIn('erin', password), true);
    assert.equal(await signsIn('erin', 'not-the-password'), false);
  });

  test('--password-stdin reads the password (one line, its newline dropped); bad ones are refused', async () => {
    const run = await cli(['user', 'create', 'paul', '--space', 'acme', '--role', 'publisher', '--password-stdin'], 'paul-secret-42\n');
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /Password/);
    assert.equal(await signsIn('paul', 'paul-secret-42'), true);
    const short = await cli(['user', 'create', 'sam', '--space', 'acme', '--role', 'viewer', '--password-stdin'], 'short\n');
    assert.deepEqual([short.code, short.stderr], [1, 'verdict: a password must have at least 8 characters\n']);
    const empty = await cli(['user', 'create', 'sam', '--space', 'acme', '--role', 'viewer', '--password-stdin'], '');
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /^verdict: --password-stdin: nothing was read from stdin/);
  });

  test('usage and store failures are one line each', async () => {
    const role = await cli(['user', 'create', 'x1', '--space', 'acme', '--role', 'boss']);
    assert.equal(role.code, 2);
    assert.match(role.stderr, /boss.*Allowed choices are viewer, editor, publisher, admin/);
    const taken = await cli(['user', 'create', 'ERIN', '--space', 'beta', '--role', 'viewer']);
    assert.deepEqual([taken.code, taken.stderr], [1, 'verdict: User "ERIN" already exists\n']);
    const space = await cli(['user', 'create', 'x2', '--space', 'nope', '--role', 'viewer']);
    assert.deepEqual([space.code, space.stderr], [1, 'verdict: space "nope" does not exist\n']);
    const name = await cli(['user', 'create', 'bad name', '--space', 'acme', '--role', 'viewer']);
    assert.deepEqual([name.code, name.stderr], [1, 'verdict: username "bad name" is invalid: a username is 1-100 letters, digits or "._@+-", starting with a letter or digit\n']);
  });

  test('role sets a role, joining the space when needed; list shows users with their spaces, never a hash', async () => {
    assert.equal((await cli(['user', 'role', 'erin', '--space', 'beta', '--role', 'viewer'])).code, 0);
    const changed = await cli(['user', 'role', 'erin', '--space', 'acme', '--role', 'publisher']);
    assert.deepEqual([changed.code, changed.stdout], [0, 'User "erin" is publisher of space "acme".\n']);
    const unknown = await cli(['user', 'role', 'nobody', '--space', 'acme', '--role', 'viewer']);
    assert.deepEqual([unknown.code, unknown.stderr], [1, 'verdict: No user "nobody"\n']);
    const listed = await cli(['user', 'list']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout, 'erin\tlocal\tacme:publisher,beta:viewer\npaul\tlocal\tacme:publisher\n');
    const json = await cli(['user', 'list', '--space', 'beta', '--json']);
    const users = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(users.map((u) => [u.username, u.spaces]), [['erin', [{ space: 'acme', role: 'publisher' }, { space: 'beta', role: 'viewer' }]]]);
    assert.deepEqual(Object.keys(users[0]!).sort(), ['displayName', 'id', 'source', 'spaces', 'username']);
    for (const out of [listed.stdout, json.stdout]) assert.doesNotMatch(out, /scrypt|password/i);
  });

  test('password resets a password (printed once, or from stdin) and ends the user\'s sessions', async () => {
    const userId = await withServices(async (services) => (await services.users.verify('paul', 'paul-secret-42'))!.id, { DATABASE_URL: backend.url });
    const session = await withServices((services) => services.sessions.start({ userId }), { DATABASE_URL: backend.url });
    const reset = await cli(['user', 'password', 'paul']);
    assert.equal(reset.code, 0, reset.stderr);
    const password = /^Password \(shown once; store it now\): (\S+)$/m.exec(reset.stdout)?.[1];
    assert.ok(password, reset.stdout);
    assert.equal(await signsIn('paul', password), true);
    assert.equal(await signsIn('paul', 'paul-secret-42'), false);
    const ended = await withServices((services) => services.sessions.me(session.sessionId).then(() => 'live', (err: Error) => err.message), { DATABASE_URL: backend.url });
    assert.equal(ended, 'Your session has ended; sign in again');
    const piped = await cli(['user', 'password', 'paul', '--password-stdin'], 'paul-secret-42\n');
    assert.deepEqual([piped.code, piped.stdout], [0, 'Password of "paul" set; their sessions have ended.\n']);
    assert.equal(await signsIn('paul', 'paul-secret-42'), true);
    const unknown = await cli(['user', 'password', 'nobody', '--password-stdin'], 'whatever-long\n');
    assert.deepEqual([unknown.code, unknown.stderr], [1, 'verdict: No user "nobody"\n']);
  });

  test('remove takes a user out of one space, or deletes them', async () => {
    const out = await cli(['user', 'remove', 'erin', '--space', 'beta']);
    assert.deepEqual([out.code, out.stdout], [0, 'User "erin" removed from space "beta".\n']);
    assert.equal((await cli(['user', 'list', '--space', 'beta'])).stdout, '');
    const gone = await cli(['user', 'remove', 'paul']);
    assert.deepEqual([gone.code, gone.stdout], [0, 'User "paul" deleted.\n']);
    assert.equal(await signsIn('paul', 'paul-secret-42'), false);
    const again = await cli(['user', 'remove', 'paul']);
    assert.deepEqual([again.code, again.stderr], [1, 'verdict: No user "paul"\n']);
  });
});
