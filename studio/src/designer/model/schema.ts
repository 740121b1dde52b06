// The input/output model (spec/rule-format.md §1.3): a tree of objects whose leaves are `{}`. The format has
// no field types, so the tree editor edits names and nesting only. Paths are arrays of keys; key order is
// kept on rename, as the output follows the model's key order.

export type Schema = Record<string, unknown>;

export interface SchemaNode {
  path: string[];
  name: string;
  depth: number;
  leaf: boolean;
}

const KEY = /^[A-Za-z0-9_-]+$/;

function asObject(value: unknown): Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : {};
}

/** Depth-first list of every field, for the tree view. */
export function flattenSchema(schema: unknown): SchemaNode[] {
  const out: SchemaNode[] = [];
  const walk = (node: Schema, path: string[]) => {
    for (const [name, child] of Object.entries(node)) {
      const childPath = [...path, name];
      const children = asObject(child);
      const leaf = Object.keys(children).length === 0;
      out.push({ path: childPath, name, depth: path.length, leaf });
      if (!leaf) walk(children, childPath);
    }
  };
  walk(asObject(schema), []);
  return out;
}

/** Dotted paths of the leaves: what condition columns read and result columns write. */
export function leafPaths(schema: unknown): string[] {
  return flattenSchema(schema).filter((n) => n.leaf).map((n) => n.path.join('.'));
}

/** Why `name` cannot be a field name under `parent`, or undefined when it can. */
export function fieldNameProblem(schema: unknown, parent: readonly string[], name: string, except?: string): string | undefined {
  if (name === '') return 'A field needs a name';
  if (!KEY.test(name)) return 'Use letters, digits, "_" and "-" only';
  const siblings = asObject(getNode(schema, parent));
  if (name !== except && Object.hasOwn(siblings, name)) return `"${name}" already exists here`;
  return undefined;
}

function getNode(schema: unknown, path: readonly string[]): unknown {
  let node: unknown = schema;
  for (const key of path) node = asObject(node)[key];
  return node;
}

function update(schema: unknown, path: readonly string[], change: (node: Schema) => Schema): Schema {
  const root = asObject(schema);
  if (path.length === 0) return change({ ...root });
  const [head, ...rest] = path;
  return { ...root, [head!]: update(root[head!], rest, change) };
}

/** Adds an empty field under `parent` (a leaf gains a first child and becomes an object). */
export function addField(schema: unknown, parent: readonly string[], name: string): Schema {
  return update(schema, parent, (node) => ({ ...node, [name]: {} }));
}

export function renameField(schema: unknown, path: readonly string[], name: string): Schema {
  const parent = path.slice(0, -1);
  const old = path[path.length - 1]!;
  return update(schema, parent, (node) => {
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) out[key === old ? name : key] = value;
    return out;
  });
}

export function deleteField(schema: unknown, path: readonly string[]): Schema {
  const parent = path.slice(0, -1);
  const old = path[path.length - 1]!;
  return update(schema, parent, (node) => {
    const { [old]: _removed, ...rest } = node;
    return rest;
  });
}

/** A dotted path of field names the model can hold (`customer.tier`); bindings of any other form are left alone. */
const DOTTED_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function isModelPath(path: string): boolean {
  return DOTTED_PATH.test(path);
}

/** Whether the model has a field (leaf or not) at the dotted path. */
export function hasPath(schema: unknown, path: string): boolean {
  let node: unknown = schema;
  for (const key of path.split('.')) {
    const object = asObject(node);
    if (!Object.hasOwn(object, key)) return false;
    node = object[key];
  }
  return true;
}

/** Adds each dotted path as nested fields, leaves `{}`; a leaf on the way becomes an object (as addField does). */
export function addPaths(schema: unknown, paths: readonly string[]): Schema {
  let out = asObject(schema);
  for (const path of paths) {
    const keys = path.split('.');
    for (let depth = 1; depth <= keys.length; depth++) {
      const prefix = keys.slice(0, depth);
      if (!hasPath(out, prefix.join('.'))) out = addField(out, prefix.slice(0, -1), prefix[depth - 1]!);
    }
  }
  return out;
}

/** Why raw JSON text is not a valid model, or undefined. Checks what §1.3 requires: objects all the way down. */
export function schemaTextProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : 'not JSON';
  }
  const check = (node: unknown, path: string): string | undefined => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      return `${path || 'the model'} must be an object (leaves are {})`;
    }
    for (const [key, child] of Object.entries(node)) {
      const problem = check(child, path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    return undefined;
  };
  return check(value, '');
}
