// A node:test reporter that the suite runner (scripts/test-suite.ts) adds next to the usual one: it writes, as one
// JSON object, each test file's duration in ms (the file's own test:complete event, at nesting 0 and named after the
// file, which spans its whole process). The runner merges it into the timings that order the next run.
import { relative } from 'node:path';
import type { TestEvent } from 'node:test/reporters';

export default async function* timingsReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const durations: Record<string, number> = {};
  for await (const event of source) {
    if (event.type !== 'test:complete' || event.data.nesting !== 0 || event.data.file === undefined) continue;
    const file = relative(process.cwd(), event.data.file);
    // Only the file's own event (named after it): a top-level test of a shared suite module names that module.
    if (event.data.name !== file && event.data.name !== event.data.file) continue;
    durations[file] = Math.round(event.data.details.duration_ms);
  }
  yield `${JSON.stringify(durations)}\n`;
}
