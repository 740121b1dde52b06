// Runs one case in a fresh process (forked by run.ts with --expose-gc), so that no case inherits another's JIT
// state, heap or native threads, and sends the CaseResult back over IPC.
import { performance } from 'node:perf_hooks';
import type { BenchContext, CaseResult } from './lib/case.ts';
import { emptyResult, errorText } from './lib/case.ts';
import { disposeZen } from './lib/contenders.ts';
import { findCase } from './cases/index.ts';

export interface RunnerRequest {
  caseId: string;
  context: Omit<BenchContext, 'log'>;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as RunnerRequest;
  const bench = findCase(request.caseId);
  const result: CaseResult = emptyResult(bench);
  const ctx: BenchContext = { ...request.context, log: (line) => console.log(line) };
  const start = performance.now();
  try {
    await bench.run(ctx, result);
  } catch (error) {
    result.status = 'failed';
    result.notes.push(`case failed: ${errorText(error)}`);
    console.error(error);
  } finally {
    disposeZen();
  }
  result.durationMs = performance.now() - start;
  await new Promise<void>((resolve) => {
    if (process.send) process.send(result, () => resolve());
    else {
      console.log(JSON.stringify(result, null, 2));
      resolve();
    }
  });
  // Native add-ons and sockets may keep the loop alive; the result is delivered, so end here.
  process.exit(0);
}

await main();
