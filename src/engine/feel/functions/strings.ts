// String functions (DMN 1.5, 10.3.4.3). Positions count Unicode code points; patterns are XML Schema regular
// expressions, run as JavaScript regular expressions (the flags s, m, i, x carry over).
import { bad, fn, integer, type Builtin } from '../builtin.ts';
import type { Env } from '../env.ts';
import { translateXsdRegex } from './xsd-regex.ts';
import { FeelNumber, type FeelValue } from '../values.ts';

const codePoints = (s: string): string[] => Array.from(s);

/** A FEEL pattern and flags as a JavaScript RegExp; null (with a warning) when either is invalid. */
export function regExp(pattern: FeelValue, flags: FeelValue, env: Env, name: string, global = false): RegExp | null {
  if (typeof pattern !== 'string') return bad(env, name, 'the pattern is a text');
  if (flags !== null && (typeof flags !== 'string' || !/^[smix]*$/.test(flags))) return bad(env, name, 'flags are some of "s", "m", "i", "x"');
  const given = (flags as string | null) ?? '';
  const translated = translateXsdRegex(pattern, given.includes('x'));
  if (!translated) return bad(env, name, `"${pattern}" is not a valid pattern`);
  let js = global ? 'g' : '';
  for (const flag of given) if (flag !== 'x' && !js.includes(flag)) js += flag;
  try {
    return new RegExp(translated.source, js + (translated.unicodeSets ? 'v' : 'u'));
  } catch {
    try {
      if (translated.unicodeSets) throw new Error('no fallback for class subtraction');
      return new RegExp(translated.source, js);
    } catch {
      return bad(env, name, `"${pattern}" is not a valid pattern`);
    }
  }
}

/** XPath replacement text (`$0`, `$1`, `\$`) as JavaScript replacement text. */
function replacementText(text: string): string {
  return text.replace(/\\(\$|\\)|\$(\d)|\$/g, (match, escaped: string | undefined, group: string | undefined) => {
    if (escaped === '$') return '$$';
    if (escaped === '\\') return '\\';
    if (group === '0') return '$&';
    if (group !== undefined) return `$${group}`;
    return '$$';
  });
}

const str = (v: FeelValue | undefined): v is string => typeof v === 'string';

/** A list of one item passed where a text is expected stands for that item (FEEL's singleton list coercion). */
function singletons(builtin: Builtin): Builtin {
  return fn(
    builtin.name,
    builtin.overloads.map((params, i) => params.map((param, j) => (j >= builtin.arities[i]!.min ? `${param}?` : param))),
    (args, env, overload) =>
      builtin.run(
        args.map((arg) => (Array.isArray(arg) && arg.length === 1 && typeof arg[0] === 'string' ? arg[0] : arg)),
        env,
        overload,
      ),
  );
}

const STRING_FUNCTIONS: Builtin[] = [
  fn('substring', [['string', 'start position', 'length?']], ([s, start, length], env) => {
    if (!str(s)) return bad(env, 'substring', 'expects a text');
    const chars = codePoints(s);
    const from = integer(start);
    if (from === null || from === 0 || Math.abs(from) > chars.length + (from > 0 ? 1 : 0)) return bad(env, 'substring', 'the start position is outside the text');
    const begin = from > 0 ? from - 1 : chars.length + from;
    if (length === undefined || length === null) return chars.slice(begin).join('');
    const count = integer(length);
    if (count === null || count < 0) return bad(env, 'substring', 'the length is a whole number');
    return chars.slice(begin, begin + count).join('');
  }),
  fn('string length', [['string']], ([s]) => (str(s) ? new FeelNumber(codePoints(s).length) : null)),
  fn('upper case', [['string']], ([s]) => (str(s) ? s.toUpperCase() : null)),
  fn('lower case', [['string']], ([s]) => (str(s) ? s.toLowerCase() : null)),
  fn('substring before', [['string', 'match']], ([s, m]) => {
    if (!str(s) || !str(m)) return null;
    const i = s.indexOf(m);
    return i < 0 ? '' : s.slice(0, i);
  }),
  fn('substring after', [['string', 'match']], ([s, m]) => {
    if (!str(s) || !str(m)) return null;
    const i = s.indexOf(m);
    return i < 0 ? '' : s.slice(i + m.length);
  }),
  fn('replace', [['input', 'pattern', 'replacement', 'flags?']], ([input, pattern = null, replacement, flags = null], env) => {
    if (!str(input) || !str(replacement)) return bad(env, 'replace', 'expects texts');
    const re = regExp(pattern, flags, env, 'replace', true);
    return re ? input.replace(re, replacementText(replacement)) : null;
  }),
  fn('contains', [['string', 'match']], ([s, m]) => (str(s) && str(m) ? s.includes(m) : null)),
  fn('starts with', [['string', 'match']], ([s, m]) => (str(s) && str(m) ? s.startsWith(m) : null)),
  fn('ends with', [['string', 'match']], ([s, m]) => (str(s) && str(m) ? s.endsWith(m) : null)),
  fn('matches', [['input', 'pattern', 'flags?']], ([input, pattern = null, flags = null], env) => {
    if (!str(input)) return bad(env, 'matches', 'expects a text');
    const re = regExp(pattern, flags, env, 'matches');
    return re ? re.test(input) : null;
  }),
  fn('split', [['string', 'delimiter']], ([s, delimiter = null], env) => {
    if (!str(s)) return bad(env, 'split', 'expects a text');
    const re = regExp(delimiter, null, env, 'split', true);
    return re ? s.split(re) : null;
  }),
  fn('string join', [['list', 'delimiter?']], ([list, delimiter = null], env) => {
    if (typeof list === 'string') return list;
    if (!Array.isArray(list)) return bad(env, 'string join', 'expects a list');
    if (delimiter !== null && !str(delimiter)) return bad(env, 'string join', 'the delimiter is a text');
    const parts: string[] = [];
    for (const item of list) {
      if (item === null) continue;
      if (!str(item)) return bad(env, 'string join', 'the list holds something that is not a text');
      parts.push(item);
    }
    return parts.join(delimiter ?? '');
  }),
];

export const STRINGS: Builtin[] = STRING_FUNCTIONS.map((builtin) => (builtin.name === 'string join' ? builtin : singletons(builtin)));
