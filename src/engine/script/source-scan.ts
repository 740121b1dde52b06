// A light lexical scan of rule scripts: which characters are code (not comments, strings or regex literals), and
// where `DR.solve(` is called with which argument texts. Enough to find literal rule references at compile time
// and to add the `await` that DecisionRules adds to top-level DR.solve calls; not a JavaScript parser.

/** `mask[i]` is true when character i of `source` is code. */
export function codeMask(source: string): boolean[] {
  const mask = new Array<boolean>(source.length).fill(false);
  // Brace depths at which an enclosing template literal resumes (`${ … }` nesting).
  const templateStack: number[] = [];
  let braceDepth = 0;
  let lastSignificant = '';
  let i = 0;
  const n = source.length;
  const readString = (quote: string): void => {
    i++;
    while (i < n && source[i] !== quote && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
    i++;
  };
  // Returns true when the template ended, false when a `${` opened an expression.
  const readTemplate = (): boolean => {
    while (i < n) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        return true;
      } else if (c === '$' && source[i + 1] === '{') {
        i += 2;
        templateStack.push(braceDepth);
        braceDepth++;
        return false;
      } else i++;
    }
    return true;
  };
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      readString(c);
      lastSignificant = 'a';
    } else if (c === '`') {
      i++;
      readTemplate();
      lastSignificant = 'a';
    } else if (c === '/' && startsRegex(lastSignificant, source, i)) {
      i++;
      let inClass = false;
      while (i < n && source[i] !== '\n' && (inClass || source[i] !== '/')) {
        if (source[i] === '\\') i++;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (i < n && /[a-z]/i.test(source[i]!)) i++;
      lastSignificant = 'a';
    } else if (c === '}' && templateStack.length > 0 && templateStack[templateStack.length - 1] === braceDepth - 1) {
      templateStack.pop();
      braceDepth--;
      i++;
      readTemplate();
      lastSignificant = 'a';
    } else {
      mask[i] = true;
      if (c === '{') braceDepth++;
      else if (c === '}') braceDepth--;
      if (!/\s/.test(c)) lastSignificant = /[\w$]/.test(c) ? wordEndingAt(source, i) : c;
      i++;
    }
  }
  return mask;
}

const REGEX_AFTER_WORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

function startsRegex(lastSignificant: string, _source: string, _at: number): boolean {
  if (lastSignificant === '') return true;
  if (/^[\w$]+$/.test(lastSignificant)) return REGEX_AFTER_WORDS.has(lastSignificant);
  return !/[)\]}]/.test(lastSignificant) && lastSignificant !== 'a';
}

function wordEndingAt(source: string, end: number): string {
  let start = end;
  while (start > 0 && /[\w$]/.test(source[start - 1]!)) start--;
  return source.slice(start, end + 1);
}

export interface SolveCall {
  /** Index of the `D` of `DR.solve`. */
  start: number;
  /** The raw text of each argument, trimmed. */
  args: string[];
  /** True when `await` already precedes the call. */
  awaited: boolean;
}

const SOLVE_CALL = /\bDR\s*\.\s*solve\s*\(/g;

export function findSolveCalls(source: string, mask: readonly boolean[] = codeMask(source)): SolveCall[] {
  const calls: SolveCall[] = [];
  for (const match of source.matchAll(SOLVE_CALL)) {
    const start = match.index;
    if (!mask[start]) continue;
    if (start > 0 && /[\w$.]/.test(source[start - 1]!)) continue;
    const args = splitArguments(source, mask, start + match[0].length);
    const before = source.slice(Math.max(0, start - 40), start);
    calls.push({ start, args, awaited: /\bawait\s*$/.test(before) });
  }
  return calls;
}

/** Argument texts from just after `(` to the matching `)`, split on top-level commas. */
function splitArguments(source: string, mask: readonly boolean[], from: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let argStart = from;
  for (let i = from; i < source.length; i++) {
    if (!mask[i]) continue;
    const c = source[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) {
        const last = source.slice(argStart, i).trim();
        if (last !== '' || args.length > 0) args.push(last);
        return args;
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      args.push(source.slice(argStart, i).trim());
      argStart = i + 1;
    }
  }
  return args;
}

/** The value of a string literal argument (`'alias'`, `"id"`, a template without `${`), else undefined. */
export function stringLiteral(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = /^(['"`])([^'"`\\$]*)\1$/.exec(text);
  return match ? match[2] : undefined;
}

/** A literal version argument: a positive integer (or its text); undefined for anything else (= latest). */
export function versionLiteral(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const unquoted = stringLiteral(text) ?? text;
  return /^\d+$/.test(unquoted) && Number(unquoted) >= 1 ? Number(unquoted) : undefined;
}
