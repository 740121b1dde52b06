// A chunk's inputs and results as the store keeps them: NDJSON cut into parts of at most PART_CHARS characters, each
// made of whole lines. A string of more than 128 KB lives in V8's large-object space, which only a full garbage
// collection frees; a job that wrote and read each chunk as one string of about a megabyte grew the heap by hundreds
// of megabytes between full collections. Parts stay in the young generation and die young.

/** Characters in a part: under 128 KB even for a two-byte string. A longer line is a part of its own. */
export const PART_CHARS = 32 * 1024;

/**
 * Collects lines (each given without its newline) into parts; every line of a part ends in a newline. A part is
 * joined once when it is full, a flat string: appending line by line would keep a rope of every line until the
 * driver flattens it, possibly after the rope has moved to the old generation.
 */
export class TextParts {
  readonly #parts: string[] = [];
  #pending: string[] = [];
  #chars = 0;
  #lines = 0;

  /** Lines added so far. */
  get lines(): number {
    return this.#lines;
  }

  add(line: string): void {
    if (this.#chars > 0 && this.#chars + line.length + 1 > PART_CHARS) this.#close();
    this.#pending.push(line);
    this.#chars += line.length + 1;
    this.#lines++;
  }

  #close(): void {
    // A last empty line makes join end the part with a newline.
    this.#pending.push('');
    this.#parts.push(this.#pending.join('\n'));
    this.#pending = [];
    this.#chars = 0;
  }

  /** The parts completed so far, handed over (the line being collected stays). */
  takeClosed(): string[] {
    return this.#parts.splice(0);
  }

  /** The parts, in order; the collector is empty afterwards. */
  finish(): string[] {
    if (this.#chars > 0) this.#close();
    const parts = this.#parts.splice(0);
    this.#lines = 0;
    return parts;
  }
}

/** The lines of one part (a line is never empty: an input or a result is a JSON text). */
export function linesOf(part: string): string[] {
  return part.split('\n').filter((line) => line !== '');
}
