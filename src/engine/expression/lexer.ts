// Character-level scanning for the expression parser. The language is context-sensitive (bare words may hold
// spaces and colons, `{` opens a variable or an object, TEXT(...) captures raw text), so the parser pulls
// tokens on demand with the context it is in instead of tokenising the whole text up front.

/** A syntax error with the offset it was found at; the parser turns it into a ValidationError. */
export class SyntaxProblem {
  readonly reason: string;
  readonly offset: number;
  constructor(reason: string, offset: number) {
    this.reason = reason;
    this.offset = offset;
  }
}

/** Characters that always end a bare word (spec §4.1: `* / + - ( ) , % { }`, plus JSON array brackets). */
const DELIMITERS = new Set(['*', '/', '+', '-', '(', ')', ',', '%', '{', '}', '[', ']']);

const NUMBER = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?/y;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `{...}` contents that make a variable reference rather than an object literal (§4.3). */
const VARIABLE_PATH =
  /^\s*(?:[\p{L}\p{N}_$-]+(?: +[\p{L}\p{N}_$-]+)*|\[\d+\])(?:\s*(?:\.\s*[\p{L}\p{N}_$-]+(?: +[\p{L}\p{N}_$-]+)*|\[\d+\]))*\s*$/u;

export function isWhitespace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0';
}

export function isFunctionName(word: string): boolean {
  return NAME.test(word);
}

export function isVariablePath(text: string): boolean {
  return VARIABLE_PATH.test(text);
}

/** Normalises the inside of `{ ... }` to the path string used for lookups (`{ a . b }` -> `a.b`). */
export function normaliseVariablePath(text: string): string {
  return text.trim().replace(/\s*\.\s*/g, '.').replace(/\s*\[/g, '[');
}

export function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

export class Scanner {
  readonly source: string;
  pos = 0;

  constructor(source: string) {
    this.source = source;
  }

  get atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  peek(): string | undefined {
    return this.source[this.pos];
  }

  skipWhitespace(): void {
    while (this.pos < this.source.length && isWhitespace(this.source[this.pos])) this.pos++;
  }

  /** The next non-whitespace character, without consuming anything. */
  peekSignificant(): string | undefined {
    let i = this.pos;
    while (i < this.source.length && isWhitespace(this.source[i])) i++;
    return this.source[i];
  }

  fail(reason: string, offset = this.pos): never {
    throw new SyntaxProblem(reason, offset);
  }

  /** Describes the character at `pos` for an error message. */
  describeHere(): string {
    const c = this.peek();
    if (c === undefined) return 'end of expression';
    return `'${c}'`;
  }

  expect(char: string, what: string): void {
    this.skipWhitespace();
    if (this.peek() !== char) this.fail(`expected ${what} but found ${this.describeHere()}`);
    this.pos++;
  }

  /**
   * A quoted string. Only `\"`, `\'` and `\\` are escapes (§4.1); any other backslash is kept, so regular
   * expressions such as `"^\d{5}$"` survive unchanged.
   */
  readQuoted(): string {
    const quote = this.source[this.pos]!;
    const start = this.pos;
    this.pos++;
    let out = '';
    let chunkStart = this.pos;
    while (this.pos < this.source.length) {
      const c = this.source[this.pos];
      if (c === '\\') {
        const next = this.source[this.pos + 1];
        if (next === '"' || next === "'" || next === '\\') {
          out += this.source.slice(chunkStart, this.pos) + next;
          this.pos += 2;
          chunkStart = this.pos;
          continue;
        }
        this.pos++;
        continue;
      }
      if (c === quote) {
        out += this.source.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      this.pos++;
    }
    return this.fail('unterminated string', start);
  }

  /** A number literal when one starts here and is not the beginning of a bare word (`4 apples`, `2nd`). */
  readNumber(colonEndsWords: boolean): number | undefined {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.source);
    if (!match) return undefined;
    let after = this.pos + match[0].length;
    while (after < this.source.length && isWhitespace(this.source[after])) after++;
    const next = this.source[after];
    const endsHere =
      next === undefined || DELIMITERS.has(next) || next === '"' || next === "'" || (colonEndsWords && next === ':');
    if (!endsHere) return undefined;
    this.pos += match[0].length;
    return Number(match[0]);
  }

  /**
   * A bare word (§4.1): text up to the next delimiter, inner spaces kept, trailing spaces dropped. A quote
   * inside a word (`It's`) belongs to the word; a quote after a space starts a string.
   */
  readWord(colonEndsWords: boolean): string {
    const start = this.pos;
    let i = this.pos;
    while (i < this.source.length) {
      const c = this.source[i]!;
      if (DELIMITERS.has(c)) break;
      if (colonEndsWords && c === ':') break;
      if ((c === '"' || c === "'") && (i === start || isWhitespace(this.source[i - 1]))) break;
      i++;
    }
    let end = i;
    while (end > start && isWhitespace(this.source[end - 1])) end--;
    this.pos = end;
    return this.source.slice(start, end);
  }

  /**
   * The offset of the bracket closing the one at `pos` (`{`/`}` or `(`/`)`), skipping quoted strings.
   * -1 when there is none.
   */
  findClosing(open: string, close: string, from = this.pos): number {
    let depth = 0;
    let i = from;
    while (i < this.source.length) {
      const c = this.source[i];
      if (c === '"' || c === "'") {
        const endQuote = this.skipQuotedFrom(i);
        if (endQuote < 0) return -1;
        i = endQuote + 1;
        continue;
      }
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) return i;
      }
      i++;
    }
    return -1;
  }

  /** Closing paren ignoring quotes entirely: the fallback for raw TEXT(...) arguments such as `TEXT(It's)`. */
  findClosingIgnoringQuotes(open: string, close: string, from: number): number {
    let depth = 0;
    for (let i = from; i < this.source.length; i++) {
      const c = this.source[i];
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) return i;
      }
    }
    return -1;
  }

  private skipQuotedFrom(start: number): number {
    const quote = this.source[start];
    for (let i = start + 1; i < this.source.length; i++) {
      const c = this.source[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === quote) return i;
    }
    return -1;
  }
}
