// Kafka: end-to-end solves/s and p99 over the real broker, against a raw consume-then-produce pipe written with
// the same client. Reports "not available" until the Kafka channel and `npm run kafka:start` exist.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchCase } from '../lib/case.ts';

export const kafkaCase: BenchCase = {
  id: 'kafka',
  title: 'Kafka: Verdict channel vs raw consume-then-produce pipe',
  key: 'kafka',
  async run(ctx, result) {
    const pkg = JSON.parse(readFileSync(path.join(ctx.repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    const missing: string[] = [];
    if (!pkg.scripts?.['kafka:start']) missing.push('npm run kafka:start');
    if (!existsSync(path.join(ctx.repoRoot, 'src', 'kafka', 'index.ts'))) missing.push('src/kafka/index.ts');
    if (missing.length) {
      result.status = 'skipped';
      result.notes.push(`not available: ${missing.join(' and ')} missing`);
      return;
    }
    result.status = 'skipped';
    result.notes.push('not available: the Kafka case is not written yet');
  },
};
