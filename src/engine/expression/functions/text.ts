// Text functions (spec/rule-format.md §4.9.3, §11 Fn1, Fn3). TEXT(...) is a parser special form (§4.6).
import type { FunctionDef } from './types.ts';
import type { Frame } from '../runtime.ts';
import { parsePath } from '../../path.ts';
import { isVariablePath, normaliseVariablePath } from '../lexer.ts';
import { describe, invalid, spread, toInteger, toText } from '../runtime.ts';

/** Compiled patterns by flags+source. A memo only: patterns are immutable apart from lastIndex, reset on use. */
const patternCache = new Map<string, RegExp>();
const PATTERN_CACHE_LIMIT = 500;

function compilePattern(source: string, flags: string, fn: string): RegExp {
  const key = `${flags}/${source}`;
  let re = patternCache.get(key);
  if (!re) {
    try {
      re = new RegExp(source, flags);
    } catch (error) {
      return invalid(`${fn}: invalid regular expression ${describe(source)}: ${(error as Error).message}`);
    }
    if (patternCache.size >= PATTERN_CACHE_LIMIT) patternCache.clear();
    patternCache.set(key, re);
  }
  return re;
}

/** A RE(...) value as is; any other value is a pattern text (with `flags`). */
function toRegex(pattern: unknown, flags: string, fn: string): RegExp {
  if (pattern instanceof RegExp) return pattern;
  if (pattern === null || pattern === undefined || typeof pattern === 'object') {
    return invalid(`${fn}: ${describe(pattern)} is not a pattern`);
  }
  return compilePattern(String(pattern), flags, fn);
}

export function regexTest(s: unknown, pattern: unknown, fn: string): boolean {
  const re = toRegex(pattern, '', fn);
  re.lastIndex = 0;
  return re.test(toText(s));
}

function plainMatch(match: RegExpMatchArray | null): unknown[] | null {
  if (!match) return null;
  return Array.from(match, (m) => m ?? null);
}

