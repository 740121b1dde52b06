// Compiles a ZEN syntax tree to closures (the same approach as Verdict's own language in ../expression): each
// node becomes a function of the scope, with names resolved and functions looked up once, at compile time.
import type { Node } from './ast.ts';
import { ZenDate } from './dates.ts';
import { ZenSyntaxError, fail } from './errors.ts';
import { DATE_METHODS, FUNCTIONS, type ZenClock } from './functions.ts';
import { ZenInterval, compare, decimal, equals, quotient, isObject, itemsOf, scalarText, textOf, typeName } from './values.ts';

export interface Scope {
  /** The environment (the input); assignments write into it. */
  env: Record<string, unknown>;
  /** `#` inside a closure. */
  pointer: unknown;
  /** Closure aliases (`map(items as i, i.price)`), innermost last. */
  aliases: Record<string, unknown> | undefined;
  clock: ZenClock;
}

export type Evaluator = (scope: Scope) => unknown;

function member(object: unknown, key: unknown): unknown {
  if (Array.isArray(object) && typeof key === 'number') {
    if (key < 0 || !Number.isInteger(key)) fail(`array index ${key} is not a whole number from 0`);
    return object[key] ?? null;
  }
  if (typeof object === 'string' && typeof key === 'number') return [...object][key] ?? null;
  if (isObject(object) && (typeof key === 'string' || typeof key === 'number')) {
    return Object.hasOwn(object, key) ? object[key] : null;
  }
  return null;
}

function arithmetic(operator: string, a: unknown, b: unknown): unknown {
  if (operator === '+' && (typeof a === 'string' || typeof b === 'string')) {
    if (typeof a !== 'string' || typeof b !== 'string') fail(`operator '+' cannot add ${typeName(a)} and ${typeName(b)}`);
    return a + b;
  }
  if (typeof a !== 'number' || typeof b !== 'number') {
    return fail(`operator '${operator}' expects numbers, got ${typeName(a)} and ${typeName(b)}`);
  }
  switch (operator) {
    case '+':
      return decimal(a + b, operator);
    case '-':
      return decimal(a - b, operator);
    case '*':
      return decimal(a * b, operator);
    case '/':
      return b === 0 ? null : quotient(a, b);
    case '%':
      return b === 0 ? null : decimal(a % b, operator);
    default:
      return decimal(a ** b, operator);
  }
}

/** A condition's value: zen accepts booleans only (`1 ? a : b` and `not 1` are errors). */
function boolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(`${where} expects a boolean, got ${typeName(value)}`);
  return value;
}

function isIn(value: unknown, container: unknown): boolean {
  if (Array.isArray(value) || isObject(value)) fail(`operator 'in' cannot look for ${typeName(value)}`);
  if (Array.isArray(container)) return container.some((item) => equals(item, value));
  if (container instanceof ZenInterval) return container.contains(value);
  if (isObject(container) && typeof value === 'string') return Object.hasOwn(container, value);
  return fail(`operator 'in' expects an array, an interval or an object on its right, got ${typeName(container)}`);
}

function binary(operator: string, left: Evaluator, right: Evaluator): Evaluator {
  switch (operator) {
    // zen requires a boolean on the left and answers the right operand as it is (`true and null` is null).
    case 'and':
      return (s) => (boolean(left(s), operator) ? right(s) : false);
    case 'or':
      return (s) => (boolean(left(s), operator) ? true : right(s));
    case '??':
      return (s) => left(s) ?? right(s);
    case '==':
      return (s) => equals(left(s), right(s));
    case '!=':
      return (s) => !equals(left(s), right(s));
    case '<':
      return (s) => compare(left(s), right(s), operator) < 0;
    case '>':
      return (s) => compare(left(s), right(s), operator) > 0;
    case '<=':
      return (s) => compare(left(s), right(s), operator) <= 0;
    case '>=':
      return (s) => compare(left(s), right(s), operator) >= 0;
    case 'in':
      return (s) => isIn(left(s), right(s));
    case 'not in':
      return (s) => !isIn(left(s), right(s));
    default:
      return (s) => arithmetic(operator, left(s), right(s));
  }
}

function slice(value: unknown, from: number | undefined, to: number | undefined): unknown {
  // zen's slice includes its end index: 'sample_string'[0:5] is 'sample'.
  const end = to === undefined ? undefined : to + 1;
  if (typeof value === 'string') return [...value].slice(from ?? 0, end).join('');
  if (Array.isArray(value)) return value.slice(from ?? 0, end);
  return fail(`slice expects a string or an array, got ${typeName(value)}`);
}

function optionalNumber(evaluate: Evaluator | undefined, s: Scope): number | undefined {
  if (!evaluate) return undefined;
  const value = evaluate(s);
  if (typeof value !== 'number') fail(`slice index must be a number, got ${typeName(value)}`);
  return value;
}

