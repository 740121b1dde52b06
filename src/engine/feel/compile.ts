// Compiles a FEEL syntax tree to closures: each node becomes a function of the environment, built once, so an
// evaluation runs no tree walk. Runtime type errors give null (FEEL semantics) and a warning in the scope.
import { add, divide, multiply, negate, power, subtract } from './arithmetic.ts';
import { FeelSyntaxError, type Comparator, type FeelNode, type Iterator } from './ast.ts';
import { callFunction } from './builtin.ts';
import { feelCompare, feelEquals, inRange } from './compare.ts';
import { Env, frameOf } from './env.ts';
import { propertyOf } from './properties.ts';
import { parseDate, parseDateTime, parseDuration, parseTime } from './temporal.ts';
import { coerce, instanceOf, parseType, resolveType, type FeelType } from './types.ts';
import { FeelContext, FeelDate, FeelDaysTimeDuration, FeelFunction, FeelNumber, FeelRange, isNumber, type FeelValue } from './values.ts';

export type Code = (env: Env) => FeelValue;

/** The most items a `for` over a range (`1..n`) makes: beyond it the loop is null, not a process out of memory. */
const MAX_ITERATION = 1_000_000;
const MAX_TREE_DEPTH = 1000;
/** A compiled unary test: does the input pass? */
export type TestCode = (input: FeelValue, env: Env) => boolean | null;

/** The value of `@"..."`: a date, time, date and time or duration; a syntax error otherwise. */
export function temporalLiteral(text: string, at: number): FeelValue {
  const value = /^-?P/.test(text) ? parseDuration(text) : /^-?\d+-\d\d-\d\dT/.test(text) ? parseDateTime(text) : (parseDate(text) ?? parseTime(text));
  if (value === null) throw new FeelSyntaxError(`"${text}" is not a date, time, date and time or duration`, at);
  return value;
}

function and(a: FeelValue, b: () => FeelValue): FeelValue {
  if (a === false) return false;
  const right = b();
  if (right === false) return false;
  return a === true && right === true ? true : null;
}

function or(a: FeelValue, b: () => FeelValue): FeelValue {
  if (a === true) return true;
  const right = b();
  if (right === true) return true;
  return a === false && right === false ? false : null;
}

export function compareWith(op: Comparator, a: FeelValue, b: FeelValue): boolean | null {
  if (op === '=') return feelEquals(a, b);
  if (op === '!=') {
    const same = feelEquals(a, b);
    return same === null ? null : !same;
  }
  const order = feelCompare(a, b);
  if (order === null) return null;
  if (op === '<') return order < 0;
  if (op === '<=') return order <= 0;
  if (op === '>') return order > 0;
  return order >= 0;
}

/** Whether a node reads `?` (then a boolean result is the test's answer, not a value to compare with). */
function readsInput(node: FeelNode): boolean {
  if (node.t === 'name') return node.name === '?';
  for (const value of Object.values(node)) {
    if (value && typeof value === 'object') {
      if (Array.isArray(value)) {
        for (const item of value) {
          if (Array.isArray(item) ? item.some((x) => x && typeof x === 'object' && 't' in x && readsInput(x as FeelNode)) : item && typeof item === 'object' && 't' in item && readsInput(item as FeelNode)) return true;
          if (item && typeof item === 'object' && 'domain' in item) {
            const iterator = item as Iterator;
            if (readsInput(iterator.domain) || (iterator.to && readsInput(iterator.to))) return true;
          }
        }
      } else if ('t' in value && readsInput(value as FeelNode)) return true;
    }
  }
  return false;
}

/** Does `input` pass the test whose value is `result`? (DMN 1.5, 10.3.2.12 unary test semantics.) */
export function passes(input: FeelValue, result: FeelValue, booleanAnswers: boolean): boolean | null {
  if (result instanceof FeelRange) return inRange(input, result);
  if (booleanAnswers && typeof result === 'boolean') return result;
  if (Array.isArray(result)) {
    if (Array.isArray(input) && feelEquals(input, result) === true) return true;
    // a list holds the input when one item equals it (or is a range holding it); items of other kinds do not
    for (const item of result) {
      const ok = item instanceof FeelRange ? inRange(input, item) : feelEquals(input, item);
      if (ok === true) return true;
    }
    return false;
  }
  if (typeof result === 'boolean' && typeof input !== 'boolean' && input !== null) return result;
  return feelEquals(input, result);
}

export class Compiler {
  readonly #functions: ReadonlyMap<string, FeelFunction>;
  readonly #resolveType: ((name: string) => FeelType | undefined) | undefined;
  #depth = 0;