/** STRINGFORMAT: `{var}` references in a runtime text, resolved against the scope; unknown ones stay as written. */
function formatText(text: string, f: Frame): string {
  return text.replace(/\{([^{}"']*)\}/g, (whole, inner: string) => {
    if (!isVariablePath(inner) || /^\s*\d+\s*$/.test(inner)) return whole;
    const path = normaliseVariablePath(inner);
    const value = f.scope.resolve(parsePath(path), path);
    return value === undefined ? whole : toText(value);
  });
}

function count(value: unknown, fn: string): number {
  const n = toInteger(value, fn);
  if (n < 0) invalid(`${fn}: ${describe(value)} is negative`);
  return n;
}

export const textFunctions: FunctionDef[] = [
  {
    // each argument is trimmed first (§11 Fn3): CONCAT("The value is: ",10) -> "The value is:10"
    kind: 'eager',
    name: 'CONCAT',
    params: 'text…',
    min: 1,
    max: Infinity,
    impl: (args) => {
      let out = '';
      for (const v of spread(args)) out += toText(v).trim();
      return out;
    },
  },
  {
    kind: 'eager',
    name: 'CONCAT_WS',
    params: 'separator, text…',
    min: 2,
    max: Infinity,
    impl: (args) => {
      const separator = toText(args[0]);
      return spread(args.slice(1)).map(toText).join(separator);
    },
  },
  { kind: 'eager', name: 'LEN', params: 'text', min: 1, max: 1, impl: ([s]) => toText(s).length },
  { kind: 'eager', name: 'UPPER_CASE', params: 'text', min: 1, max: 1, impl: ([s]) => toText(s).toUpperCase() },
  { kind: 'eager', name: 'LOWER_CASE', params: 'text', min: 1, max: 1, impl: ([s]) => toText(s).toLowerCase() },
  {
    kind: 'eager',
    name: 'LEFT',
    params: 'text, [count]',
    min: 1,
    max: 2,
    impl: ([s, n]) => toText(s).slice(0, n === undefined ? 1 : count(n, 'LEFT')),
  },
  {
    kind: 'eager',
    name: 'RIGHT',
    params: 'text, [count]',
    min: 1,
    max: 2,
    impl: ([s, n]) => {
      const text = toText(s);
      const k = n === undefined ? 1 : count(n, 'RIGHT');
      return k === 0 ? '' : text.slice(Math.max(text.length - k, 0));
    },
  },
  { kind: 'eager', name: 'TRIM', params: 'text', min: 1, max: 1, impl: ([s]) => toText(s).trim() },
  { kind: 'eager', name: 'TRIM_LEFT', params: 'text', min: 1, max: 1, impl: ([s]) => toText(s).trimStart() },
  { kind: 'eager', name: 'TRIM_RIGHT', params: 'text', min: 1, max: 1, impl: ([s]) => toText(s).trimEnd() },
  {
    // 1-based inclusive positions; start <= 0 acts like 1 (§11 Fn1: s.substring(max(start-1,0), end))
    kind: 'eager',
    name: 'SUBSTR',
    params: 'text, start, [end]',
    min: 2,
    max: 3,
    impl: ([s, start, end]) => {
      const text = toText(s);
      const from = Math.max(toInteger(start, 'SUBSTR') - 1, 0);
      return end === undefined ? text.substring(from) : text.substring(from, Math.max(toInteger(end, 'SUBSTR'), 0));
    },
  },
  {
    kind: 'eager',
    name: 'RE',
    params: 'pattern, [flags]',
    min: 1,
    max: 2,
    impl: ([pattern, flags]) => {
      const source = toText(pattern);
      const flagText = flags === undefined || flags === null ? '' : toText(flags);
      try {
        // a fresh object per call: RE values can be returned and compared, unlike the cached patterns
        return new RegExp(source, flagText);
      } catch (error) {
        return invalid(`RE: invalid regular expression ${describe(source)}: ${(error as Error).message}`);
      }
    },
  },
  {
    kind: 'eager',
    name: 'TEST',
    params: 'text, pattern',
    min: 2,
    max: 2,
    impl: ([s, pattern]) => regexTest(s, pattern, 'TEST'),
  },
  {
    // a plain pattern text matches globally; RE without `g` gives the first match with its groups
    kind: 'eager',
    name: 'MATCH',
    params: 'text, pattern',
    min: 2,
    max: 2,
    impl: ([s, pattern]) => {
      const re = toRegex(pattern, 'g', 'MATCH');
      re.lastIndex = 0;
      return plainMatch(toText(s).match(re));
    },
  },
  {
    kind: 'eager',
    name: 'REPLACE',
    params: 'text, pattern, replacement',
    min: 3,
    max: 3,
    impl: ([s, pattern, replacement]) => {
      const re = toRegex(pattern, 'g', 'REPLACE');
      re.lastIndex = 0;
      return toText(s).replace(re, toText(replacement));
    },
  },
  {
    // JavaScript split; as in DecisionRules a plain text separator is a pattern with the global flag (`"l{2}"`,
    // `"\\."` for a literal dot), a RE value is used as is (docs/decisions/expressions-split-separator.md)
    kind: 'eager',
    name: 'SPLIT',
    params: 'text, separator',
    min: 2,
    max: 2,
    impl: ([s, separator]) => {
      const text = toText(s);
      if (separator instanceof RegExp) return text.split(separator);
      if (separator === null || typeof separator === 'object') invalid(`SPLIT: ${describe(separator)} is not a separator`);
      return text.split(compilePattern(toText(separator), 'g', 'SPLIT'));
    },
  },
  {
    kind: 'eager',
    name: 'STRINGFORMAT',
    params: 'text',
    min: 1,
    max: 1,
    contextual: true,
    impl: ([s], f) => formatText(toText(s), f),
  },
];
