// A job's inputs, read as they arrive and cut into chunks (the JSON text of an array of inputs), never held whole:
// a JSON array already parsed (a request body within BODY_LIMIT_BYTES), or an NDJSON or CSV upload read as a
// stream. Every input is a JSON object, as in a bulk solve; a refusal names the line (or index) that is wrong.
import { parse as parseCsv } from 'csv-parse';
import { firstNonFinite, NON_FINITE_MESSAGE } from '../../rules/non-finite.ts';
import { ServiceError } from '../errors.ts';
import { TextParts } from './text-parts.ts';

export type JobInputFormat = 'json' | 'ndjson' | 'csv';

/** A job's inputs as the start request carries them. */
export type JobInputSource =
  | { format: 'json'; inputs: unknown[] }
  | { format: 'ndjson' | 'csv'; stream: AsyncIterable<Uint8Array | string> };

export interface InputLimits {
  chunkSize: number;
  /** JOBS_MAX_INPUTS. */
  maxInputs: number;
  /** JOBS_MAX_UPLOAD_BYTES. */
  maxUploadBytes: number;
  /** One NDJSON line or CSV record at most (BODY_LIMIT_BYTES, as one solve's body). */
  maxLineBytes: number;
}

/**
 * Inputs of chunk `seq`: parts `firstPart` on (text-parts.ts), the JSON text of each input object on its own line
 * (JSON text holds no raw newline). Parts are handed over as soon as they are full, so an upload is stored as it is
 * read instead of waiting in memory for its chunk to fill; `count` is set on a chunk's last piece only.
 */
export interface InputChunk {
  seq: number;
  firstPart: number;
  inputs: string[];
  /** The chunk's inputs, on its last piece; undefined while more of the chunk is to come. */
  count: number | undefined;
  /** The same inputs as objects, when they were objects before (a JSON array body): see held-inputs.ts. */
  values?: readonly unknown[];
}

function invalid(message: string): ServiceError {
  return new ServiceError('invalid-job-input', message);
}

