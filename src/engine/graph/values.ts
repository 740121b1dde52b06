// Values flowing between the nodes of a decision graph, with zen's Variable semantics on plain JSON: the merge of
// several incoming nodes, dotted-path writes, and the JSON of an expression's answer. Node outputs are shared
// between nodes and never written to after they are made: every write below copies what it changes.
import { zenToJson } from '../zen/index.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * zen's `merge_clone` at the top level: an array patch replaces the document, any other non-object patch leaves
 * it as it is, an object patch is merged in.
 */
export function mergeTop(doc: unknown, patch: unknown): unknown {
  if (Array.isArray(patch)) return patch;
  if (!isObject(patch)) return doc;
  return mergeValue(doc, patch);
}

/**
 * zen's merge below the top: objects merge key by key, a null in the patch removes the key, anything else
 * replaces. Answers `doc` itself when nothing changed, a copy otherwise.
 */
function mergeValue(doc: unknown, patch: unknown): unknown {
  if (!isObject(doc) || !isObject(patch)) return patch;
  if (doc === patch) return doc;
  let out: JsonObject | undefined;
  for (const key in patch) {
    const value = patch[key];
    const current = (out ?? doc)[key];
    if (value === null) {
      if (current !== undefined) {
        out ??= { ...doc };
        delete out[key];
      }
      continue;
    }
    const merged = mergeValue(current ?? null, value);
    if (merged !== current) {
      out ??= { ...doc };
      out[key] = merged;
    }
  }
  return out ?? doc;
}

/**
 * mergeTop of an object patch into `doc` itself, which the caller owns (no one else holds it): the same keys in the
 * same order as the copy mergeTop makes. Below the top, objects are merged by copy as ever.
 */
export function mergeInto(doc: JsonObject, patch: JsonObject): void {
  for (const key in patch) {
    const value = patch[key];
    if (value === null) {
      delete doc[key];
      continue;
    }
    const current = doc[key];
    doc[key] = mergeValue(current ?? null, value);
  }
}

/** A dotted path as written, or split once at compile time (`dotPath`) for the writes of every solve. */
export type DotPath = string | readonly string[];

/** `a.b` split once; a path without a dot stays a string (the plain write). */
export function dotPath(path: string): DotPath {
  return path.indexOf('.') < 0 ? path : path.split('.');
}

/**
 * zen's `dot_insert`: writes `value` at the dotted `path` of `target` (an object the caller owns), making the
 * objects on the way; a non-object on the way stops the write, as zen. Objects on the way that the caller did not
 * make may be shared, so they are copied before being written to. A caller writing several paths into one fresh
 * object passes `owned` (an empty array at first): the objects made or copied here are listed in it and written in
 * place by the next writes, instead of being copied once per write (`a.x`, `a.y`, `a.z` copied `a` three times).
 * Pass it only when nothing else can hold those objects between the writes.
 */
export function dotInsert(target: JsonObject, path: DotPath, value: unknown, owned?: object[]): void {
  if (typeof path === 'string') {
    if (path.indexOf('.') < 0) {
      target[path] = value;
      return;
    }
    path = path.split('.');
  }
  const parts = path;
  let head = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i];
    const next = head[key];
    if (next === undefined) {
      const made: JsonObject = {};
      head[key] = made;
      owned?.push(made);
      head = made;
    } else if (isObject(next)) {
      if (owned !== undefined && owned.includes(next)) {
        head = next;
        continue;
      }
      const copy = { ...next };
      head[key] = copy;
      owned?.push(copy);
      head = copy;
    } else return;
  }
  head[parts[parts.length - 1]] = value;
}

/**
 * True when no path is a strict prefix of another (`a` and `a.b` are not; `a.b` and `a.c` are): writing them all
 * into a fresh object with `insertFresh`, every object on the way was made by those writes.
 */
export function prefixFree(paths: readonly string[]): boolean {
  // A name objects inherit (`constructor`, `__proto__`) is no missing key: those paths keep dotInsert's checks.
  if (paths.some((p) => p.split('.').some((key) => key in Object.prototype))) return false;
  return !paths.some((p) => paths.some((q) => q.startsWith(`${p}.`)));
}

/**
 * `dotInsert` into a fresh object whose paths are `prefixFree`: the objects on the way are this object's own,
 * made by the earlier writes, so they are written in place, without the bookkeeping of `owned`.
 */
export function insertFresh(target: JsonObject, path: DotPath, value: unknown): void {
  if (typeof path === 'string') {
    target[path] = value;
    return;
  }
  let head = target;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) head = (head[path[i]] ??= {}) as JsonObject;
  head[path[last]] = value;
}

/** A ZEN answer as JSON: the value itself unless it holds a date or an interval (zen's JSON of those). */
export function jsonOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value === undefined ? null : value;
  return needsConversion(value) ? zenToJson(value) : value;
}

function needsConversion(value: object): boolean {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null && needsConversion(item)) return true;
    return false;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return true;
  for (const key in value) {
    const item = (value as JsonObject)[key];
    if (typeof item === 'object' && item !== null && needsConversion(item)) return true;
  }
  return false;
}

/** zen's depth_clone(1) for traces: a fresh top-level container. */
export function shallowCopy(value: unknown): unknown {
  if (Array.isArray(value)) return [...value];
  if (isObject(value)) return { ...value };
  return value;
}
