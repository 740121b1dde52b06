// Jobs (issue 27): the throughput of a job on one instance (inputs stored in chunks, leased, solved, results
// committed, all through SQLite in a temp dir) against in-process bulk solves of the same rule and inputs (the
// solve use case with arrays of BULK_LIMIT inputs, already parsed). Target: the job at least 80% of the bulk rate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server/start.ts';
import type { BenchCase } from '../lib/case.ts';
import { errorText } from '../lib/case.ts';
import { summarise } from '../lib/measure.ts';
import { toVerdictTable } from '../lib/to-verdict.ts';
import { loanInputs, loanTable } from './tables.ts';

/** Distinct inputs, rotated: a prime, so no chunk or bulk size lines up with it. */
const ROTATION = 61;
const BULK = 10_000;

export const jobsCase: BenchCase = {
  id: 'jobs',
  title: 'Jobs: one instance vs in-process bulk (500-row table)',
  key: 'jobs',
  async run(ctx, result) {
    const count = ctx.quick ? 100_000 : 500_000;
    const runs = ctx.quick ? 1 : 3;
    const dir = mkdtempSync(join(tmpdir(), 'verdict-bench-jobs-'));
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'verdict.db')}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', VERDICT_SEED_EXAMPLES: 'false', JOBS_POLL_INTERVAL_MS: '5' });
    const logger = pino({ level: 'warn' }, new Writable({ write: (_c, _e, done) => done() }));
    const server = await startServer({ config, logger, services: { defaultMetrics: false } });
    try {
      const services = server.services;
      const space = server.createdDefaultSpace!;
      await services.rulesIO.importContainer(space.space, [{ ...toVerdictTable(loanTable(500), { ruleId: 'rule-loan500', ruleAlias: 'loan500' }), status: 'published', version: 1 }]);
      const principal = await services.keys.authenticate(`Bearer ${space.solverKey}`, 'solver');
      const distinct = loanInputs(ROTATION);
      const inputs = Array.from({ length: count }, (_, i) => distinct[i % ROTATION]!);
      const request = (data: unknown[]) => ({ idOrAlias: 'loan500', version: 1, data, correlationId: 'bench' });

      const bulk = async (): Promise<number> => {
        const start = performance.now();
        for (let i = 0; i < inputs.length; i += BULK) await services.solver.solve(principal, request(inputs.slice(i, i + BULK)));
        return count / ((performance.now() - start) / 1000);
      };
      const job = async (): Promise<number> => {
        const start = performance.now();
        const started = await services.jobs.start(principal, { idOrAlias: 'loan500', version: 1 }, { format: 'json', inputs });
        for (;;) {
          const state = await services.jobs.get(space.space, started.jobId);
          if (state.state === 'Completed') break;
          if (state.state !== 'Running' && state.state !== 'Waiting') throw new Error(`job ended ${state.state}: ${state.error ?? ''}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const rate = count / ((performance.now() - start) / 1000);
        // The job's lines are the bulk's answers.
        const expected = (await services.solver.solve(principal, request(distinct))).body as unknown[];
        let index = 0;
        for await (const piece of await services.jobs.results(space.space, started.jobId)) {
          for (const line of piece.split('\n')) {
            if (line === '') continue;
            if (line !== JSON.stringify(expected[index % ROTATION])) throw new Error(`job line ${index} differs from the bulk answer`);
            index++;
          }
        }
        if (index !== count) throw new Error(`job answered ${index} lines for ${count} inputs`);
        result.agreement.push({ scenario: 'job vs bulk', inputs: count, engines: ['Verdict job', 'Verdict bulk'], nonEmpty: count });
        return rate;
      };

      ctx.log('  jobs: warm-up ...');
      await bulk();
      const bulkRates: number[] = [];
      const jobRates: number[] = [];
      // Alternating, so a noisy neighbour hurts both alike.
      for (let r = 0; r < runs; r++) {
        ctx.log(`  jobs: run ${r + 1}/${runs} ...`);
        bulkRates.push(await bulk());
        jobRates.push(await job());
      }
      const bulkSample = summarise(bulkRates, 'ops/s');
      const jobSample = summarise(jobRates, 'ops/s');
      result.measurements.push({ scenario: 'throughput', engine: 'verdict', label: 'Verdict bulk (in-process)', sample: bulkSample });
      result.measurements.push({ scenario: 'throughput', engine: 'verdict-job', label: 'Verdict job (one instance, SQLite)', sample: jobSample });
      const ratio = Math.round((jobSample.median / bulkSample.median) * 100) / 100;
      result.summary = { inputs: count, bulkPerSecond: Math.round(bulkSample.median), jobPerSecond: Math.round(jobSample.median), ratio, target: 0.8 };
      result.notes.push(`${count} inputs per run; the job's time runs from the start call (inputs stored in chunks of JOBS_CHUNK_SIZE=${config.jobs.chunkSize}) to the job seen Completed; bulk: ${BULK} inputs per solve call, already parsed`);
      if (ratio < 0.8) result.notes.push(`job throughput is ${Math.round(ratio * 100)}% of bulk, below the 80% target`);
    } catch (error) {
      result.status = 'failed';
      result.notes.push(`jobs: ${errorText(error)}`);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
