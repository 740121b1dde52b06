// `verdict job start RULE FILE`, `verdict job status|cancel|result JOB`: batch jobs on a running server, over its
// HTTP job routes (docs/jobs.md). The job lives in the server's store and is worked by every instance, so the CLI
// talks to a server rather than to the store: --url (VERDICT_URL) and a solver key, --key (VERDICT_SOLVER_KEY).
// FILE is streamed to the server (.ndjson/.jsonl as NDJSON, .csv as CSV, anything else as a JSON array).
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { InputError, UsageError } from '../errors.ts';

interface RemoteOptions {
  url?: string;
  key?: string;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

function remote(options: RemoteOptions): { url: string; key: string } {
  const url = (options.url ?? process.env.VERDICT_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  const key = options.key ?? process.env.VERDICT_SOLVER_KEY;
  if (key === undefined || key.trim() === '') throw new UsageError('a solver key is needed: --key KEY or VERDICT_SOLVER_KEY');
  try {
    new URL(url);
  } catch {
    throw new UsageError(`--url "${url}" is not a URL (e.g. ${DEFAULT_URL})`);
  }
  return { url, key };
}

function contentType(file: string): string {
  const ext = extname(file).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl') return 'application/x-ndjson';
  if (ext === '.csv') return 'text/csv';
  return 'application/json';
}

/** Calls the server; a refusal becomes the server's own message, an unreachable server says where it looked. */
async function request(url: string, key: string, method: string, path: string, init: { body?: ReadableStream<Uint8Array>; type?: string } = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(init.type === undefined ? {} : { 'content-type': init.type }) },
      body: init.body,
      ...(init.body === undefined ? {} : { duplex: 'half' }),
    } as RequestInit);
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err instanceof Error ? err.message : String(err));
    throw new InputError(`cannot reach the server at ${url}: ${cause} (--url or VERDICT_URL)`);
  }
  if (!response.ok) {
    const text = await response.text();
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
    } catch {
      // Not the error shape: the text as is.
    }
    throw new InputError(`${method} ${path}: ${response.status} ${message}`);
  }
  return response;
}

function printJob(job: unknown): void {
  process.stdout.write(`${JSON.stringify(job, null, 2)}\n`);
}

function withRemote(command: Command): Command {
  return command
    .option('--url <url>', `the server (VERDICT_URL, default ${DEFAULT_URL})`)
    .option('--key <key>', 'a solver key of the space (VERDICT_SOLVER_KEY)');
}

export function register(program: Command): void {
  const job = program.command('job').description('batch jobs on a running server (docs/jobs.md)');

  withRemote(job.command('start'))
    .description('start a job: solve every input of FILE (NDJSON, CSV or a JSON array) with RULE; prints the job')
    .argument('<rule>', 'rule id or alias')
    .argument('<file>', 'inputs: .ndjson/.jsonl (one object per line), .csv (header row of field paths), or a JSON array')
    .option('--version <n>', 'rule version (default: the latest published)')
    .action(async (rule: string, file: string, options: RemoteOptions & { version?: string }) => {
      const { url, key } = remote(options);
      if (options.version !== undefined && !/^\d+$/.test(options.version)) throw new UsageError(`--version "${options.version}" is not a version number`);
      try {
        if (!statSync(file).isFile()) throw new InputError(`${file} is not a file`);
      } catch (err) {
        if (err instanceof InputError) throw err;
        throw new InputError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
      const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
      const path = `/job/start/${encodeURIComponent(rule)}${options.version === undefined ? '' : `/${options.version}`}`;
      const response = await request(url, key, 'POST', path, { body, type: contentType(file) });
      printJob(await response.json());
    });

  withRemote(job.command('status'))
    .description('print a job: state, processed and total, rate, times')
    .argument('<job>', 'the job id')
    .action(async (jobId: string, options: RemoteOptions) => {
      const { url, key } = remote(options);
      printJob(await (await request(url, key, 'GET', `/job/${encodeURIComponent(jobId)}`)).json());
    });

  withRemote(job.command('cancel'))
    .description('cancel a Waiting or Running job')
    .argument('<job>', 'the job id')
    .action(async (jobId: string, options: RemoteOptions) => {
      const { url, key } = remote(options);
      printJob(await (await request(url, key, 'POST', `/job/cancel/${encodeURIComponent(jobId)}`)).json());
    });

  withRemote(job.command('result'))
    .description("write a completed job's results as NDJSON (one line per input, in input order)")
    .argument('<job>', 'the job id')
    .option('--out <file>', 'write to FILE instead of standard output')
    .action(async (jobId: string, options: RemoteOptions & { out?: string }) => {
      const { url, key } = remote(options);
      const response = await request(url, key, 'GET', `/job/${encodeURIComponent(jobId)}/result`);
      const source = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
      if (options.out === undefined) await pipeline(source, process.stdout, { end: false });
      else await pipeline(source, createWriteStream(options.out));
    });
}