function assign(env: Record<string, unknown>, path: string[], value: unknown): void {
  let target = env;
  for (const key of path.slice(0, -1)) {
    const next = target[key];
    if (!isObject(next)) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[path[path.length - 1]] = value;
}

function closure(name: string, subject: Evaluator, alias: string | undefined, body: Evaluator): Evaluator {
  // One child scope per call, its pointer (and alias) moved item by item: evaluation is synchronous and no
  // value keeps a scope, so nothing sees the previous item.
  const evaluate = (child: Scope, item: unknown): unknown => {
    child.pointer = item;
    if (alias) (child.aliases as Record<string, unknown>)[alias] = item;
    return body(child);
  };
  // Every closure but map and flatMap tests its body, which must then be a boolean.
  const run = name === 'map' || name === 'flatMap' ? evaluate : (child: Scope, item: unknown) => boolean(evaluate(child, item), `${name}()`);
  return (parent) => {
    const items = itemsOf(subject(parent), name);
    const s: Scope = { env: parent.env, pointer: null, aliases: alias ? { ...parent.aliases } : parent.aliases, clock: parent.clock };
    switch (name) {
      case 'map':
        return items.map((item) => run(s, item));
      case 'filter':
        return items.filter((item) => run(s, item));
      case 'some':
        return items.some((item) => run(s, item) === true);
      case 'all':
        return items.every((item) => run(s, item) === true);
      case 'none':
        return !items.some((item) => run(s, item) === true);
      case 'one':
        return items.filter((item) => run(s, item) === true).length === 1;
      case 'count':
        return items.filter((item) => run(s, item) === true).length;
      default:
        return items.flatMap((item) => {
          const mapped = run(s, item);
          return Array.isArray(mapped) ? mapped : [mapped];
        });
    }
  };
}

export function compileNode(node: Node): Evaluator {
  switch (node.type) {
    case 'literal': {
      const value = node.value;
      return () => value;
    }
    case 'template': {
      const parts = node.parts.map((part) => (typeof part === 'string' ? () => part : compileNode(part)));
      return (s) => parts.map((part) => scalarText(part(s), 'a template string')).join('');
    }
    case 'identifier': {
      const name = node.name;
      return (s) => (s.aliases && Object.hasOwn(s.aliases, name) ? s.aliases[name] : (s.env[name] ?? null));
    }
    case 'pointer':
      return (s) => s.pointer;
    case 'root':
      return (s) => s.env;
    case 'array': {
      const items = node.items.map(compileNode);
      return (s) => items.map((item) => item(s));
    }
    case 'object': {
      const entries = node.entries.map(({ key, value }) => [compileNode(key), compileNode(value)] as const);
      return (s) => {
        const out: Record<string, unknown> = {};
        for (const [key, value] of entries) out[textOf(key(s))] = value(s);
        return out;
      };
    }
    case 'interval': {
      const [left, right] = [compileNode(node.left), compileNode(node.right)];
      const { leftClosed, rightClosed } = node;
      return (s) => new ZenInterval(left(s), right(s), leftClosed, rightClosed);
    }
    case 'member': {
      const [object, property] = [compileNode(node.object), compileNode(node.property)];
      return (s) => member(object(s), property(s));
    }
    case 'slice': {
      const object = compileNode(node.object);
      const from = node.from && compileNode(node.from);
      const to = node.to && compileNode(node.to);
      return (s) => slice(object(s), optionalNumber(from, s), optionalNumber(to, s));
    }
    case 'unary': {
      const operand = compileNode(node.operand);
      if (node.operator === 'not') return (s) => !boolean(operand(s), "operator 'not'");
      const sign = node.operator === '-' ? -1 : 1;
      return (s) => {
        const value = operand(s);
        if (typeof value !== 'number') fail(`unary '${node.operator}' expects a number, got ${typeName(value)}`);
        return sign * value;
      };
    }
    case 'binary':
      return binary(node.operator, compileNode(node.left), compileNode(node.right));
    case 'conditional': {
      const [condition, whenTrue, whenFalse] = [node.condition, node.whenTrue, node.whenFalse].map(compileNode);
      return (s) => (boolean(condition(s), 'a conditional (? :)') ? whenTrue(s) : whenFalse(s));
    }
    case 'call': {
      const fn = FUNCTIONS[node.name];
      if (!fn) throw new ZenSyntaxError(`unknown function '${node.name}'`, 0);
      const args = node.args.map(compileNode);
      return (s) => fn(args.map((arg) => arg(s)), s.clock);
    }
    case 'closure':
      return closure(node.name, compileNode(node.subject), node.alias, compileNode(node.body));
    case 'method': {
      const method = DATE_METHODS[node.name];
      if (!method) throw new ZenSyntaxError(`unknown method '${node.name}'`, 0);
      const object = compileNode(node.object);
      const args = node.args.map(compileNode);
      const name = node.name;
      return (s) => {
        const target = object(s);
        if (!(target instanceof ZenDate)) return fail(`${name}() is a date method, called on ${typeName(target)}`);
        return method(target, args.map((arg) => arg(s)), s.clock);
      };
    }
    case 'assignments': {
      const targets = node.targets.map(({ path, value }) => ({ path, value: compileNode(value) }));
      const result = node.result && compileNode(node.result);
      // Without a result expression the answer is what was assigned, not the whole environment.
      return (s) => {
        const assigned: Record<string, unknown> = {};
        for (const { path, value } of targets) {
          const v = value(s);
          assign(s.env, path, v);
          assign(assigned, path, v);
        }
        return result ? result(s) : assigned;
      };
    }
  }
}
