// Cell values to and from rule values. A spreadsheet cell holds text, a number or a boolean; rule values are also
// lists (IN, between) and JSON (models, tags, time validation). Each value is written in the form a person reads
// best (`a|b|c` for a list) unless that form would read back as something else: then as JSON, which always does.
import { isDeepStrictEqual } from 'node:util';

/** What a cell holds after reading: formulas, rich text and links are reduced to this before any decoding. */
export type CellScalar = string | number | boolean | null;

/** A list operand: a JSON array when the text is one, else the members between `|`. */
export function decodeList(cell: CellScalar): unknown {
  if (cell === null) return [];
  if (typeof cell !== 'string') return [String(cell)];
  const text = cell.trim();
  if (text.startsWith('[') || text.startsWith('"')) {
    const parsed = parseJson(text);
    if (parsed.ok && (Array.isArray(parsed.value) || typeof parsed.value === 'string')) return parsed.value;
  }
  if (text === '') return [];
  return text.split('|').map((member) => member.trim());
}

/** A list operand as `a|b|c` when that reads back the same, else as JSON. */
export function encodeList(value: unknown): CellScalar {
  if (Array.isArray(value) && value.every((m) => typeof m === 'string')) {
    const joined = value.join('|');
    if (isDeepStrictEqual(decodeList(joined), value)) return joined;
  }
  return JSON.stringify(value) ?? null;
}

/** A scalar operand or simple value: the cell as typed; an empty cell is "". */
export function decodeScalar(cell: CellScalar): unknown {
  return cell ?? '';
}

/** A scalar as the cell type that reads back the same; objects (legacy date values) as JSON. */
export function encodeScalar(value: unknown): CellScalar {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value === '' ? null : value;
  return JSON.stringify(value);
}

/** A scalar that was written as JSON (an object in a date cell): read back as that object. */
export function decodeScalarOrObject(cell: CellScalar): unknown {
  if (typeof cell === 'string' && cell.trim().startsWith('{')) {
    const parsed = parseJson(cell);
    if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) return parsed.value;
  }
  return decodeScalar(cell);
}

/** A rule variable's value: strings, numbers and booleans as typed; objects and arrays as JSON text. */
export function encodeVariable(value: unknown): CellScalar {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined) return null;
  return JSON.stringify(value);
}

export function decodeVariable(cell: CellScalar): unknown {
  if (typeof cell === 'string') {
    const text = cell.trim();
    if (text.startsWith('{') || text.startsWith('[') || text === 'null') {
      const parsed = parseJson(text);
      if (parsed.ok) return parsed.value;
    }
  }
  return cell ?? '';
}

export type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

/** Text of a cell for labels and expressions: numbers and booleans as written, an empty cell as "". */
export function cellText(cell: CellScalar): string {
  return cell === null ? '' : String(cell);
}
