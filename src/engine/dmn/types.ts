// Item definitions as types: resolving a typeRef (a FEEL type name, an item definition of the model, or one of
// an imported model as `prefix.tName`), checking a value against it, and the conversions DMN 1.5 applies where a
// value meets a declared type (10.3.2.9.4: a singleton list to its element, an element to a singleton list).
// A value that does not conform becomes null with a warning, as the spec and the TCK expect.
import type { DmnItemDefinition, DmnModel } from '../../rules/dmn/model.ts';
import { conforms, parseType } from '../feel/index.ts';
import type { FeelType, FeelValue } from '../feel/index.ts';
import { FeelContext, FeelFunction } from '../feel/index.ts';
import type { CompileProblems, UnaryEvaluator } from './feel.ts';
import { feelUnaryTests } from './feel.ts';
import type { ModelSet } from './models.ts';
import type { Frame } from './run.ts';
import { warn } from './run.ts';

export type DmnType =
  | { kind: 'any' }
  | { kind: 'feel'; name: string; type: FeelType }
  | {
      kind: 'item';
      name: string;
      collection: boolean;
      base?: DmnType;
      components?: [string, DmnType][];
      allowed?: UnaryEvaluator;
      constraint?: UnaryEvaluator;
      isFunction: boolean;
      /** A function item's parameter count (a function value must take as many). */
      arity?: number;
    };

export const ANY: DmnType = { kind: 'any' };
const NO_NAMES = { names: [] };

const FEEL_TYPE_NAMES = /^(?:feel:)?(?:number|string|boolean|date|time|date and time|dateTime|days and time duration|dayTimeDuration|years and months duration|yearMonthDuration|Any|Null|context|list|range|function)\b|^(?:list|range|context|function)\s*</;

/** Number type names other tools write (Camunda's `integer`, `long`, `double`; XML Schema's), read as FEEL's number. */
const NUMBER_ALIASES = new Set(['integer', 'int', 'long', 'short', 'double', 'float', 'decimal']);

/** Resolves typeRefs of one model set, each item definition once (recursive types are built before being filled). */
export class TypeResolver {
  readonly #models: ModelSet;
  readonly #problems: CompileProblems;
  readonly #resolved = new Map<DmnItemDefinition, DmnType>();
  readonly #feelResolvers = new Map<DmnModel, (name: string) => FeelType | undefined>();

  constructor(models: ModelSet, problems: CompileProblems) {
    this.#models = models;
    this.#problems = problems;
  }

  /** The type a typeRef names in `model`; undefined typeRef: any. An unknown name is a problem, then any. */
  resolve(typeRef: string | undefined, model: DmnModel, path: string): DmnType {
    if (!typeRef) return ANY;
    const name = typeRef.trim();
    const named = this.#named(name, model);
    if (named) return named;
    if (NUMBER_ALIASES.has(name)) return { kind: 'feel', name, type: parseType('number') };
    if (FEEL_TYPE_NAMES.test(name)) {
      try {
        const type = parseType(name);
        return type.kind === 'any' ? ANY : { kind: 'feel', name, type };
      } catch (error) {
        this.#problems.add(path, `the type '${name}' is not a FEEL type: ${(error as Error).message}`);
        return ANY;
      }
    }
    this.#problems.add(path, `the type '${name}' is neither a FEEL type nor an item definition of the model`);
    return ANY;
  }

  /** FEEL's view of the model's item definitions (`instance of tPerson`, typed parameters): their structure. */
  feelTypes(model: DmnModel): (name: string) => FeelType | undefined {
    let known = this.#feelResolvers.get(model);
    if (!known) {
      known = (name) => {
        const type = this.#named(name, model);
        return type && toFeelType(type, new Set());
      };
      this.#feelResolvers.set(model, known);
    }
    return known;
  }

