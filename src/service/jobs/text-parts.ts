// A chunk's inputs and results as the store keeps them: NDJSON cut into parts of at most PART_CHARS characters, each
// made of whole lines. A string of more than 128 KB lives in V8's large-object space, which only a full garbage
// collection frees; a job that wrote and read each chunk as one string of about a megabyte grew the heap by hundreds
// of megabytes between full collections. Parts stay in the young generation and die young.

/** Characters in a part: under 128 KB even for a two-byte string. A longer line is a part of its own. */
export const PART_CHARS = 32 * 1024;

/** Collects lines (each given without its newline) into parts; every line of a part ends in a newline. */
export class TextParts {
  readonly #parts: string[] = [];
  #current = '';
  #lines = 0;

  /** Lines added so far. */
  get lines(): number {
    return this.#lines;
  }

  add(line: string): void {
    if (this.#current.length > 0 && this.#current.length + line.length + 1 > PART_CHARS) {
      this.#parts.push(this.#current);
      this.#current = '';
    }
    this.#current += `${line}\n`;
    this.#lines++;
  }

  /** The parts, in order; the collector is empty afterwards. */
  finish(): string[] {
    if (this.#current.length > 0) this.#parts.push(this.#current);
    const parts = this.#parts.splice(0);
    this.#current = '';
    this.#lines = 0;
    return parts;
  }
}

/** The lines of parts (a line is never empty: an input or a result is a JSON text). */
export function partLines(parts: readonly string[]): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    for (const line of part.split('\n')) if (line !== '') lines.push(line);
  }
  return lines;
}
