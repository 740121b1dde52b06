// One chunk of a job solved through the solve use case, so each line is what POST /rule/solve answers for that
// input: its result array, or its error in the solver's shape ({"error": {"message": ...}}). The inputs are read
// and solved in small bulks, each answered synchronously by a warm rule (solve.ts solveNow), so an input's objects
// die young instead of filling the old generation while a large chunk is solved; the event loop gets a turn between
// groups of bulks. Only a bulk that fails (one of its inputs failed) is solved again input by input.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Json } from '../../engine/types.ts';
import { classify } from '../errors.ts';
import { BULK_YIELD_EVERY } from '../input-loop.ts';
import type { Principal } from '../keys.ts';
import type { SolveChannel, SolveRequest, SolveResponse, SolveService } from '../solve.ts';
import type { JobRecord } from '../../store/ports.ts';
import { linesOf, TextParts } from './text-parts.ts';

/** Job solves in the metrics and audit records: 0 for an answer, 1 for an error, like a process exit code. */
export const JOB_CHANNEL: SolveChannel = { name: 'job', codeOf: (failure) => (failure === undefined ? 0 : 1) };

/** Inputs solved between two turns of the event loop. */
const YIELD_EVERY = 1024;

export interface SolvedChunk {
  /** NDJSON in parts (text-parts.ts), one line per input, each ending in a newline. */
  lines: string[];
  /** Inputs answered with an error. */
  failed: number;
  /** Inputs answered: one line each. */
  count: number;
}

/** The principal a job's solves run as: the starter's key, with the solver role only. */
export function jobPrincipal(job: JobRecord): Principal {
  return { keyId: job.keyId, space: job.space, type: 'solver', role: 'solver', actor: job.actor };
}

function request(job: JobRecord, seq: number, data: unknown): SolveRequest {
  return {
    idOrAlias: job.ruleId,
    version: job.version,
    data,
    strategy: job.strategy ?? undefined,
    correlationId: `job:${job.id}:${seq}`,
    channel: JOB_CHANNEL,
  };
}

/**
 * A chunk's inputs: objects held (held-inputs.ts), or the store's text in parts (one JSON text per line) read a few
 * at a time from part `fromPart` on ([] past the last).
 */
export type ChunkInputs = { values: readonly unknown[] } | { parts: (fromPart: number) => Promise<string[]> };

/** The inputs in bulks of BULK_YIELD_EVERY, text parsed part by part as it is read. */
async function* bulks(chunkInputs: ChunkInputs): AsyncGenerator<unknown[]> {
  if ('values' in chunkInputs) {
    for (let start = 0; start < chunkInputs.values.length; start += BULK_YIELD_EVERY) yield chunkInputs.values.slice(start, start + BULK_YIELD_EVERY);
    return;
  }
  let bulk: unknown[] = [];
  let next = 0;
  for (let parts = await chunkInputs.parts(next); parts.length > 0; parts = await chunkInputs.parts(next)) {
    next += parts.length;
    for (const part of parts) {
      for (const line of linesOf(part)) {
        bulk.push(JSON.parse(line));
        if (bulk.length === BULK_YIELD_EVERY) {
          yield bulk;
          bulk = [];
        }
      }
    }
  }
  if (bulk.length > 0) yield bulk;
}

/** Solves the chunk's inputs. Throws only for a fault of ours. */
export async function solveChunk(solver: SolveService, job: JobRecord, seq: number, chunkInputs: ChunkInputs): Promise<SolvedChunk> {
  const principal = jobPrincipal(job);
  const lines = new TextParts();
  let failed = 0;
  let solvedSinceYield = 0;
  for await (const inputs of bulks(chunkInputs)) {
    if (solvedSinceYield >= YIELD_EVERY) {
      await yieldToEventLoop();
      solvedSinceYield = 0;
    }
    solvedSinceYield += inputs.length;
    let solved: SolveResponse | undefined;
    try {
      const answer = solver.solveNow(principal, request(job, seq, inputs));
      solved = answer instanceof Promise ? await answer : answer;
    } catch (err) {
      if (classify(err) === undefined) throw err;
    }
    if (solved !== undefined) {
      for (const result of solved.body as Json[][]) lines.add(JSON.stringify(result));
      continue;
    }
    for (const input of inputs) {
      try {
        const answer = solver.solveNow(principal, request(job, seq, input));
        lines.add(JSON.stringify((answer instanceof Promise ? await answer : answer).body));
      } catch (err) {
        const failure = classify(err);
        if (failure === undefined) throw err;
        failed++;
        lines.add(JSON.stringify({ error: { message: failure.message } }));
      }
    }
  }
  const count = lines.lines;
  return { lines: lines.finish(), failed, count };
}
