// The session settings: their defaults, and a bad value stops start-up with one line naming the variable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';

test('sessions default to 60 idle minutes, 12 hours, key sign-in on, Secure by TLS, no trusted proxy', () => {
  const config = loadConfig({});
  assert.deepEqual(config.sessions, { idleMinutes: 60, maxHours: 12, keySignIn: true, cookieSecure: 'auto' });
  assert.equal(config.trustProxy, false);
  const set = loadConfig({ SESSION_IDLE_MINUTES: '15', SESSION_MAX_HOURS: '8', STUDIO_KEY_SIGNIN: 'false', COOKIE_SECURE: 'TRUE', TRUST_PROXY: 'true' });
  assert.deepEqual(set.sessions, { idleMinutes: 15, maxHours: 8, keySignIn: false, cookieSecure: true });
  assert.equal(set.trustProxy, true);
  assert.equal(loadConfig({ COOKIE_SECURE: 'false' }).sessions.cookieSecure, false);
});

test('bad session settings name the variable', () => {
  assert.throws(() => loadConfig({ COOKIE_SECURE: 'maybe' }), { message: 'Invalid configuration: COOKIE_SECURE "maybe" is not auto, true or false' });
  assert.throws(() => loadConfig({ SESSION_IDLE_MINUTES: '0' }), { message: /^Invalid configuration: SESSION_IDLE_MINUTES 0 is out of range/ });
  assert.throws(() => loadConfig({ SESSION_MAX_HOURS: 'ten' }), { message: 'Invalid configuration: SESSION_MAX_HOURS "ten" is not an integer' });
  assert.throws(() => loadConfig({ STUDIO_KEY_SIGNIN: 'sometimes' }), { message: /^Invalid configuration: STUDIO_KEY_SIGNIN/ });
  assert.throws(() => loadConfig({ TRUST_PROXY: 'x' }), { message: /^Invalid configuration: TRUST_PROXY/ });
});
