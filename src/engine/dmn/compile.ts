// A DMN model compiled into one evaluation function: `(input data by name, now) -> { decision name: value }`.
// The decision requirements graph is resolved once (across imported models, by namespace and id); each
// evaluation then evaluates the decisions asked for in dependency order, each once, with business knowledge
// models and decision services as FEEL function values invocable from FEEL.
import type { Problem } from '../../rules/problems.ts';
import type { DmnBusinessKnowledgeModel, DmnDecision, DmnDecisionService, DmnInputData, DmnModel } from '../../rules/dmn/model.ts';
import { FeelContext, FeelFunction } from '../feel/index.ts';
import type { FeelValue } from '../feel/index.ts';
import { BoxedCompiler } from './boxed.ts';
import { RequirementsGraph, keyOf } from './drg.ts';
import type { Element, Requirement } from './drg.ts';
import { CompileProblems } from './feel.ts';
import { ModelSet } from './models.ts';
import type { DmnRun, Evaluator, Frame } from './run.ts';
import { frameOf, warn } from './run.ts';
import type { DmnType } from './types.ts';
import { TypeResolver, coerce } from './types.ts';

export interface DmnCompileOptions {
  /** Models the model imports (matched by namespace), and the models those import. */
  imports?: readonly DmnModel[];
}

export interface DmnEvaluateOptions {
  /** The evaluation's instant (epoch ms) for now() and today(). */
  now: number;
  timeZone?: string;
  /** Only these decisions (by name) and what they require; default: every decision of the model. */
  decisions?: readonly string[];
  /** Evaluate this decision service (by name): its inputs from the input data, its output decisions answer. */
  decisionService?: string;
  /** Input data of imported models, by namespace then name. */
  importedInputs?: ReadonlyMap<string, ReadonlyMap<string, FeelValue>>;
}

export interface DmnEvaluation {
  /** Decision name -> value, in the model's order. */
  results: Map<string, FeelValue>;
  /** Why values became null, each naming the element and the expression. */
  warnings: string[];
}

export interface CompiledDmn {
  readonly model: DmnModel;
  /** Problems found while compiling (expressions that do not compile, unknown types, cycles...). */
  readonly problems: Problem[];
  evaluate(inputs: ReadonlyMap<string, FeelValue>, options: DmnEvaluateOptions): DmnEvaluation;
}

interface CompiledDecision {
  key: string;
  decision: DmnDecision;
  model: DmnModel;
  type: DmnType;
  requires: Requirement[];
  logic?: Evaluator;
  /** The logic's value is already coerced to the decision's type (the same typeRef on the expression). */
  typedByLogic?: boolean;
}

interface Invocable {
  key: string;
  name: string;
  make: (state: State) => FeelValue;
}

interface State {
  readonly run: DmnRun;
  /** The run's frame with no names, made once per evaluation for the checks of input data and cycles. */
  readonly frame: Frame;
  readonly values: Map<string, FeelValue>;
  readonly inputs: (key: string) => FeelValue;
  readonly functions: Map<string, FeelValue>;
  readonly evaluating: Set<string>;
  /** Inputs naming no element of the model: variables every decision of the main model sees (Camunda's way). */
  readonly free: ReadonlyMap<string, FeelValue>;
}

const NO_FREE: ReadonlyMap<string, FeelValue> = new Map();

/** Runs a decision's logic; a recursion too deep for the stack (a BKM calling itself without end) is null with a warning. */
function guarded(logic: Evaluator, frame: Frame, path: string): FeelValue {
  try {
    return logic(frame);
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) return warn(frame, path, 'the evaluation recursed too deep (a function calling itself without end?)');
    throw error;
  }
}

