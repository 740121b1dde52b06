// NDJSON in parts (src/service/jobs/text-parts.ts): whole lines, in order, no part over PART_CHARS unless one line is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linesOf, PART_CHARS, TextParts } from '../../src/service/jobs/text-parts.ts';

test('lines are cut into parts of whole lines under PART_CHARS, and read back in order', () => {
  const parts = new TextParts();
  const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 97) }));
  for (const line of lines) parts.add(line);
  assert.equal(parts.lines, 5000);
  const out = parts.finish();
  assert.ok(out.length > 1, 'more than one part');
  for (const part of out) {
    assert.ok(part.length <= PART_CHARS, `a part of ${part.length} characters`);
    assert.ok(part.endsWith('\n'));
  }
  assert.equal(out.join(''), lines.map((l) => `${l}\n`).join(''));
  assert.deepEqual(out.flatMap(linesOf), lines);
  assert.deepEqual(parts.finish(), [], 'empty after finish');
});

test('a line longer than a part is a part of its own; text without a final newline reads the same', () => {
  const parts = new TextParts();
  const long = `"${'y'.repeat(PART_CHARS + 10)}"`;
  parts.add('{"a":1}');
  parts.add(long);
  parts.add('{"b":2}');
  const out = parts.finish();
  assert.deepEqual(out, ['{"a":1}\n', `${long}\n`, '{"b":2}\n']);
  // Rows stored before the parts migration: lines joined by newlines, none after the last.
  assert.deepEqual(linesOf('{"a":1}\n{"b":2}'), ['{"a":1}', '{"b":2}']);
});
