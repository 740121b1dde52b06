// Tokens of GoRules ZEN's expression language (zen core/expression/src/lexer). Template strings are kept whole
// (their `${...}` parts are parsed by the parser), so the lexer never needs to know where an expression ends.
import { ZenSyntaxError } from './errors.ts';

export type TokenKind = 'number' | 'string' | 'template' | 'identifier' | 'operator' | 'bracket' | 'end';

export interface Token {
  kind: TokenKind;
  /** The operator, bracket or identifier text; the decoded string; the raw template body; the number's text. */
  value: string;
  /** Offset of the token's first character in the source. */
  at: number;
}

/** Words that are operators, not identifiers. `not in` is joined by the parser. */
const WORD_OPERATORS = new Set(['and', 'or', 'not', 'in']);

/** Multi-character operators, longest first so that `??` wins over `?`. */
const OPERATORS = ['==', '!=', '<=', '>=', '??', '?.', '..', '<', '>', '+', '-', '*', '/', '%', '^', '!', '?', ':', '.', ',', ';', '='];

const BRACKETS = '()[]{}';

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isIdentifierStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$' || c === '#';
}

function isIdentifierPart(c: string): boolean {
  return isIdentifierStart(c) || isDigit(c);
}

/** Reads a quoted string starting at `start` (the quote); a backslash escapes the quote and itself, other pairs stay. */
function readQuoted(source: string, start: number): [string, number] {
  const quote = source[start];
  let text = '';
  let i = start + 1;
  while (i < source.length) {
    const c = source[i];
    if (c === quote) return [text, i + 1];
    if (c === '\\' && i + 1 < source.length) {
      const next = source[i + 1];
      text += next === quote || next === '\\' ? next : c + next;
      i += 2;
      continue;
    }
    text += c;
    i++;
  }
  throw new ZenSyntaxError(`unterminated string starting at ${start}`, start);
}

/** Reads a template string's raw body: nested `${...}` may hold quotes and backticks of their own. */
function readTemplate(source: string, start: number): [string, number] {
  let i = start + 1;
  let depth = 0;
  while (i < source.length) {
    const c = source[i];
    if (depth === 0 && c === '`') return [source.slice(start + 1, i), i + 1];
    if (c === '$' && source[i + 1] === '{') {
      depth++;
      i += 2;
      continue;
    }
    if (depth > 0 && c === '}') depth--;
    else if (depth > 0 && (c === "'" || c === '"')) {
      i = readQuoted(source, i)[1];
      continue;
    } else if (depth > 0 && c === '`') {
      i = readTemplate(source, i)[1];
      continue;
    }
    i++;
  }
  throw new ZenSyntaxError(`unterminated template string starting at ${start}`, start);
}

function readNumber(source: string, start: number): [string, number] {
  let i = start;
  while (i < source.length && (isDigit(source[i]) || source[i] === '_')) i++;
  // A dot followed by a digit is a fraction; `1..5` is a range.
  if (source[i] === '.' && isDigit(source[i + 1] ?? '')) {
    i++;
    while (i < source.length && (isDigit(source[i]) || source[i] === '_')) i++;
  }
  if (source[i] === 'e' || source[i] === 'E') {
    let j = i + 1;
    if (source[j] === '+' || source[j] === '-') j++;
    if (isDigit(source[j] ?? '')) {
      while (j < source.length && isDigit(source[j])) j++;
      i = j;
    }
  }
  return [source.slice(start, i).replaceAll('_', ''), i];
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (isDigit(c)) {
      const [text, end] = readNumber(source, i);
      tokens.push({ kind: 'number', value: text, at: i });
      i = end;
      continue;
    }
    if (c === "'" || c === '"') {
      const [text, end] = readQuoted(source, i);
      tokens.push({ kind: 'string', value: text, at: i });
      i = end;
      continue;
    }
    if (c === '`') {
      const [body, end] = readTemplate(source, i);
      tokens.push({ kind: 'template', value: body, at: i });
      i = end;
      continue;
    }
    if (isIdentifierStart(c)) {
      let end = i + 1;
      // `#` is the closure's pointer on its own; `$` and `$root` are identifiers.
      if (c !== '#') while (end < source.length && isIdentifierPart(source[end]) && source[end] !== '#') end++;
      const word = source.slice(i, end);
      tokens.push({ kind: WORD_OPERATORS.has(word) ? 'operator' : 'identifier', value: word, at: i });
      i = end;
      continue;
    }
    if (BRACKETS.includes(c)) {
      tokens.push({ kind: 'bracket', value: c, at: i });
      i++;
      continue;
    }
    const operator = OPERATORS.find((op) => source.startsWith(op, i));
    if (!operator) throw new ZenSyntaxError(`unexpected character '${c}' at ${i}`, i);
    tokens.push({ kind: 'operator', value: operator, at: i });
    i += operator.length;
  }
  tokens.push({ kind: 'end', value: '', at: source.length });
  return tokens;
}
