// The JSON5 subset zen's expression suites write their inputs and outputs in (unquoted keys, single quotes,
// `$` keys). A test helper only: the suites are the sole JSON5 this project reads.

export function parseJson5(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`JSON5: ${what} at ${i} in ${text}`);
  };
  const space = (): void => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const string = (): string => {
    const quote = text[i++];
    let out = '';
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\') {
        const next = text[i + 1];
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
        i += 2;
      } else out += text[i++];
    }
    if (text[i] !== quote) fail('unterminated string');
    i++;
    return out;
  };
  const value = (): unknown => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      for (;;) {
        space();
        if (text[i] === '}') break;
        let key: string;
        if (text[i] === '"' || text[i] === "'") key = string();
        else {
          const match = /^[A-Za-z_$][\w$]*/.exec(text.slice(i));
          if (!match) return fail('key expected');
          key = match[0];
          i += key.length;
        }
        space();
        if (text[i++] !== ':') fail("':' expected");
        out[key] = value();
        space();
        if (text[i] === ',') i++;
      }
      i++;
      return out;
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      for (;;) {
        space();
        if (text[i] === ']') break;
        out.push(value());
        space();
        if (text[i] === ',') i++;
      }
      i++;
      return out;
    }
    if (c === '"' || c === "'") return string();
    const match = /^(true|false|null|[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!match) return fail('value expected');
    i += match[0].length;
    return match[0] === 'true' ? true : match[0] === 'false' ? false : match[0] === 'null' ? null : Number(match[0]);
  };
  const result = value();
  space();
  if (i < text.length) fail('trailing text');
  return result;
}