export function compileDmn(model: DmnModel, options: DmnCompileOptions = {}): CompiledDmn {
  const models = new ModelSet(model, options.imports ?? []);
  const problems = new CompileProblems();
  const types = new TypeResolver(models, problems);
  const compiler = new BoxedCompiler(types, problems);

  const graph = new RequirementsGraph(models, problems);
  const elements = graph.elements;

  // Decisions, BKMs and services are compiled when first reached: an imported model's unused parts cost nothing.
  const decisions = new Map<string, CompiledDecision>();
  function decisionOf(key: string): CompiledDecision {
    const known = decisions.get(key);
    if (known) return known;
    const { model: owner, element } = elements.get(key) as Element<DmnDecision>;
    const requires = graph.requirements(owner, element.path, [
      [element.requiredDecisions, ['decision']],
      [element.requiredInputs, ['inputData']],
      [element.requiredKnowledge, ['bkm', 'decisionService']],
    ]);
    const compiled: CompiledDecision = { key, decision: element, model: owner, type: types.resolve(element.typeRef, owner, element.path), requires };
    decisions.set(key, compiled);
    if (element.logic) {
      compiled.logic = compiler.compile(element.logic, { model: owner, names: graph.namesOf(requires, owner), resolveType: types.feelTypes(owner) });
      // Coercing twice to one type gives the first coercion's value and warnings: the second is skipped.
      compiled.typedByLogic = compiler.coercesTo(compiled.logic) === compiled.type;
    }
    return compiled;
  }

  const inputTypes = new Map<string, DmnType>();
  function inputTypeOf(key: string): DmnType {
    let type = inputTypes.get(key);
    if (!type) {
      const { model: owner, element } = elements.get(key) as Element<DmnInputData>;
      type = types.resolve(element.typeRef, owner, element.path);
      inputTypes.set(key, type);
    }
    return type;
  }

  const invocables = new Map<string, Invocable>();
  function invocableOf(key: string): Invocable {
    const known = invocables.get(key);
    if (known) return known;
    const found = elements.get(key)!;
    const invocable = found.kind === 'bkm' ? bkm(found as Element<DmnBusinessKnowledgeModel>) : service(found as Element<DmnDecisionService>);
    return invocable;
  }

  function bkm({ key, model: owner, element }: Element<DmnBusinessKnowledgeModel>): Invocable {
    const invocable: Invocable = { key, name: element.name, make: () => null };
    invocables.set(key, invocable);
    const requires = graph.requirements(owner, element.path, [[element.requiredKnowledge, ['bkm', 'decisionService']]]);
    const logic = element.logic;
    if (!logic) {
      invocable.make = (state) => new FeelFunction([], () => warn(frameOf(state.run), element.path, 'the business knowledge model has no logic'), element.name);
      return invocable;
    }
    const fn = compiler.functionDefinition(logic, { model: owner, names: graph.namesOf(requires, owner), resolveType: types.feelTypes(owner) }, element.name);
    invocable.make = (state) => {
      // The BKMs it requires are looked up at its first call, when they all exist: BKMs may call themselves
      // and each other.
      const vars = new Map<string, FeelValue>();
      const inner = fn({ vars, run: state.run });
      if (!(inner instanceof FeelFunction)) return inner;
      let filled = false;
      return new FeelFunction(
        inner.params,
        (args) => {
          if (!filled) {
            filled = true;
            for (const [name, value] of scopeOf(requires, state)) vars.set(name, value);
          }
          return inner.invoke(args);
        },
        element.name,
      );
    };
    return invocable;
  }

  function service({ key, model: owner, element }: Element<DmnDecisionService>): Invocable {
    const invocable: Invocable = { key, name: element.name, make: () => null };
    invocables.set(key, invocable);
    const path = element.path;
    // Parameters: the input data, then the input decisions (DMN 1.5, 6.3.5).
    const inputs = graph.requirements(owner, path, [
      [element.inputData, ['inputData']],
      [element.inputDecisions, ['decision']],
    ]);
    const outputs = graph.requirements(owner, path, [[element.outputDecisions, ['decision']]]);
    const type = types.resolve(element.typeRef, owner, path);
    invocable.make = (state) =>
      new FeelFunction(
        inputs.map((input) => input.name),
        (args) => {
          const values = new Map<string, FeelValue>();
          const frame = state.frame;
          for (const [index, input] of inputs.entries()) {
            const arg = args[index] ?? null;
            const type = input.kind === 'inputData' ? inputTypeOf(input.key) : decisionOf(input.key).type;
            const value = coerce(arg, type, frame, `${path}.${input.kind === 'inputData' ? 'inputData' : 'inputDecision'} '${input.name}'`);
            // An argument that does not conform to its input's type fails the invocation.
            if (value === null && arg !== null) return null;
            values.set(input.key, value);
          }
          const inner: State = {
            run: state.run,
            frame: state.frame,
            values,
            inputs: (inputKey) => values.get(inputKey) ?? null,
            functions: new Map(),
            evaluating: new Set(),
            free: NO_FREE,
          };
          const results = outputs.map((output) => [output.name, evaluateDecision(output.key, inner)] as const);
          const value = results.length === 1 ? results[0]![1] : new FeelContext(results);
          return coerce(value, type, state.frame, path);
        },
        element.name,
      );
    return invocable;
  }

  /** The variables an element sees: its requirements by name, imported ones inside a context named by the prefix. */
  function scopeOf(requires: Requirement[], state: State): Map<string, FeelValue> {
    const vars = new Map<string, FeelValue>();
    for (const required of requires) {
      const value =
        required.kind === 'decision'
          ? evaluateDecision(required.key, state)
          : required.kind === 'inputData'
            ? inputValue(required.key, state)
            : functionValue(required.key, state);
      if (required.prefix === undefined) {
        vars.set(required.name, value);
      } else {
        let context = vars.get(required.prefix);
        if (!(context instanceof FeelContext)) {
          context = new FeelContext();
          vars.set(required.prefix, context);
        }
        context.entries.set(required.name, value);
        // FEEL reads `prefix.Some Name` as one name when it knows it (names with spaces need that).
        vars.set(`${required.prefix}.${required.name}`, value);
      }
    }
    return vars;
  }

  function inputValue(key: string, state: State): FeelValue {
    if (state.values.has(key)) return state.values.get(key) ?? null;
    const { element } = elements.get(key) as Element<DmnInputData>;
    const value = coerce(state.inputs(key), inputTypeOf(key), state.frame, element.path);
    state.values.set(key, value);
    return value;
  }

  function functionValue(key: string, state: State): FeelValue {
    let fn = state.functions.get(key);
    if (fn === undefined) {
      const invocable = invocableOf(key);
      // Set before making: a BKM that requires itself (recursion) finds its own function.
      state.functions.set(key, null);
      fn = invocable.make(state);
      state.functions.set(key, fn);
    }
    return fn;
  }

  function evaluateDecision(key: string, state: State): FeelValue {
    if (state.values.has(key)) return state.values.get(key) ?? null;
    const compiled = decisionOf(key);
    const path = compiled.decision.path;
    if (state.evaluating.has(key)) return warn(state.frame, path, 'the decision requires itself (a cycle)');
    state.evaluating.add(key);
    const vars = scopeOf(compiled.requires, state);
    if (compiled.model === model && state.free.size > 0) for (const [name, value] of state.free) if (!vars.has(name)) vars.set(name, value);
    const frame: Frame = { vars, run: state.run };
    const raw = compiled.logic ? guarded(compiled.logic, frame, path) : warn(frame, path, 'the decision has no logic');
    const value = compiled.typedByLogic ? raw : coerce(raw, compiled.type, frame, path);
    state.evaluating.delete(key);
    state.values.set(key, value);
    return value;
  }

  // Compile the whole main model now, so its problems are known before the first evaluation.
  for (const decision of model.decisions) decisionOf(keyOf(model, decision.id));
  for (const element of [...model.businessKnowledgeModels, ...model.decisionServices]) invocableOf(keyOf(model, element.id));
  for (const input of model.inputData) inputTypeOf(keyOf(model, input.id));
  findCycles();

  function findCycles(): void {
    const done = new Set<string>();
    const visiting = new Set<string>();
    const visit = (key: string): void => {
      if (done.has(key)) return;
      if (visiting.has(key)) {
        problems.add(decisionOf(key).decision.path, 'the decision requires itself (a cycle)');
        return;
      }
      visiting.add(key);
      for (const required of decisionOf(key).requires) if (required.kind === 'decision') visit(required.key);
      visiting.delete(key);
      done.add(key);
    };
    for (const decision of model.decisions) visit(keyOf(model, decision.id));
  }

  // A decision of the main model may be given a value by name, like input data (the TCK does so): it is then
  // not evaluated. Input data of the same name win.
  const givenDecisions = model.decisions.filter((decision) => !model.inputData.some((input) => input.name === decision.name));

  // Models from engines that read process variables (Camunda) refer to inputs without input data elements.
  const elementNames = new Set([...model.inputData, ...model.decisions, ...model.businessKnowledgeModels, ...model.decisionServices].map((element) => element.name));

  function newState(inputs: ReadonlyMap<string, FeelValue>, options: DmnEvaluateOptions, run: DmnRun): State {
    const values = new Map<string, FeelValue>();
    for (const decision of givenDecisions) if (inputs.has(decision.name)) values.set(keyOf(model, decision.id), inputs.get(decision.name) ?? null);
    // Made only when an input names no element: most evaluations have none and share the empty map.
    let free: Map<string, FeelValue> | undefined;
    for (const [name, value] of inputs) if (!elementNames.has(name)) (free ??= new Map()).set(name, value);
    return {
      run,
      frame: frameOf(run),
      values,
      free: free ?? NO_FREE,
      functions: new Map(),
      evaluating: new Set(),
      inputs: (key) => {
        const { model: owner, element } = elements.get(key) as Element<DmnInputData>;
        if (owner === model) return inputs.get(element.name) ?? null;
        return options.importedInputs?.get(owner.namespace)?.get(element.name) ?? null;
      },
    };
  }

  // Keys made once: a key built per evaluation is a new string that every map lookup hashes again.
  const everyDecision = model.decisions.map((decision) => keyOf(model, decision.id));
  const everyDecisionName = model.decisions.map((decision) => decision.name);

  const byName = (list: readonly { name: string; id: string }[], name: string, what: string) => {
    const found = list.find((element) => element.name === name);
    if (!found) throw new Error(`the model '${model.name}' has no ${what} named '${name}'`);
    return keyOf(model, found.id);
  };

  return {
    model,
    problems: problems.list,
    evaluate(inputs, options) {
      // No spread: an object spread per evaluation costs more than the small tables it evaluates.
      const run: DmnRun = options.timeZone ? { now: options.now, warnings: [], timeZone: options.timeZone } : { now: options.now, warnings: [] };
      const results = new Map<string, FeelValue>();
      if (options.decisionService !== undefined) {
        const key = byName(model.decisionServices, options.decisionService, 'decision service');
        const state = newState(inputs, options, run);
        const fn = functionValue(key, state) as FeelFunction;
        const value = fn.invoke(fn.params.map((param) => inputs.get(param) ?? null));
        const outputs = model.decisionServices.find((element) => keyOf(model, element.id) === key)!.outputDecisions;
        outputs.forEach((reference) => {
          const target = models.byNamespace(reference.namespace, model);
          const decision = target && elements.get(keyOf(target, reference.id));
          if (!decision) return;
          const name = decision.element.name;
          results.set(name, outputs.length === 1 ? value : value instanceof FeelContext ? (value.get(name) ?? null) : null);
        });
        return { results, warnings: run.warnings };
      }
      const state = newState(inputs, options, run);
      if (!options.decisions) {
        for (let index = 0; index < everyDecision.length; index++) results.set(everyDecisionName[index]!, evaluateDecision(everyDecision[index]!, state));
        return { results, warnings: run.warnings };
      }
      for (const key of options.decisions.map((name) => byName(model.decisions, name, 'decision'))) results.set(decisionOf(key).decision.name, evaluateDecision(key, state));
      return { results, warnings: run.warnings };
    },
  };
}
