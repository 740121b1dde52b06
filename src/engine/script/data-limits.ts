// Bounds on the data that crosses the script sandbox's boundary. A script's input and output travel as JSON text;
// deep nesting breaks every recursive consumer after it (JSON.stringify, audit, response serialisation) and a
// huge output ties up memory on its way to the client, so both are refused at the boundary with a clear error.
import { LimitError } from '../errors.ts';

export interface ScriptDataLimits {
  /** Characters of JSON text, input and output each. */
  maxChars: number;
  /** Nesting of arrays and objects. */
  maxDepth: number;
}

export const DEFAULT_SCRIPT_DATA_LIMITS: Readonly<ScriptDataLimits> = Object.freeze({ maxChars: 5 * 1024 * 1024, maxDepth: 100 });

/** The script's input as JSON text, or a LimitError naming the bound it breaks. */
export function inputText(input: unknown, limits: ScriptDataLimits): string {
  let text: string;
  try {
    text = JSON.stringify(input === undefined ? null : input);
  } catch (error) {
    // JSON.stringify recurses: data nested thousands of levels deep overflows the stack before any check could run.
    if (error instanceof RangeError) throw new LimitError(`the script's input nests deeper than ${limits.maxDepth} levels`);
    throw error;
  }
  checkText(text, limits, 'input');
  return text;
}

/** Throws a LimitError when the JSON text of the script's input or output is too large or too deep. */
export function checkText(text: string, limits: ScriptDataLimits, what: 'input' | 'output'): void {
  if (text.length > limits.maxChars) {
    throw new LimitError(`the script's ${what} is ${text.length} characters of JSON, over the limit of ${limits.maxChars}`);
  }
  if (nestsDeeperThan(text, limits.maxDepth)) {
    throw new LimitError(`the script's ${what} nests deeper than ${limits.maxDepth} levels`);
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** True when valid JSON text nests arrays and objects deeper than `limit`. One linear pass, no recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
