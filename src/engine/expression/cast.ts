// Output casting of expression results (spec/rule-format.md §2.10, §11 C7): a string result that is a plain
// decimal literal or true/false becomes a number/boolean (`CONCAT(1,2)` -> 12), unless RAW_VALUE produced it.
// Expression results are never JSON-parsed; that is the simple-value cast, kept here for tables and lookups.

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function castExpressionOutput(value: unknown): unknown {
  // Numbers and booleans (most computed results) are returned as they are, before the other tests.
  const type = typeof value;
  if (type === 'number' || type === 'boolean') return value;
  if (typeof value === 'string') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (mayStartDecimal(value.charCodeAt(0)) && DECIMAL.test(value)) {
      const n = Number(value);
      if (Number.isFinite(n)) return n;
    }
    return value;
  }
  if (value === undefined) return null;
  if (value instanceof RegExp) return String(value);
  return value;
}

/** A digit, sign or point: anything else cannot start DECIMAL (most text results are words). */
function mayStartDecimal(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2d || code === 0x2e;
}

/** A RAW_VALUE result: no casting, but values JSON cannot carry still become JSON. */
export function rawOutput(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof RegExp) return String(value);
  return value;
}

/**
 * The simple-value cast of §2.10 ("common" cells of tables and trees, lookup cells §11 L3): text that is valid
 * JSON becomes that value (`25.0` -> 25, `true` -> true, `{"a":1}` -> object, `"true"` -> the string true, §11 C8);
 * any other text stays a string; empty text stays "". Exactly JSON.parse's answer, but only text that can be
 * JSON is parsed, so ordinary words (even `no` or `false alarm`) never pay for a thrown parse error.
 */
export function castSimpleValueText(text: string): unknown {
  let start = 0;
  while (start < text.length && isJsonSpace(text.charCodeAt(start))) start++;
  if (start === text.length) return text;
  const first = text.charCodeAt(start);
  if (first === 0x74 /* t */ || first === 0x66 /* f */ || first === 0x6e /* n */) {
    const keyword = keywordAt(text, start);
    return keyword === undefined ? text : keyword;
  }
  if (first === 0x7b /* { */ || first === 0x5b /* [ */ || first === 0x22 /* " */ || first === 0x2d /* - */ || (first >= 0x30 && first <= 0x39)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** JSON's own whitespace (not Unicode spaces, which JSON.parse rejects). */
function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

const KEYWORDS: readonly (readonly [string, boolean | null])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** `true`, `false` or `null` when that word alone (with JSON whitespace around) starts at `start`. */
function keywordAt(text: string, start: number): boolean | null | undefined {
  for (const [word, value] of KEYWORDS) {
    if (!text.startsWith(word, start)) continue;
    for (let i = start + word.length; i < text.length; i++) if (!isJsonSpace(text.charCodeAt(i))) return undefined;
    return value;
  }
  return undefined;
}
