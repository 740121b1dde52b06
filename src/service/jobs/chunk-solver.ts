// One chunk of a job solved through the solve use case, so each line is what POST /rule/solve answers for that
// input: its result array, or its error in the solver's shape ({"error": {"message": ...}}). The chunk is solved
// as one bulk; only when the bulk fails (one input failed) are its inputs solved one by one, each to its answer.
import type { Json } from '../../engine/types.ts';
import { classify } from '../errors.ts';
import type { Principal } from '../keys.ts';
import type { SolveChannel, SolveRequest, SolveService } from '../solve.ts';
import type { JobRecord } from '../../store/ports.ts';

/** Job solves in the metrics and audit records: 0 for an answer, 1 for an error, like a process exit code. */
export const JOB_CHANNEL: SolveChannel = { name: 'job', codeOf: (failure) => (failure === undefined ? 0 : 1) };

export interface SolvedChunk {
  /** NDJSON, one line per input, each ending in a newline. */
  lines: string;
  /** Inputs answered with an error. */
  failed: number;
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

/** Solves the chunk's inputs (the JSON text of an array). Throws only for a fault of ours. */
export async function solveChunk(solver: SolveService, job: JobRecord, seq: number, inputsText: string): Promise<SolvedChunk> {
  const inputs = JSON.parse(inputsText) as unknown[];
  const principal = jobPrincipal(job);
  try {
    const solved = await solver.solveNow(principal, request(job, seq, inputs));
    let lines = '';
    for (const result of solved.body as Json[][]) lines += `${JSON.stringify(result)}\n`;
    return { lines, failed: 0 };
  } catch (err) {
    if (classify(err) === undefined) throw err;
  }
  let lines = '';
  let failed = 0;
  for (const input of inputs) {
    try {
      const solved = await solver.solveNow(principal, request(job, seq, input));
      lines += `${JSON.stringify(solved.body)}\n`;
    } catch (err) {
      const failure = classify(err);
      if (failure === undefined) throw err;
      failed++;
      lines += `${JSON.stringify({ error: { message: failure.message } })}\n`;
    }
  }
  return { lines, failed };
}
