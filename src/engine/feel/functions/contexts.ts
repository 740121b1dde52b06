// Context functions (DMN 1.5, 10.3.4.6): get value, get entries, context, context put, context merge.
import { bad, fn, type Builtin } from '../builtin.ts';
import { FeelContext, type FeelValue } from '../values.ts';

function put(context: FeelContext, keys: string[], value: FeelValue): FeelContext | null {
  const [key, ...rest] = keys;
  if (key === undefined) return null;
  const entries = new Map(context.entries);
  if (rest.length === 0) entries.set(key, value);
  else {
    const inner = entries.get(key);
    if (inner !== undefined && !(inner instanceof FeelContext)) return null;
    const nested = put(inner ?? new FeelContext(), rest, value);
    if (!nested) return null;
    entries.set(key, nested);
  }
  return new FeelContext(entries);
}

export const CONTEXTS: Builtin[] = [
  fn('get value', [['m', 'key']], ([m, key]) => (m instanceof FeelContext && typeof key === 'string' ? (m.get(key) ?? null) : null)),
  fn('get entries', [['m']], ([m]) =>
    m instanceof FeelContext
      ? [...m.entries].map(
          ([key, value]) =>
            new FeelContext([
              ['key', key],
              ['value', value],
            ]),
        )
      : null,
  ),
  fn('context', [['entries']], ([entries], env) => {
    const list = Array.isArray(entries) ? entries : [entries ?? null];
    const out = new Map<string, FeelValue>();
    for (const entry of list) {
      if (!(entry instanceof FeelContext) || typeof entry.get('key') !== 'string' || !entry.has('value')) return bad(env, 'context', 'each entry is a context with a key and a value');
      const key = entry.get('key') as string;
      if (out.has(key)) return bad(env, 'context', `the key "${key}" appears twice`);
      out.set(key, entry.get('value')!);
    }
    return new FeelContext(out);
  }),
  fn('context put', [['context', 'key', 'value'], ['context', 'keys', 'value']], ([context, key, value = null], env, overload) => {
    if (!(context instanceof FeelContext)) return bad(env, 'context put', 'expects a context');
    const listed = Array.isArray(key) && key.length > 0 && key.every((k) => typeof k === 'string') ? (key as string[]) : null;
    const keys = typeof key === 'string' && overload !== 1 ? [key] : overload !== 0 ? listed : null;
    if (!keys) return bad(env, 'context put', 'the key is a text or a list of texts');
    return put(context, keys, value);
  }),
  fn('context merge', [['contexts']], ([given], env) => {
    const contexts = given instanceof FeelContext ? [given] : given;
    if (!Array.isArray(contexts) || !contexts.every((c) => c instanceof FeelContext)) return bad(env, 'context merge', 'expects a list of contexts');
    const out = new Map<string, FeelValue>();
    for (const c of contexts as FeelContext[]) for (const [k, v] of c.entries) out.set(k, v);
    return new FeelContext(out);
  }),
];
