// Boxed expressions compiled to evaluators (closures over the frame): literal expressions, contexts, lists,
// relations, invocations, function definitions, conditionals, iterators and filters; decision tables are
// decision-table.ts. Each reports what makes a value null with its path (decision and expression).
import type {
  DmnContext,
  DmnExpression,
  DmnFilter,
  DmnFunctionDefinition,
  DmnInvocation,
  DmnIterator,
} from '../../rules/dmn/model.ts';
import { FeelContext, FeelFunction } from '../feel/index.ts';
import type { FeelValue } from '../feel/index.ts';
import { compileDecisionTable } from './decision-table.ts';
import type { CompileProblems } from './feel.ts';
import type { CompileScope, TypedCompiler } from './scope.ts';
import { feelExpression } from './feel.ts';
import type { Evaluator, Frame } from './run.ts';
import { extend, warn } from './run.ts';
import type { DmnType, TypeResolver } from './types.ts';
import { coerce } from './types.ts';

export class BoxedCompiler implements TypedCompiler {
  readonly types: TypeResolver;
  readonly problems: CompileProblems;
  readonly #typed = new WeakMap<Evaluator, DmnType>();

  constructor(types: TypeResolver, problems: CompileProblems) {
    this.types = types;
    this.problems = problems;
  }

  /** The expression's evaluator; a typeRef on the expression converts and checks its value (null when it does not conform). */
  compile(expression: DmnExpression, scope: CompileScope): Evaluator {
    const evaluator = this.#compileKind(expression, scope);
    if (!expression.typeRef || expression.kind === 'function') return evaluator;
    const type = this.type(expression.typeRef, scope, expression.path);
    const typed: Evaluator = (frame) => coerce(evaluator(frame), type, frame, expression.path);
    this.#typed.set(typed, type);
    return typed;
  }

  /** The type an evaluator of `compile` already coerces its value to (a decision of the same type need not again). */
  coercesTo(evaluator: Evaluator): DmnType | undefined {
    return this.#typed.get(evaluator);
  }

