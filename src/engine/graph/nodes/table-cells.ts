// The common unary cells of decision tables (`'GB'`, `'GB', 'US'`, `10`, `< 100`, `[1..5]`) as plain predicates
// on the column's value `$`: what zen's unary tests answer for them, without running an expression. Their
// literals feed the column index (./table-index.ts). Any other cell runs as the ZEN unary test it is.

export type Literal = string | number | boolean;

export interface FastCell {
  test(value: unknown): boolean;
  /** For a cell that is `$ == one of these`: the literals (the column index looks rows up by them). */
  literals?: readonly Literal[];
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;
const QUOTED = /^(?:'[^'\\]*'|"[^"\\]*")$/;
const COMPARISON = /^(<=|>=|<|>)\s*(-?\d+(?:\.\d+)?)$/;
const RANGE = /^([[(])\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*([\])])$/;

function literal(text: string): Literal | undefined {
  if (NUMBER.test(text)) return Number(text);
  if (QUOTED.test(text)) return text.slice(1, -1);
  if (text === 'true') return true;
  if (text === 'false') return false;
  return undefined;
}

/** Splits on commas outside quotes; undefined when a quote is left open. */
function splitList(text: string): string[] | undefined {
  const parts: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ',') {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (quote) return undefined;
  parts.push(text.slice(start).trim());
  return parts;
}

/** The cell as a predicate, or undefined when it is not one of the common forms. */
export function fastUnaryCell(cell: string): FastCell | undefined {
  const parts = splitList(cell);
  if (parts && parts.every((p) => literal(p) !== undefined)) {
    const literals = parts.map((p) => literal(p)!);
    if (literals.length === 1) {
      const only = literals[0];
      return { test: (v) => v === only, literals };
    }
    return { test: (v) => literals.includes(v as Literal), literals };
  }
  const comparison = COMPARISON.exec(cell);
  if (comparison) {
    const n = Number(comparison[2]);
    switch (comparison[1]) {
      case '<':
        return { test: (v) => typeof v === 'number' && v < n };
      case '<=':
        return { test: (v) => typeof v === 'number' && v <= n };
      case '>':
        return { test: (v) => typeof v === 'number' && v > n };
      default:
        return { test: (v) => typeof v === 'number' && v >= n };
    }
  }
  const range = RANGE.exec(cell);
  if (range) {
    const [low, high] = [Number(range[2]), Number(range[3])];
    const [lowClosed, highClosed] = [range[1] === '[', range[4] === ']'];
    return { test: (v) => typeof v === 'number' && (lowClosed ? v >= low : v > low) && (highClosed ? v <= high : v < high) };
  }
  return undefined;
}
