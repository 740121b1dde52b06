// The decision requirements graph across a model and the models it imports: every element by namespace and id
// (imported models may reuse ids), and each element's requirements resolved to the elements and the import
// prefixes they are seen under.
import type {
  DmnBusinessKnowledgeModel,
  DmnDecision,
  DmnDecisionService,
  DmnImport,
  DmnInputData,
  DmnModel,
  DmnReference,
} from '../../rules/dmn/model.ts';
import type { CompileProblems } from './feel.ts';
import type { ModelSet } from './models.ts';

export type ElementKind = 'decision' | 'inputData' | 'bkm' | 'decisionService';

export interface Element<T> {
  kind: ElementKind;
  key: string;
  model: DmnModel;
  element: T;
}

type AnyElement = Element<DmnDecision | DmnInputData | DmnBusinessKnowledgeModel | DmnDecisionService>;

/** A name a decision, BKM or service sees: the element it names, and the import prefix it is seen under. */
export interface Requirement {
  kind: ElementKind;
  key: string;
  name: string;
  prefix?: string;
}

export function keyOf(model: DmnModel, id: string): string {
  return `${model.namespace}#${id}`;
}

/** Imports of DMN models (other import types, e.g. PMML or XML Schema, are not evaluated). */
function isDmnImport(declaration: DmnImport): boolean {
  return /\/DMN\/\d{8}\/MODEL\/?$/.test(declaration.importType) || declaration.importType === '';
}

export class RequirementsGraph {
  readonly elements = new Map<string, AnyElement>();
  readonly #models: ModelSet;
  readonly #problems: CompileProblems;

  constructor(models: ModelSet, problems: CompileProblems) {
    this.#models = models;
    this.#problems = problems;
    const reachable = [models.main];
    for (let index = 0; index < reachable.length; index++) {
      const current = reachable[index]!;
      this.#add(current, 'decision', current.decisions);
      this.#add(current, 'inputData', current.inputData);
      this.#add(current, 'bkm', current.businessKnowledgeModels);
      this.#add(current, 'decisionService', current.decisionServices);
      for (const declaration of current.imports.filter(isDmnImport)) {
        const imported = models.byNamespace(declaration.namespace, current);
        if (!imported) problems.add(`definitions.import '${declaration.name}'`, `the imported model '${declaration.namespace}' is not available`);
        else if (!reachable.includes(imported)) reachable.push(imported);
      }
    }
  }

  #add(model: DmnModel, kind: ElementKind, list: readonly (DmnDecision | DmnInputData | DmnBusinessKnowledgeModel | DmnDecisionService)[]): void {
    for (const element of list) this.elements.set(keyOf(model, element.id), { kind, key: keyOf(model, element.id), model, element });
  }

  /** The requirements of an element of `from`, each list with the kinds of element it may name; others are problems. */
  requirements(from: DmnModel, path: string, lists: [readonly DmnReference[], ElementKind[]][]): Requirement[] {
    const out: Requirement[] = [];
    for (const [references, kinds] of lists) {
      for (const reference of references) {
        const found = this.#requirement(from, reference, path, kinds);
        if (found) out.push(found);
      }
    }
    return out;
  }

  #requirement(from: DmnModel, reference: DmnReference, path: string, kinds: ElementKind[]): Requirement | undefined {
    const target = this.#models.byNamespace(reference.namespace, from);
    const found = target && this.elements.get(keyOf(target, reference.id));
    if (!found || !kinds.includes(found.kind)) {
      this.#problems.add(path, `the requirement '${reference.namespace ?? ''}#${reference.id}' names no ${kinds.join(' or ')} of the models`);
      return undefined;
    }
    const prefix = this.#models.prefixOf(from, found.model);
    if (found.model !== from && prefix === undefined) {
      this.#problems.add(path, `'${found.element.name}' belongs to a model that is not imported`);
      return undefined;
    }
    return { kind: found.kind, key: found.key, name: found.element.name, ...(prefix === undefined ? {} : { prefix }) };
  }

  /** The names FEEL must know to read the element's expressions: its requirements (imported ones with their prefix). */
  namesOf(requires: readonly Requirement[], from: DmnModel): string[] {
    const names = new Set<string>();
    for (const required of requires) {
      if (required.prefix === undefined) names.add(required.name);
      else names.add(required.prefix).add(`${required.prefix}.${required.name}`);
    }
    for (const declaration of from.imports) names.add(declaration.name);
    return [...names];
  }
}
