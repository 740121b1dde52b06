// The models one evaluation can reach: the model evaluated and the models it imports (by namespace, as the TCK's
// models import each other), with the lookups of elements across them.
import type { DmnModel } from '../../rules/dmn/model.ts';

export class ModelSet {
  readonly main: DmnModel;
  readonly #byNamespace = new Map<string, DmnModel>();

  constructor(main: DmnModel, others: readonly DmnModel[]) {
    this.main = main;
    for (const model of [main, ...others]) if (!this.#byNamespace.has(model.namespace)) this.#byNamespace.set(model.namespace, model);
  }

  byNamespace(namespace: string | undefined, from: DmnModel): DmnModel | undefined {
    return namespace === undefined ? from : this.#byNamespace.get(namespace);
  }

  /** The model `from` imports under `prefix`. */
  imported(from: DmnModel, prefix: string): DmnModel | undefined {
    const declaration = from.imports.find((candidate) => candidate.name === prefix);
    return declaration ? this.#byNamespace.get(declaration.namespace) : undefined;
  }

  /** The prefix under which `from` imports `model`; undefined when it is `from` itself or not imported. */
  prefixOf(from: DmnModel, model: DmnModel): string | undefined {
    if (from === model) return undefined;
    return from.imports.find((candidate) => candidate.namespace === model.namespace)?.name;
  }
}