function tooMany(limits: InputLimits): ServiceError {
  return new ServiceError('job-too-large', `The job has more than ${limits.maxInputs} inputs (JOBS_MAX_INPUTS); split it into several jobs`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The source's inputs in chunks of `limits.chunkSize`, in input order. */
export function readInputChunks(source: JobInputSource, limits: InputLimits): AsyncIterable<InputChunk> {
  if (source.format === 'json') return arrayChunks(source.inputs, limits);
  const bytes = limitedBytes(source.stream, limits.maxUploadBytes);
  return source.format === 'ndjson' ? ndjsonChunks(bytes, limits) : csvChunks(bytes, limits);
}

async function* arrayChunks(inputs: unknown[], limits: InputLimits): AsyncIterable<InputChunk> {
  if (inputs.length > limits.maxInputs) throw tooMany(limits);
  inputs.forEach((input, index) => {
    if (!isObject(input)) throw invalid(`data[${index}] must be a JSON object (one input of the job)`);
  });
  for (let i = 0; i < inputs.length; i += limits.chunkSize) {
    const slice = inputs.slice(i, i + limits.chunkSize);
    const parts = new TextParts();
    for (const input of slice) parts.add(JSON.stringify(input));
    yield { seq: i / limits.chunkSize, firstPart: 0, inputs: parts.finish(), count: slice.length, values: slice };
  }
}

/** The upload's bytes; an upload larger than JOBS_MAX_UPLOAD_BYTES is refused as soon as it gets there. */
async function* limitedBytes(stream: AsyncIterable<Uint8Array | string>, maxBytes: number): AsyncIterable<Uint8Array | string> {
  let total = 0;
  for await (const piece of stream) {
    total += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength;
    if (total > maxBytes) {
      throw new ServiceError('job-too-large', `The upload exceeds ${maxBytes} bytes (JOBS_MAX_UPLOAD_BYTES); split it into several jobs`);
    }
    yield piece;
  }
}

/** Collects input texts into chunks. */
class Chunker {
  readonly #parts = new TextParts();
  #total = 0;
  #seq = 0;
  /** Parts of the current chunk handed over already. */
  #handed = 0;
  readonly #limits: InputLimits;
  constructor(limits: InputLimits) {
    this.#limits = limits;
  }
  /** Adds one input (its JSON text); returns the parts it completed, or the chunk's last piece when it is full. */
  add(text: string): InputChunk | undefined {
    if (++this.#total > this.#limits.maxInputs) throw tooMany(this.#limits);
    this.#parts.add(text);
    if (this.#parts.lines >= this.#limits.chunkSize) return this.flush();
    const closed = this.#parts.takeClosed();
    if (closed.length === 0) return undefined;
    const piece = { seq: this.#seq, firstPart: this.#handed, inputs: closed, count: undefined };
    this.#handed += closed.length;
    return piece;
  }
  /** The current chunk's last piece. */
  flush(): InputChunk | undefined {
    const count = this.#parts.lines;
    if (count === 0) return undefined;
    const piece = { seq: this.#seq++, firstPart: this.#handed, inputs: this.#parts.finish(), count };
    this.#handed = 0;
    return piece;
  }
}

/** One NDJSON line checked: a JSON object with finite numbers. Returns its text, kept as sent. */
function checkedLine(text: string, line: number): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalid(`NDJSON line ${line} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isObject(value)) throw invalid(`NDJSON line ${line} must be a JSON object (one input of the job)`);
  const overflow = firstNonFinite(text, value, `line ${line}`);
  if (overflow !== undefined) throw invalid(`NDJSON ${overflow} ${NON_FINITE_MESSAGE}`);
  return text;
}

async function* ndjsonChunks(bytes: AsyncIterable<Uint8Array | string>, limits: InputLimits): AsyncIterable<InputChunk> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const chunker = new Chunker(limits);
  let pending = '';
  let line = 0;
  const take = (text: string): InputChunk | undefined => {
    line++;
    const trimmed = text.trim();
    return trimmed === '' ? undefined : chunker.add(checkedLine(trimmed, line));
  };
  for await (const piece of bytes) {
    let text: string;
    try {
      text = typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true });
    } catch {
      throw invalid(`NDJSON line ${line + 1} is not valid UTF-8`);
    }
    pending += text;
    let start = 0;
    for (let end = pending.indexOf('\n', start); end !== -1; end = pending.indexOf('\n', start)) {
      const full = take(pending.slice(start, end));
      start = end + 1;
      if (full) yield full;
    }
    pending = pending.slice(start);
    if (pending.length > limits.maxLineBytes) throw invalid(`NDJSON line ${line + 1} is longer than ${limits.maxLineBytes} bytes (BODY_LIMIT_BYTES)`);
  }
  try {
    pending += decoder.decode();
  } catch {
    throw invalid(`NDJSON line ${line + 1} is not valid UTF-8`);
  }
  const last = take(pending);
  if (last) yield last;
  const rest = chunker.flush();
  if (rest) yield rest;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** An unquoted cell: a number, true or false as JSON reads them, else the text; a quoted cell is always text. */
function cellValue(value: string, quoted: boolean): unknown {
  if (quoted) return value;
  if (NUMBER.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

/** Header `order.total` puts the cell at input.order.total. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = node[key];
    if (isObject(next)) node = next;
    else {
      const created: Record<string, unknown> = {};
      node[key] = created;
      node = created;
    }
  }
  node[path[path.length - 1]!] = value;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

async function* csvChunks(bytes: AsyncIterable<Uint8Array | string>, limits: InputLimits): AsyncIterable<InputChunk> {
  const parser = parseCsv({
    bom: true,
    skip_empty_lines: true,
    max_record_size: limits.maxLineBytes,
    info: true,
    cast: (value, context) => ({ value, quoted: context.quoting }),
  });
  // Feeds the parser from the upload, honouring its back-pressure; an upload error ends the parse with it.
  const feeding = (async () => {
    try {
      for await (const piece of bytes) {
        if (parser.destroyed) return;
        if (!parser.write(piece)) {
          await new Promise<void>((resolve) => {
            parser.once('drain', resolve);
            parser.once('close', resolve);
          });
        }
      }
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  const chunker = new Chunker(limits);
  let header: string[][] | undefined;
  try {
    for await (const record of parser as AsyncIterable<{ record: Array<{ value: string; quoted: boolean }>; info: { lines: number } }>) {
      const cells = record.record;
      const line = record.info.lines;
      if (header === undefined) {
        header = cells.map((cell, column) => {
          const path = cell.value.trim().split('.');
          if (cell.value.trim() === '' || path.some((part) => part === '' || FORBIDDEN_KEYS.has(part))) {
            throw invalid(`CSV header column ${column + 1} "${cell.value}" is not a field path (names separated by dots)`);
          }
          return path;
        });
        continue;
      }
      if (cells.length !== header.length) throw invalid(`CSV line ${line} has ${cells.length} cells; the header has ${header.length}`);
      const input: Record<string, unknown> = {};
      cells.forEach((cell, column) => {
        if (cell.value === '' && !cell.quoted) return;
        setPath(input, header![column]!, cellValue(cell.value, cell.quoted));
      });
      const full = chunker.add(JSON.stringify(input));
      if (full) yield full;
    }
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    const csv = err as { code?: string; lines?: number; message?: string };
    if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) throw invalid(`CSV line ${csv.lines ?? '?'}: ${csv.message ?? 'cannot be read'}`);
    throw err;
  } finally {
    parser.destroy();
    await feeding;
  }
  const rest = chunker.flush();
  if (rest) yield rest;
}
