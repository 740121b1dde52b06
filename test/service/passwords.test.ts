// Password hashes: scrypt with a fresh salt each time, the parameters in the stored value, wrong or malformed
// stored values refused without an exception.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generatePassword, hashPassword, passwordProblem, verifyPassword } from '../../src/service/passwords.ts';

test('a hash verifies its password only, and two hashes of one password differ (a salt each)', async () => {
  const first = await hashPassword('correct horse battery');
  const second = await hashPassword('correct horse battery');
  assert.match(first, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  assert.notEqual(first, second);
  assert.equal(await verifyPassword('correct horse battery', first), true);
  assert.equal(await verifyPassword('correct horse batterY', first), false);
  assert.equal(await verifyPassword('', first), false);
});

test('stored values that are no scrypt hash, or ask for more memory than allowed, are refused without throwing', async () => {
  for (const stored of ['', 'plain', 'scrypt$x$8$1$c2FsdA$aGFzaA', 'scrypt$16384$8$1$c2FsdA$', 'bcrypt$1$2$3$4$5', 'scrypt$1073741824$8$1$c2FsdA$aGFzaA', 'scrypt$1000$8$1$c2FsdA$aGFzaA', 'scrypt$16384$0$1$c2FsdA$aGFzaA']) {
    assert.equal(await verifyPassword('anything', stored), false, stored);
  }
});

test('generated passwords are 120 random bits; chosen ones need 8 to 1024 characters', () => {
  assert.match(generatePassword(), /^[\w-]{20}$/);
  assert.notEqual(generatePassword(), generatePassword());
  assert.equal(passwordProblem('1234567'), 'a password must have at least 8 characters');
  assert.equal(passwordProblem('12345678'), undefined);
  assert.equal(passwordProblem('x'.repeat(1025)), 'a password must have at most 1024 characters');
});