  /** The item definition a name denotes in `model` (`tName`, or `prefix.tName` of an imported model). */
  #named(name: string, model: DmnModel): DmnType | undefined {
    const local = model.itemDefinitions.find((definition) => definition.name === name);
    if (local) return this.#item(local, model);
    const dot = name.indexOf('.');
    if (dot <= 0) return undefined;
    const imported = this.#models.imported(model, name.slice(0, dot));
    const definition = imported?.itemDefinitions.find((candidate) => candidate.name === name.slice(dot + 1));
    return imported && definition ? this.#item(definition, imported) : undefined;
  }

  #item(definition: DmnItemDefinition, model: DmnModel): DmnType {
    const known = this.#resolved.get(definition);
    if (known) return known;
    const type: DmnType & { kind: 'item' } = {
      kind: 'item',
      name: definition.name,
      collection: definition.isCollection,
      isFunction: !!definition.functionItem,
      ...(definition.functionItem ? { arity: definition.functionItem.parameters.length } : {}),
    };
    this.#resolved.set(definition, type);
    if (definition.typeRef) type.base = this.resolve(definition.typeRef, model, definition.path);
    if (definition.components.length > 0) {
      type.components = definition.components.map((component) => [component.name, this.#item(component, model)]);
    }
    if (definition.allowedValues) type.allowed = feelUnaryTests(definition.allowedValues, NO_NAMES, `${definition.path}.allowedValues`, this.#problems);
    if (definition.typeConstraint) type.constraint = feelUnaryTests(definition.typeConstraint, NO_NAMES, `${definition.path}.typeConstraint`, this.#problems);
    return type;
  }
}

/** An item definition's structure as a FEEL type (allowed values are not part of it); recursive types end in Any. */
function toFeelType(type: DmnType, seen: Set<DmnType>): FeelType {
  if (type.kind === 'any' || seen.has(type)) return { kind: 'any' };
  if (type.kind === 'feel') return type.type;
  seen.add(type);
  try {
    if (type.collection) return { kind: 'list', item: toFeelType({ ...type, collection: false }, seen) };
    if (type.isFunction) return { kind: 'function', params: Array.from({ length: type.arity ?? 0 }, () => ({ kind: 'any' }) as const), result: { kind: 'any' } };
    if (type.components) return { kind: 'context', entries: type.components.map(([name, component]) => [name, toFeelType(component, seen)]) };
    return type.base ? toFeelType(type.base, seen) : { kind: 'any' };
  } finally {
    seen.delete(type);
  }
}

export function typeName(type: DmnType): string {
  return type.kind === 'any' ? 'Any' : type.name;
}

function isList(type: DmnType): boolean {
  if (type.kind === 'feel') return type.type.kind === 'list';
  if (type.kind === 'item') return type.collection || (!type.components && !!type.base && isList(type.base));
  return false;
}

/** Whether a function value takes `arity` arguments (a variadic built-in, `...name` last, takes any number). */
function takes(fn: FeelFunction, arity: number): boolean {
  return fn.params.length === arity || (fn.params.at(-1)?.startsWith('...') ?? false);
}

/** A collection type's element type, made once per type (conformsTo runs on every value of every evaluation). */
const ELEMENT_TYPES = new WeakMap<DmnType, DmnType>();
function elementOf(type: DmnType): DmnType {
  let element = ELEMENT_TYPES.get(type);
  if (!element) {
    element = { ...type, collection: false, constraint: undefined } as DmnType;
    ELEMENT_TYPES.set(type, element);
  }
  return element;
}

/** Whether `value` conforms to `type`; null conforms to every type. */
export function conformsTo(value: FeelValue, type: DmnType, frame: Frame): boolean {
  if (value === null || type.kind === 'any') return true;
  if (type.kind === 'feel') return conforms(value, type.type);
  if (type.collection) {
    if (!Array.isArray(value)) return false;
    const element = elementOf(type);
    for (const item of value) if (!conformsTo(item, element, frame)) return false;
    return !type.constraint || type.constraint(value, frame) === true;
  }
  if (type.isFunction) return value instanceof FeelFunction && (type.arity === undefined || takes(value, type.arity));
  if (type.base && !conformsTo(value, type.base, frame)) return false;
  if (type.components) {
    if (!(value instanceof FeelContext)) return false;
    // Every component must be there (null is a value); other entries may be there too.
    for (const [name, componentType] of type.components) {
      // One lookup: a context holds null for a missing value, never undefined.
      const component = value.entries.get(name);
      if (component === undefined || !conformsTo(component, componentType, frame)) return false;
    }
  }
  if (type.allowed && type.allowed(value, frame) !== true) return false;
  return !type.constraint || type.constraint(value, frame) === true;
}

/**
 * The value as the declared type receives it: a singleton list where an element is declared becomes its element,
 * an element where a list is declared becomes a singleton list; then null with a warning when it does not conform.
 */
export function coerce(value: FeelValue, type: DmnType, frame: Frame, path: string): FeelValue {
  if (value === null || type.kind === 'any') return value;
  let converted: FeelValue = value;
  const list = isList(type);
  if (!list && Array.isArray(value) && value.length === 1) converted = value[0] ?? null;
  else if (list && !Array.isArray(value)) converted = [value];
  if (conformsTo(converted, type, frame)) return converted;
  if (converted !== value && conformsTo(value, type, frame)) return value;
  return warn(frame, path, `the value does not conform to the type '${typeName(type)}'`);
}
