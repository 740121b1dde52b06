// Output casting of expression results (spec/rule-format.md §2.10, §11 C7): a string result that is a plain
// decimal literal or true/false becomes a number/boolean (`CONCAT(1,2)` -> 12), unless RAW_VALUE produced it.
// Expression results are never JSON-parsed; that is the simple-value cast, kept here for tables and lookups.

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function castExpressionOutput(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (DECIMAL.test(value)) {
      const n = Number(value);
      if (Number.isFinite(n)) return n;
    }
    return value;
  }
  if (value === undefined) return null;
  if (value instanceof RegExp) return String(value);
  return value;
}

/** A RAW_VALUE result: no casting, but values JSON cannot carry still become JSON. */
export function rawOutput(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof RegExp) return String(value);
  return value;
}

/**
 * The simple-value cast of §2.10 ("common" cells, lookup cells §11 L3): JSON.parse the text when it parses,
 * otherwise keep the text. `"true"` (with quotes) becomes the string true (§11 C8).
 */
export function castSimpleValueText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return text;
  const first = trimmed[0]!;
  // only texts that can be JSON are tried, so ordinary words never pay for an exception
  if (!(first === '{' || first === '[' || first === '"' || first === '-' || (first >= '0' && first <= '9') || trimmed === 'true' || trimmed === 'false' || trimmed === 'null')) {
    return text;
  }
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}