  /**
   * `functions`: the built-in functions, found by name when no variable in scope has it; `resolveType`: the
   * host's named types (DMN item definitions) for `instance of` and typed parameters.
   */
  constructor(functions: ReadonlyMap<string, FeelFunction>, resolveType?: (name: string) => FeelType | undefined) {
    this.#functions = functions;
    this.#resolveType = resolveType;
  }

  #type(text: string, at: number): FeelType {
    try {
      return resolveType(parseType(text), this.#resolveType);
    } catch (error) {
      throw new FeelSyntaxError((error as Error).message, at);
    }
  }

  /** Compiles a node; a tree deeper than MAX_TREE_DEPTH (`1 + 1 + ... + 1`) is refused, as evaluating it would overflow the stack. */
  compile(node: FeelNode): Code {
    if (++this.#depth > MAX_TREE_DEPTH) throw new FeelSyntaxError(`the expression is deeper than ${MAX_TREE_DEPTH} operations`, node.at);
    try {
      return this.#compile(node);
    } finally {
      this.#depth--;
    }
  }

  #compile(node: FeelNode): Code {
    switch (node.t) {
      case 'number': {
        const value = new FeelNumber(node.text);
        return () => value;
      }
      case 'string': {
        const value = node.value;
        return () => value;
      }
      case 'boolean': {
        const value = node.value;
        return () => value;
      }
      case 'null':
        return () => null;
      case 'temporal': {
        const value = temporalLiteral(node.text, node.at);
        return () => value;
      }
      case 'name':
        return this.#name(node.name);
      case 'arith': {
        const left = this.compile(node.left);
        const right = this.compile(node.right);
        const op = { '+': add, '-': subtract, '*': multiply, '/': divide, '**': power }[node.op];
        return (env) => op(left(env), right(env));
      }
      case 'negate': {
        const operand = this.compile(node.operand);
        return (env) => negate(operand(env));
      }
      case 'compare': {
        const left = this.compile(node.left);
        const right = this.compile(node.right);
        const op = node.op;
        return (env) => compareWith(op, left(env), right(env));
      }
      case 'and': {
        const left = this.compile(node.left);
        const right = this.compile(node.right);
        return (env) => and(left(env), () => right(env));
      }
      case 'or': {
        const left = this.compile(node.left);
        const right = this.compile(node.right);
        return (env) => or(left(env), () => right(env));
      }
      case 'between': {
        const value = this.compile(node.value);
        const low = this.compile(node.low);
        const high = this.compile(node.high);
        return (env) => {
          const v = value(env);
          return and(compareWith('>=', v, low(env)), () => compareWith('<=', v, high(env)));
        };
      }
      case 'in': {
        const value = this.compile(node.value);
        const tests = this.compileTests(node.tests);
        return (env) => tests(value(env), env);
      }
      case 'instanceOf': {
        const value = this.compile(node.value);
        const type = this.#type(node.type, node.at);
        return (env) => instanceOf(value(env), type);
      }
      case 'if': {
        const condition = this.compile(node.condition);
        const then = this.compile(node.then);
        const otherwise = this.compile(node.else);
        return (env) => (condition(env) === true ? then(env) : otherwise(env));
      }
      case 'for':
        return this.#for(node.iterators, this.compile(node.body));
      case 'some':
      case 'every':
        return this.#quantified(node.t, node.iterators, this.compile(node.condition));
      case 'filter':
        return this.#filter(this.compile(node.list), this.compile(node.condition));
      case 'path': {
        const value = this.compile(node.value);
        const name = node.name;
        return (env) => propertyOf(value(env), name, env);
      }
      case 'call':
        return this.#call(node);
      case 'list': {
        const items = node.items.map((item) => this.compile(item));
        return (env) => items.map((item) => item(env));
      }
      case 'context': {
        const entries = node.entries.map(([key, value]) => [key, this.compile(value)] as const);
        return (env) => {
          const frame = new Map<string, FeelValue>();
          const inner = env.child(frame);
          for (const [key, value] of entries) frame.set(key, value(inner));
          return new FeelContext(frame);
        };
      }
      case 'function': {
        if (node.external) return (env) => env.warn('external functions are not supported');
        const body = this.compile(node.body);
        const params = node.params;
        const types = node.types.map((text) => (text === null ? null : this.#type(text, node.at)));
        return (env) =>
          new FeelFunction(params, (args) => {
            const frame = new Map<string, FeelValue>();
            for (let i = 0; i < params.length; i++) {
              const type = types[i];
              const arg = args[i] ?? null;
              const value = type ? coerce(arg, type) : arg;
              if (value === undefined) return env.warn(`the argument "${params[i]}" is not a ${node.types[i]}`);
              frame.set(params[i]!, value);
            }
            return body(env.child(frame));
          });
      }
      case 'range': {
        const start = node.start ? this.compile(node.start) : () => undefined;
        const end = node.end ? this.compile(node.end) : () => undefined;
        const { startIncluded, endIncluded } = node;
        if (isLiteral(node.start) && isLiteral(node.end)) {
          // a range of literals (a decision table's `[18..65)`) is built once
          const range = makeRange(start(Env.root({})), end(Env.root({})), startIncluded, endIncluded, Env.root({}));
          return (env) => (range === null ? makeRange(start(env), end(env), startIncluded, endIncluded, env) : range);
        }
        return (env) => makeRange(start(env), end(env), startIncluded, endIncluded, env);
      }
      case 'unaryCompare': {
        const value = this.compile(node.value);
        const op = node.op;
        return (env) => {
          const v = value(env);
          if (op === '<' || op === '<=') return new FeelRange(undefined, v, false, op === '<=');
          if (op === '>' || op === '>=') return new FeelRange(v, undefined, op === '>=', false);
          // `= 10` is the range [10..10] made by a test: it has the range's properties but does not equal the
          // literal [10..10] (as the TCK expects); `!= 10` is no range
          if (op === '=') return new FeelRange(v, v, true, true, true);
          return env.warn('"!=" makes a test, not a range');
        };
      }
      case 'anyValue':
      case 'not':
        throw new FeelSyntaxError(node.t === 'not' ? '"not(...)" is only a unary test' : '"-" is only a unary test', node.at);
    }
  }

  /** A list of positive unary tests: passes when one passes; null when none passes and one could not tell. */
  compileTests(tests: FeelNode[]): TestCode {
    const compiled = tests.map((test) => this.#test(test));
    if (compiled.length === 1) return compiled[0]!;
    return (input, env) => {
      let unknown = false;
      for (const test of compiled) {
        const ok = test(input, env);
        if (ok === true) return true;
        if (ok === null) unknown = true;
      }
      return unknown ? null : false;
    };
  }

  #test(node: FeelNode): TestCode {
    if (node.t === 'anyValue') return () => true;
    if (node.t === 'not') {
      const inner = this.compileTests(node.tests);
      return (input, env) => {
        const ok = inner(input, env);
        return ok === null ? null : !ok;
      };
    }
    if (node.t === 'unaryCompare') {
      const value = this.compile(node.value);
      const op = node.op;
      return (input, env) => compareWith(op, input, value(env));
    }
    const value = this.compile(node);
    if (!readsInput(node)) return (input, env) => passes(input, value(env), false);
    return (input, env) => passes(input, value(env.child(new Map([['?', input]]))), true);
  }

  #name(name: string): Code {
    const builtin = this.#functions.get(name);
    return (env) => {
      const value = env.lookup(name);
      if (value !== undefined) return value;
      if (builtin) return builtin;
      return env.warn(`no variable named "${name}"`);
    };
  }

  #for(iterators: Iterator[], body: Code): Code {
    const domains = iterators.map((it) => ({ name: it.name, from: this.compile(it.domain), to: it.to ? this.compile(it.to) : null }));
    return (env) => {
      const results: FeelValue[] = [];
      const loop = (index: number, frame: Map<string, FeelValue>): boolean => {
        if (index === domains.length) {
          frame.set('partial', results.slice());
          results.push(body(env.child(new Map(frame))));
          return true;
        }
        const domain = domains[index]!;
        const inner = env.child(frame);
        const items = iterationItems(domain.from(inner), domain.to ? domain.to(inner) : undefined);
        if (items === null) return false;
        for (const item of items) {
          frame.set(domain.name, item);
          if (!loop(index + 1, frame)) return false;
        }
        frame.delete(domain.name);
        return true;
      };
      return loop(0, new Map()) ? results : env.warn('a "for" iterates over something that is not a list or a range of integers');
    };
  }

