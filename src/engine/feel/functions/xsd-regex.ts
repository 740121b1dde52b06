// XML Schema regular expressions (the dialect of FEEL's matches, replace and split, after XPath's fn:matches)
// as JavaScript RegExp sources. The dialects differ in a few places this translation covers: the `x` flag drops
// whitespace outside character classes, class subtraction `[a-z-[aeiou]]` (JavaScript's `v` flag writes it
// `--`), Unicode block escapes `\p{IsBasicLatin}`, and back-references, which XML Schema allows only to a group
// closed before them and never inside a class.

/** Unicode blocks by their XML Schema name (the ones rules name in practice). */
const BLOCKS: Record<string, string> = {
  IsBasicLatin: '\\u0000-\\u007F',
  'IsLatin-1Supplement': '\\u0080-\\u00FF',
  IsLatinExtended: '\\u0100-\\u024F',
  'IsLatinExtended-A': '\\u0100-\\u017F',
  'IsLatinExtended-B': '\\u0180-\\u024F',
  IsGreek: '\\u0370-\\u03FF',
  IsCyrillic: '\\u0400-\\u04FF',
};

export interface Translated {
  source: string;
  /** True when the source needs JavaScript's `v` flag (class subtraction). */
  unicodeSets: boolean;
}

/** The JavaScript source of an XML Schema pattern; null when the pattern is not valid XML Schema. */
export function translateXsdRegex(given: string, extended: boolean): Translated | null {
  const pattern = extended ? withoutWhitespace(given) : given;
  let out = '';
  let depth = 0;
  let classStart = 0;
  let closedGroups = 0;
  const open: boolean[] = [];
  let unicodeSets = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      let next = pattern[i + 1];
      if (next === undefined) return null;
      if (next === 'p' || next === 'P') {
        const close = pattern.indexOf('}', i);
        if (pattern[i + 2] !== '{' || close < 0) return null;
        const name = pattern.slice(i + 3, close);
        if (/\s/.test(name)) return null;
        const block = BLOCKS[name];
        if (block) out += depth > 0 ? block : `${next === 'P' ? '[^' : '['}${block}]`;
        else if (name.startsWith('Is')) return null;
        else out += `\\${next}{${name}}`;
        i = close;
        continue;
      }
      if (/\d/.test(next)) {
        // a back-reference: never inside a class, only to a group closed before it
        if (depth > 0) return null;
        let digits = next;
        while (/\d/.test(pattern[i + 1 + digits.length] ?? '') && Number(digits + pattern[i + 1 + digits.length]) <= closedGroups) digits += pattern[i + 1 + digits.length];
        if (Number(digits) === 0 || Number(digits) > closedGroups) return null;
        out += `\\${digits}`;
        i += digits.length;
        continue;
      }
      next = pattern[i + 1]!;
      out += `\\${next}`;
      i++;
      continue;
    }
    if (c === '[') {
      if (depth > 0) {
        // `-[` inside a class is subtraction
        if (out.endsWith('-')) {
          // JavaScript subtracts classes, not ranges: [A-Z-[OI]] is [[A-Z]--[OI]]
          out = `${out.slice(0, classStart)}[${out.slice(classStart, -1)}]--[`;
          unicodeSets = true;
          depth++;
          continue;
        }
        return null;
      }
      depth++;
      out += c;
      if (pattern[i + 1] === '^') {
        out += '^';
        i++;
      }
      classStart = out.length;
      continue;
    }
    if (c === ']' && depth > 0) {
      depth--;
      out += c;
      continue;
    }
    if (depth === 0 && c === '(') {
      open.push(pattern[i + 1] !== '?');
      out += c;
      continue;
    }
    if (depth === 0 && c === ')') {
      if (open.pop()) closedGroups++;
      out += c;
      continue;
    }
    out += c;
  }
  if (depth !== 0) return null;
  return { source: out, unicodeSets };
}

/** The `x` flag: whitespace outside character classes is dropped before anything else is read. */
function withoutWhitespace(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && inClass) {
      out += c + (pattern[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    if (!inClass && /\s/.test(c)) continue;
    out += c;
  }
  return out;
}
