// From dmn-moddle's element tree to the typed DMN model (model.ts), reporting what is malformed or unsupported
// with the path of the element. Unknown vendor extensions are ignored.
import type { ModdleElement } from 'dmn-moddle';
import type { Problem } from '../problems.ts';
import { AGGREGATORS, FUNCTION_KINDS, HIT_POLICIES } from './model.ts';
import type {
  DmnAggregator,
  DmnBusinessKnowledgeModel,
  DmnDecision,
  DmnDecisionService,
  DmnExpression,
  DmnFunctionDefinition,
  DmnFunctionKind,
  DmnHitPolicy,
  DmnImport,
  DmnInputData,
  DmnItemDefinition,
  DmnModel,
  DmnReference,
  DmnTypedName,
} from './model.ts';

/** FEEL as models name it: the DMN versions' FEEL URIs, DMN 1.1's, and Camunda's short `feel`. */
const FEEL_LANGUAGES = /^(?:https?:\/\/www\.omg\.org\/spec\/DMN\/\d+\/FEEL\/?|https?:\/\/www\.omg\.org\/spec\/FEEL\/\d+|feel)$/i;

type El = ModdleElement;

function localType(element: El | undefined): string {
  return element ? element.$type.slice(element.$type.indexOf(':') + 1) : '';
}
function str(element: El | undefined, property: string): string | undefined {
  const value = element?.[property];
  return typeof value === 'string' ? value : undefined;
}
function many(element: El | undefined, property: string): El[] {
  const value = element?.[property];
  return Array.isArray(value) ? (value as El[]) : [];
}
function one(element: El | undefined, property: string): El | undefined {
  const value = element?.[property];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as El) : undefined;
}
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export class DmnConverter {
  readonly problems: Problem[] = [];

  #problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  definitions(root: El): DmnModel {
    const name = str(root, 'name') ?? '';
    const namespace = str(root, 'namespace') ?? '';
    if (!namespace) this.#problem('definitions', 'the model has no namespace');
    const drg = many(root, 'drgElement');
    const of = (type: string) => drg.filter((element) => localType(element) === type);
    const model: DmnModel = {
      name,
      namespace,
      ...optional('id', str(root, 'id')),
      imports: many(root, 'import').map((element, index) => this.#import(element, `definitions.import[${index}]`)),
      itemDefinitions: many(root, 'itemDefinition').map((element) => this.itemDefinition(element, 'itemDefinition')),
      inputData: of('InputData').map((element) => this.#inputData(element)),
      decisions: of('Decision').map((element) => this.#decision(element)),
      businessKnowledgeModels: of('BusinessKnowledgeModel').map((element) => this.#bkm(element)),
      decisionServices: of('DecisionService').map((element) => this.#decisionService(element)),
    };
    this.#checkNames(model);
    return model;
  }

  #checkNames(model: DmnModel): void {
    const seen = new Map<string, string>();
    for (const element of [...model.inputData, ...model.decisions, ...model.businessKnowledgeModels, ...model.decisionServices]) {
      if (!element.name) this.#problem(element.path, 'the element has no name');
      const first = seen.get(element.name);
      if (first !== undefined) this.#problem(element.path, `the name '${element.name}' is also the name of ${first}`);
      else seen.set(element.name, element.path);
    }
  }

  #import(element: El, path: string): DmnImport {
    const namespace = str(element, 'namespace') ?? '';
    if (!namespace) this.#problem(path, 'the import has no namespace');
    return {
      name: str(element, 'name') ?? '',
      namespace,
      importType: str(element, 'importType') ?? '',
      ...optional('locationURI', str(element, 'locationURI')),
    };
  }

  itemDefinition(element: El, prefix: string): DmnItemDefinition {
    const name = str(element, 'name') ?? '';
    const path = `${prefix} '${name}'`;
    const typeRef = str(element, 'typeRef')?.trim();
    const functionItem = one(element, 'functionItem');
    return {
      name,
      path,
      ...optional('typeRef', typeRef || undefined),
      isCollection: element.isCollection === true,
      ...optional('allowedValues', this.#unaryTestsText(one(element, 'allowedValues'), `${path}.allowedValues`)),
      ...optional('typeConstraint', this.#unaryTestsText(one(element, 'typeConstraint'), `${path}.typeConstraint`)),
      components: many(element, 'itemComponent').map((component) => this.itemDefinition(component, `${path}.itemComponent`)),
      ...optional(
        'functionItem',
        functionItem && {
          parameters: many(functionItem, 'parameters').map((parameter) => this.#typedName(parameter)),
          ...optional('outputTypeRef', str(functionItem, 'outputTypeRef')),
        },
      ),
    };
  }

  #typedName(element: El): DmnTypedName {
    return { name: str(element, 'name') ?? '', ...optional('typeRef', str(element, 'typeRef')) };
  }

  #unaryTestsText(element: El | undefined, path: string): string | undefined {
    if (!element) return undefined;
    this.#checkLanguage(element, path);
    return str(element, 'text') ?? '';
  }

  #checkLanguage(element: El, path: string): void {
    const language = str(element, 'expressionLanguage');
    if (language && !FEEL_LANGUAGES.test(language)) this.#problem(path, `the expression language '${language}' is not supported (only FEEL)`);
  }

  #references(elements: El[], property: string, path: string): DmnReference[] {
    const references: DmnReference[] = [];
    for (const element of elements) {
      const reference = one(element, property);
      if (reference) references.push(this.#reference(reference, path));
    }
    return references;
  }

  #reference(element: El, path: string): DmnReference {
    const href = str(element, 'href') ?? '';
    const hash = href.indexOf('#');
    if (hash < 0) {
      this.#problem(path, `the reference '${href}' is not of the form [namespace]#id`);
      return { id: href };
    }
    const namespace = href.slice(0, hash);
    return { ...optional('namespace', namespace || undefined), id: href.slice(hash + 1) };
  }

  /** The element's id; an element without one (no requirement can name it) gets one from its kind and name. */
  #idOf(element: El, name: string): string {
    return str(element, 'id') ?? `${localType(element)}:${name}`;
  }

  #variableType(element: El): string | undefined {
    return str(one(element, 'variable'), 'typeRef');
  }

  #inputData(element: El): DmnInputData {
    const name = str(element, 'name') ?? '';
    return { id: this.#idOf(element, name), name, path: `inputData '${name}'`, ...optional('typeRef', this.#variableType(element)) };
  }

  #decision(element: El): DmnDecision {
    const name = str(element, 'name') ?? '';
    const path = `decision '${name}'`;
    const requirements = many(element, 'informationRequirement');
    const logic = one(element, 'decisionLogic');
    return {
      id: this.#idOf(element, name),
      name,
      path,
      ...optional('typeRef', this.#variableType(element)),
      requiredDecisions: this.#references(requirements, 'requiredDecision', `${path}.informationRequirement`),
      requiredInputs: this.#references(requirements, 'requiredInput', `${path}.informationRequirement`),
      requiredKnowledge: this.#references(many(element, 'knowledgeRequirement'), 'requiredKnowledge', `${path}.knowledgeRequirement`),
      ...optional('logic', logic && this.expression(logic, path)),
    };
  }

  #bkm(element: El): DmnBusinessKnowledgeModel {
    const name = str(element, 'name') ?? '';
    const path = `businessKnowledgeModel '${name}'`;
    const logic = one(element, 'encapsulatedLogic');
    const expression = logic && this.expression(logic, path);
    return {
      id: this.#idOf(element, name),
      name,
      path,
      ...optional('typeRef', this.#variableType(element)),
      requiredKnowledge: this.#references(many(element, 'knowledgeRequirement'), 'requiredKnowledge', `${path}.knowledgeRequirement`),
      ...optional('logic', expression?.kind === 'function' ? expression : undefined),
    };
  }

  #decisionService(element: El): DmnDecisionService {
    const name = str(element, 'name') ?? '';
    const path = `decisionService '${name}'`;
    const refs = (property: string) => many(element, property).map((reference) => this.#reference(reference, `${path}.${property}`));
    return {
      id: this.#idOf(element, name),
      name,
      path,
      ...optional('typeRef', this.#variableType(element)),
      outputDecisions: refs('outputDecision'),
      encapsulatedDecisions: refs('encapsulatedDecision'),
      inputDecisions: refs('inputDecision'),
      inputData: refs('inputData'),
    };
  }

  /** A boxed expression; `parent` is the path of its owner. */
  expression(element: El, parent: string): DmnExpression {
    const type = localType(element);
    const path = `${parent}.${type.charAt(0).toLowerCase()}${type.slice(1)}`;
    const base = { path, ...optional('id', str(element, 'id')), ...optional('typeRef', str(element, 'typeRef')) };
    switch (type) {
      case 'LiteralExpression':
        this.#checkLanguage(element, path);
        if (one(element, 'importedValues')) this.#problem(path, 'imported values are not supported');
        return { ...base, kind: 'literal', text: str(element, 'text') ?? '' };
      case 'DecisionTable':
        return this.#decisionTable(element, base);
      case 'Context':
        return {
          ...base,
          kind: 'context',
          entries: many(element, 'contextEntry').map((entry, index) => {
            const variable = one(entry, 'variable');
            const entryPath = `${path}.contextEntry[${index}]${variable ? ` '${str(variable, 'name') ?? ''}'` : ''}`;
            const value = one(entry, 'value');
            return {
              ...optional('name', str(variable, 'name')),
              ...optional('typeRef', str(variable, 'typeRef')),
              value: value ? this.expression(value, entryPath) : this.#missing(entryPath, 'the context entry has no value'),
            };
          }),
        };
      case 'List':
        return { ...base, kind: 'list', elements: many(element, 'elements').map((item, index) => this.expression(item, `${path}[${index}]`)) };
      case 'Relation':
        return {
          ...base,
          kind: 'relation',
          columns: many(element, 'column').map((column) => this.#typedName(column)),
          rows: many(element, 'row').map((row, index) =>
            many(row, 'elements').map((cell, column) => this.expression(cell, `${path}.row[${index}][${column}]`)),
          ),
        };
      case 'Invocation': {
        const called = one(element, 'calledFunction');
        let callee = '';
        if (called && localType(called) === 'LiteralExpression') callee = (str(called, 'text') ?? '').trim();
        else this.#problem(path, 'the invocation names no function (a literal expression is expected)');
        return {
          ...base,
          kind: 'invocation',
          callee,
          bindings: many(element, 'binding').map((binding, index) => {
            const parameter = one(binding, 'parameter');
            const formula = one(binding, 'bindingFormula');
            const name = str(parameter, 'name') ?? '';
            return {
              name,
              ...optional('typeRef', str(parameter, 'typeRef')),
              ...optional('value', formula && this.expression(formula, `${path}.binding[${index}] '${name}'`)),
            };
          }),
        };
      }
      case 'FunctionDefinition':
        return this.#functionDefinition(element, base);
      case 'Conditional':
        return {
          ...base,
          kind: 'conditional',
          if: this.#child(element, 'if', path),
          then: this.#child(element, 'then', path),
          else: this.#child(element, 'else', path),
        };
      case 'For':
      case 'Some':
      case 'Every': {
        const variable = str(element, 'iteratorVariable') ?? '';
        if (!variable) this.#problem(path, 'the iterator has no iteratorVariable');
        return {
          ...base,
          kind: 'iterator',
          quantifier: type === 'For' ? 'for' : type === 'Some' ? 'some' : 'every',
          variable,
          in: this.#child(element, 'in', path),
          body: this.#child(element, type === 'For' ? 'return' : 'satisfies', path),
        };
      }
      case 'Filter':
        return { ...base, kind: 'filter', in: this.#child(element, 'in', path), match: this.#child(element, 'match', path) };
      default:
        return this.#missing(path, `the boxed expression '${type}' is not supported`);
    }
  }

  #child(element: El, property: string, path: string): DmnExpression {
    const expression = one(one(element, property), 'expression');
    return expression ? this.expression(expression, `${path}.${property}`) : this.#missing(`${path}.${property}`, `'${property}' has no expression`);
  }

  /** Reports the problem and stands in an expression evaluating to null, so the rest of the model still reads. */
  #missing(path: string, message: string): DmnExpression {
    this.#problem(path, message);
    return { kind: 'literal', path, text: 'null' };
  }

  #functionDefinition(element: El, base: { path: string; id?: string; typeRef?: string }): DmnFunctionDefinition {
    const kind = str(element, 'kind') ?? 'FEEL';
    if (!(FUNCTION_KINDS as readonly string[]).includes(kind)) this.#problem(base.path, `the function kind '${kind}' is not one of ${FUNCTION_KINDS.join(', ')}`);
    const body = one(element, 'body');
    return {
      ...base,
      kind: 'function',
      functionKind: (FUNCTION_KINDS as readonly string[]).includes(kind) ? (kind as DmnFunctionKind) : 'FEEL',
      parameters: many(element, 'formalParameter').map((parameter) => this.#typedName(parameter)),
      // Java and PMML bodies are contexts of class / document names, kept as read; the engine refuses them.
      ...optional('body', body && this.expression(body, base.path)),
    };
  }

  #decisionTable(element: El, base: { path: string; id?: string; typeRef?: string }): DmnExpression {
    const path = base.path;
    const hitPolicy = str(element, 'hitPolicy') ?? 'UNIQUE';
    if (!(HIT_POLICIES as readonly string[]).includes(hitPolicy)) this.#problem(`${path}.hitPolicy`, `'${hitPolicy}' is not a hit policy (${HIT_POLICIES.join(', ')})`);
    const aggregation = str(element, 'aggregation');
    if (aggregation !== undefined && !(AGGREGATORS as readonly string[]).includes(aggregation)) {
      this.#problem(`${path}.aggregation`, `'${aggregation}' is not an aggregation (${AGGREGATORS.join(', ')})`);
    }
    if (aggregation !== undefined && hitPolicy !== 'COLLECT') this.#problem(`${path}.aggregation`, `an aggregation needs the COLLECT hit policy, not ${hitPolicy}`);
    const orientation = str(element, 'preferredOrientation');
    if (orientation === 'CrossTable') this.#problem(path, 'cross-tab decision tables are not supported');
    const inputs = many(element, 'input').map((input, index) => {
      const inputPath = `${path}.input[${index}]`;
      const expression = one(input, 'inputExpression');
      if (!expression) this.#problem(inputPath, 'the input has no inputExpression');
      if (expression) this.#checkLanguage(expression, `${inputPath}.inputExpression`);
      return {
        path: inputPath,
        expression: str(expression, 'text') ?? 'null',
        ...optional('typeRef', str(expression, 'typeRef')),
        ...optional('inputValues', this.#unaryTestsText(one(input, 'inputValues'), `${inputPath}.inputValues`)),
      };
    });
    const outputs = many(element, 'output').map((output, index) => {
      const outputPath = `${path}.output[${index}]`;
      const defaultOutput = one(output, 'defaultOutputEntry');
      return {
        path: outputPath,
        ...optional('name', str(output, 'name')),
        ...optional('typeRef', str(output, 'typeRef')),
        ...optional('outputValues', this.#unaryTestsText(one(output, 'outputValues'), `${outputPath}.outputValues`)),
        ...optional('defaultOutput', defaultOutput && (str(defaultOutput, 'text') ?? 'null')),
      };
    });
    if (outputs.length === 0) this.#problem(path, 'the decision table has no output');
    if (outputs.length > 1) {
      outputs.forEach((output) => {
        if (!output.name) this.#problem(output.path, 'an output of a table with several outputs needs a name');
      });
    }
    const rules = many(element, 'rule').map((rule, index) => {
      const rulePath = `${path}.rule[${index}]`;
      const inputEntries = many(rule, 'inputEntry').map((entry, column) => {
        this.#checkLanguage(entry, `${rulePath}.inputEntry[${column}]`);
        return str(entry, 'text') ?? '-';
      });
      const outputEntries = many(rule, 'outputEntry').map((entry, column) => {
        this.#checkLanguage(entry, `${rulePath}.outputEntry[${column}]`);
        return str(entry, 'text') ?? 'null';
      });
      if (inputEntries.length !== inputs.length) this.#problem(rulePath, `the rule has ${inputEntries.length} input entries for ${inputs.length} inputs`);
      if (outputEntries.length !== outputs.length) this.#problem(rulePath, `the rule has ${outputEntries.length} output entries for ${outputs.length} outputs`);
      return { path: rulePath, inputEntries, outputEntries };
    });
    return {
      ...base,
      kind: 'decisionTable',
      hitPolicy: hitPolicy as DmnHitPolicy,
      ...optional('aggregation', aggregation as DmnAggregator | undefined),
      inputs,
      outputs,
      rules,
      ...optional('outputLabel', str(element, 'outputLabel')),
    };
  }
}