  #quantified(kind: 'some' | 'every', iterators: Iterator[], condition: Code): Code {
    const domains = iterators.map((it) => ({ name: it.name, from: this.compile(it.domain), to: it.to ? this.compile(it.to) : null }));
    return (env) => {
      let found = false;
      const loop = (index: number, frame: Map<string, FeelValue>): boolean => {
        if (index === domains.length) {
          const ok = condition(env.child(new Map(frame)));
          if (kind === 'some' ? ok === true : ok !== true) found = true;
          return !found;
        }
        const domain = domains[index]!;
        const inner = env.child(frame);
        const items = iterationItems(domain.from(inner), domain.to ? domain.to(inner) : undefined) ?? [];
        for (const item of items) {
          frame.set(domain.name, item);
          if (!loop(index + 1, frame)) return false;
        }
        return true;
      };
      loop(0, new Map());
      return kind === 'some' ? found : !found;
    };
  }

  #filter(list: Code, condition: Code): Code {
    return (env) => {
      const value = list(env);
      const items = Array.isArray(value) ? value : [value];
      // an index: a number that does not depend on the item (probe without the item in scope)
      const probe = condition(env.silenced().child(new Map([['item', null]])));
      if (isNumber(probe)) {
        const index = probe.trunc().toNumber();
        if (!probe.isInteger() || index === 0) return null;
        const item = index > 0 ? items[index - 1] : items[items.length + index];
        return item === undefined ? null : item;
      }
      const out: FeelValue[] = [];
      for (const item of items) {
        const frame = new Map<string, FeelValue>([['item', item], ...(frameOf(item) ?? [])]);
        const ok = condition(env.child(frame));
        if (ok === true) out.push(item);
        else if (isNumber(ok)) return env.warn('a filter gave a number for some items and a condition for others');
      }
      return out;
    };
  }

  #call(node: Extract<FeelNode, { t: 'call' }>): Code {
    const fn = this.compile(node.fn);
    const args = node.args.map((arg) => this.compile(arg));
    const named = node.named?.map(([name, value]) => [name, this.compile(value)] as const) ?? null;
    const label = node.fn.t === 'name' ? node.fn.name : 'function';
    return (env) => {
      const target = fn(env);
      if (!(target instanceof FeelFunction)) return env.warn(`"${label}" is not a function`);
      if (named) return callFunction(target, new Map(named.map(([name, value]) => [name, value(env)])), env);
      return callFunction(
        target,
        args.map((arg) => arg(env)),
        env,
      );
    };
  }
}

