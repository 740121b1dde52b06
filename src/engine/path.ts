// Dotted paths with optional array indexes (`client.age`, `order[1].price`, `[0].name`), compiled once.

export type PathSegment = string | number;

const SEGMENT = /([^.[\]]+)|\[(\d+)\]/g;

/** Splits `a.b[2].c` into ['a', 'b', 2, 'c']. An empty path gives []. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const match of path.matchAll(SEGMENT)) {
    if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(match[1]!);
  }
  return segments;
}

/** The value at `segments`, or undefined when any step is missing (missing is not null). */
export function getAt(root: unknown, segments: readonly PathSegment[]): unknown {
  return getBelow(root, segments, 0);
}

/** The value at `segments` read from segment `start` on (a variable's value for `var.a.b`, start 1). */
export function getBelow(root: unknown, segments: readonly PathSegment[], start: number): unknown {
  let current: unknown = root;
  for (let i = start; i < segments.length; i++) {
    const segment = segments[i]!;
    if (current === null || typeof current !== 'object') return undefined;
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}

/** A reader for one path, built once per column or reference so solves do not re-parse it. */
export function compilePathGetter(path: string): (root: unknown) => unknown {
  const segments = parsePath(path);
  if (segments.length === 1 && typeof segments[0] === 'string') {
    const key = segments[0];
    return (root) =>
      root !== null && typeof root === 'object' && Object.hasOwn(root, key)
        ? (root as Record<string, unknown>)[key]
        : undefined;
  }
  return (root) => getAt(root, segments);
}

/** Writes `value` at `segments`, creating plain objects on the way (`prices.final` -> {prices:{final}}). */
export function setAt(root: Record<string, unknown>, segments: readonly PathSegment[], value: unknown): void {
  setBelow(root, segments, 0, value);
}

/** setAt for the path from segment `start` on (the rest of a variable's path below its name). */
export function setBelow(root: Record<string, unknown>, segments: readonly PathSegment[], start: number, value: unknown): void {
  let current: Record<string, unknown> = root;
  for (let i = start; i < segments.length - 1; i++) {
    const key = String(segments[i]);
    const next = Object.hasOwn(current, key) ? current[key] : undefined;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      const created: Record<string, unknown> = {};
      writeOwn(current, key, created);
      current = created;
    } else {
      current = next as Record<string, unknown>;
    }
  }
  writeOwn(current, String(segments[segments.length - 1]), value);
}

/**
 * An own, enumerable property. `__proto__` is the one key whose plain assignment would change the object's
 * prototype instead (input-controlled paths must not pollute prototypes), so only it pays for defineProperty;
 * every other key is a plain, fast assignment.
 */
function writeOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
