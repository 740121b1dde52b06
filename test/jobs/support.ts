// Shared by the job tests: the bench's 500-row loan table as a stored rule, its inputs as a stream of NDJSON lines
// that rotates through a prime number of distinct inputs (so a chunk out of place changes what a line must be), and
// helpers that start jobs, wait for them and read their results.
import { readFileSync } from 'node:fs';
import { toVerdictTable } from '../../bench/lib/to-verdict.ts';
import { loanInputs, loanTable } from '../../bench/cases/tables.ts';
import { call, eventually } from '../http/harness.ts';

export const LOAN_RULE_ID = 'rule-loan500';
export const LOAN_ALIAS = 'loan500';

export function loanRule(): Record<string, unknown> {
  return { ...toVerdictTable(loanTable(500), { ruleId: LOAN_RULE_ID, ruleAlias: LOAN_ALIAS }), status: 'published', version: 1 };
}

/** Distinct inputs the streams rotate through: a prime, so no chunk size is a multiple of it. */
export const ROTATION = 61;
export const LOAN_INPUTS = loanInputs(ROTATION);

/** `count` NDJSON lines, input i being LOAN_INPUTS[i % ROTATION], produced as they are read. */
export function ndjsonStream(count: number, linesPerPiece = 2000): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const texts = LOAN_INPUTS.map((input) => JSON.stringify(input));
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next >= count) {
        controller.close();
        return;
      }
      let piece = '';
      const end = Math.min(count, next + linesPerPiece);
      for (; next < end; next++) piece += `${texts[next % ROTATION]}\n`;
      controller.enqueue(encoder.encode(piece));
    },
  });
}

export interface JobReply {
  status: number;
  json: any;
}

/** Starts a job with a streamed NDJSON upload. */
export async function startNdjsonJob(url: string, key: string, path: string, body: ReadableStream<Uint8Array>): Promise<JobReply> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
    body,
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

/** Polls the job until it is in one of `states`. */
export async function jobIn(url: string, key: string, jobId: string, states: string[], timeoutMs = 240_000): Promise<any> {
  return eventually(async () => {
    const reply = await call(url, 'GET', `/job/${jobId}`, { key });
    if (reply.status !== 200) throw new Error(`GET /job/${jobId}: ${reply.status} ${reply.text}`);
    return states.includes(reply.json.state) ? reply.json : undefined;
  }, timeoutMs);
}

/** Reads a job's result as a stream, handing each line to `onLine`; returns the line count. */
export async function readResult(url: string, key: string, jobId: string, onLine: (line: string, index: number) => void): Promise<number> {
  const response = await fetch(`${url}/job/${jobId}/result`, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`result: ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  let pending = '';
  let index = 0;
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(piece, { stream: true });
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      onLine(pending.slice(start, end), index++);
      start = end + 1;
    }
    pending = pending.slice(start);
  }
  if (pending !== '') throw new Error(`result ends without a newline: ${pending.slice(0, 100)}`);
  return index;
}

/** The solver's answer to each of LOAN_INPUTS, as the JSON text a result line must be. */
export async function expectedLines(url: string, key: string): Promise<string[]> {
  const reply = await call(url, 'POST', `/rule/solve/${LOAN_ALIAS}`, { key, body: { data: LOAN_INPUTS } });
  if (reply.status !== 200) throw new Error(`bulk solve: ${reply.status} ${reply.text}`);
  return (reply.json as unknown[]).map((result) => JSON.stringify(result));
}

/** Resident memory of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

/** Samples `pid`'s resident memory every 100 ms until stopped; `peak` is the highest seen. */
export function sampleRss(pid: number): { peak: () => number; stop: () => void } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // The process has exited.
    }
  }, 100);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

/** The keys `verdict serve` prints on its first start on an empty store. */
export function bannerKeys(stdout: string): { solverKey: string; managementKey: string } {
  const solverKey = /solver key:\s+(\S+)/.exec(stdout)?.[1];
  const managementKey = /management key:\s+(\S+)/.exec(stdout)?.[1];
  if (!solverKey || !managementKey) throw new Error(`no keys in the banner:\n${stdout}`);
  return { solverKey, managementKey };
}

/** Stores the loan table through the management API. */
export async function createLoanRule(url: string, managementKey: string): Promise<void> {
  const reply = await call(url, 'POST', '/api/rule', { key: managementKey, body: loanRule() });
  if (reply.status !== 200) throw new Error(`create rule: ${reply.status} ${reply.text}`);
}

/**
 * Reads a job's whole result and checks it: one line per input, line i the solver's answer to input i (the inputs
 * rotate through LOAN_INPUTS). Returns the line count.
 */
export async function checkRotatingResult(url: string, key: string, jobId: string, expected: string[]): Promise<number> {
  let wrong: string | undefined;
  const count = await readResult(url, key, jobId, (line, i) => {
    if (wrong === undefined && line !== expected[i % ROTATION]) wrong = `line ${i}: ${line.slice(0, 200)} instead of ${expected[i % ROTATION]}`;
  });
  if (wrong !== undefined) throw new Error(wrong);
  return count;
}