  #compileKind(expression: DmnExpression, scope: CompileScope): Evaluator {
    switch (expression.kind) {
      case 'literal':
        return feelExpression(expression.text, scope, expression.path, this.problems);
      case 'decisionTable':
        return compileDecisionTable(expression, scope, this);
      case 'context':
        return this.#context(expression, scope);
      case 'list': {
        const elements = expression.elements.map((element) => this.compile(element, scope));
        return (frame) => elements.map((element) => element(frame));
      }
      case 'relation': {
        const columns = expression.columns.map((column) => column.name);
        const rows = expression.rows.map((row, index) => {
          if (row.length !== columns.length) this.problems.add(`${expression.path}.row[${index}]`, `the row has ${row.length} cells for ${columns.length} columns`);
          return row.map((cell) => this.compile(cell, scope));
        });
        return (frame) => rows.map((row) => new FeelContext(columns.map((column, index) => [column, row[index]?.(frame) ?? null] as const)));
      }
      case 'invocation':
        return this.#invocation(expression, scope);
      case 'function':
        return this.functionDefinition(expression, scope, expression.path);
      case 'conditional': {
        const condition = this.compile(expression.if, scope);
        const then = this.compile(expression.then, scope);
        const otherwise = this.compile(expression.else, scope);
        return (frame) => {
          const test = condition(frame);
          if (test === true) return then(frame);
          if (test === false || test === null) return otherwise(frame);
          return warn(frame, expression.path, 'the condition is not a boolean');
        };
      }
      case 'iterator':
        return this.#iterator(expression, scope);
      case 'filter':
        return this.#filter(expression, scope);
    }
  }

  type(typeRef: string | undefined, scope: CompileScope, path: string): DmnType {
    return this.types.resolve(typeRef, scope.model, path);
  }

  #context(expression: DmnContext, scope: CompileScope): Evaluator {
    const names = [...scope.names];
    const entries = expression.entries.map((entry, index) => {
      // A function entry sees its own name (recursion) and the entries before it.
      if (entry.name) names.push(entry.name);
      const path = `${expression.path}.contextEntry[${index}]${entry.name ? ` '${entry.name}'` : ''}`;
      return {
        name: entry.name,
        path,
        type: this.type(entry.typeRef, scope, path),
        value: this.compile(entry.value, { ...scope, names: [...names] }),
      };
    });
    const result = entries.at(-1)?.name === undefined ? entries.at(-1) : undefined;
    return (frame) => {
      // One map per evaluation, filled entry by entry: functions defined in it see the entries after them too.
      const vars = new Map(frame.vars);
      const inner: Frame = { vars, run: frame.run };
      const context = new FeelContext();
      for (const entry of entries) {
        const value = coerce(entry.value(inner), entry.type, inner, entry.path);
        if (entry === result) return value;
        if (entry.name !== undefined) {
          vars.set(entry.name, value);
          context.entries.set(entry.name, value);
        }
      }
      return context;
    };
  }

  #invocation(expression: DmnInvocation, scope: CompileScope): Evaluator {
    const path = expression.path;
    const callee = feelExpression(expression.callee || 'null', scope, `${path}.calledFunction`, this.problems);
    const bindings = expression.bindings.map((binding) => ({
      name: binding.name,
      value: binding.value ? this.compile(binding.value, scope) : () => null,
    }));
    return (frame) => {
      const fn = callee(frame);
      if (!(fn instanceof FeelFunction)) return warn(frame, path, `'${expression.callee}' is not a function`);
      const args = new Map<string, FeelValue>();
      for (const binding of bindings) {
        if (!fn.params.includes(binding.name)) return warn(frame, path, `'${expression.callee}' has no parameter '${binding.name}'`);
        args.set(binding.name, binding.value(frame));
      }
      return fn.invoke(fn.params.map((param) => args.get(param) ?? null));
    };
  }

  /** A function value: FEEL kind only; Java and PMML functions are a clear problem, then null. */
  functionDefinition(expression: DmnFunctionDefinition, scope: CompileScope, name: string): Evaluator {
    const path = expression.path;
    if (expression.functionKind !== 'FEEL') {
      const reason = `${expression.functionKind} functions are not supported (only FEEL functions)`;
      this.problems.add(path, reason);
      return (frame) => warn(frame, path, reason);
    }
    const params = expression.parameters.map((parameter) => ({
      name: parameter.name,
      type: this.type(parameter.typeRef, scope, `${path}.parameter '${parameter.name}'`),
    }));
    const result = this.type(expression.typeRef, scope, path);
    const body = expression.body
      ? this.compile(expression.body, { ...scope, names: [...scope.names, ...params.map((param) => param.name)] })
      : (frame: Frame) => warn(frame, path, 'the function has no body');
    return (frame) =>
      new FeelFunction(
        params.map((param) => param.name),
        (args) => {
          const values: [string, FeelValue][] = [];
          for (const [index, param] of params.entries()) {
            const arg = args[index] ?? null;
            const value = coerce(arg, param.type, frame, `${path}.parameter '${param.name}'`);
            // An argument that does not conform to its parameter's type fails the invocation.
            if (value === null && arg !== null) return null;
            values.push([param.name, value]);
          }
          const inner = extend(frame, values);
          return coerce(body(inner), result, inner, path);
        },
        name,
      );
  }

  #iterator(expression: DmnIterator, scope: CompileScope): Evaluator {
    const source = this.compile(expression.in, scope);
    const body = this.compile(expression.body, { ...scope, names: [...scope.names, expression.variable] });
    const variable = expression.variable;
    return (frame) => {
      const value = source(frame);
      const items = Array.isArray(value) ? value : [value];
      const results = items.map((item) => body(extend(frame, [[variable, item]])));
      if (expression.quantifier === 'for') return results;
      if (results.some((result) => typeof result !== 'boolean')) return warn(frame, expression.path, `a ${expression.quantifier} condition is not a boolean`);
      return expression.quantifier === 'some' ? results.includes(true) : !results.includes(false);
    };
  }

  #filter(expression: DmnFilter, scope: CompileScope): Evaluator {
    const source = this.compile(expression.in, scope);
    const match = this.compile(expression.match, { ...scope, names: [...scope.names, 'item'] });
    return (frame) => {
      const value = source(frame);
      if (value === null) return null;
      const items = Array.isArray(value) ? value : [value];
      const kept: FeelValue[] = [];
      for (const item of items) {
        const entries: [string, FeelValue][] = item instanceof FeelContext ? [...item.entries] : [];
        const matched = match(extend(frame, [...entries, ['item', item]]));
        if (matched !== true && matched !== false && matched !== null) return warn(frame, expression.path, 'the match is not a boolean');
        if (matched === true) kept.push(item);
      }
      return kept;
    };
  }
}