/** A literal endpoint: its value never depends on the scope. */
function isLiteral(node: FeelNode | null): boolean {
  if (node === null) return true;
  if (node.t === 'negate') return isLiteral(node.operand);
  return node.t === 'number' || node.t === 'string' || node.t === 'temporal' || node.t === 'boolean' || node.t === 'null';
}

/** A range from two endpoints of the same comparable kind; null otherwise. */
export function makeRange(start: FeelValue | undefined, end: FeelValue | undefined, startIncluded: boolean, endIncluded: boolean, env: Env): FeelValue {
  if (start !== undefined && end !== undefined && start !== null && end !== null && feelCompare(start, end) === null) return env.warn('a range needs two endpoints of the same comparable kind');
  return new FeelRange(start, end, startIncluded, endIncluded);
}

/** The items a `for` or quantifier iterates over: a list, `a..b` of integers, or an integer range. */
function iterationItems(from: FeelValue, to: FeelValue | undefined): FeelValue[] | null {
  if (to !== undefined) return integerSpan(from, to);
  if (Array.isArray(from)) return from;
  if (from instanceof FeelRange && isNumber(from.start) && isNumber(from.end) && from.start.isInteger() && from.end.isInteger()) {
    let start = from.start;
    let end = from.end;
    if (start.gt(end)) return null;
    if (!from.startIncluded) start = start.plus(1);
    if (!from.endIncluded) end = end.minus(1);
    return start.gt(end) ? [] : integerSpan(start, end);
  }
  if (from instanceof FeelRange) return null;
  if (from === null) return null;
  return [from];
}

function integerSpan(from: FeelValue, to: FeelValue): FeelValue[] | null {
  if (from instanceof FeelDate && to instanceof FeelDate) {
    const days = subtract(to, from);
    if (!(days instanceof FeelDaysTimeDuration)) return null;
    const count = days.seconds.dividedBy(86400).toNumber();
    if (Math.abs(count) > MAX_ITERATION) return null;
    const step = new FeelDaysTimeDuration(new FeelNumber(count >= 0 ? 86400 : -86400));
    const out: FeelValue[] = [from];
    for (let i = 0; i < Math.abs(count); i++) out.push(add(out[out.length - 1]!, step));
    return out;
  }
  if (!isNumber(from) || !isNumber(to) || !from.isInteger() || !to.isInteger()) return null;
  const a = from.toNumber();
  const b = to.toNumber();
  if (Math.abs(b - a) > MAX_ITERATION) return null;
  const out: FeelValue[] = [];
  if (a <= b) for (let i = a; i <= b; i++) out.push(new FeelNumber(i));
  else for (let i = a; i >= b; i--) out.push(new FeelNumber(i));
  return out;
}
