// DMN rules on every management write (docs/decisions/dmn-rule-type.md): the typed model is read from the XML, the
// model's imports of other DMN models are linked to the rules of the space holding their namespaces, and the model
// is compiled with the models it imports, so that nothing that cannot compile is stored.
import type { ManagementTransaction } from '../../store/ports.ts';
import { DMN_IMPORTS_FIELD, DMN_MODEL_FIELD, DMN_XML_FIELD, dmnModelImports } from '../../rules/dmn-rule.ts';
import type { DmnModel } from '../../rules/dmn/model.ts';
import { ValidationError } from '../../rules/problems.ts';
import type { Problem } from '../../rules/problems.ts';
import { compileDmn } from '../../engine/dmn/index.ts';
import { isDmnDocument, linkDmnImports, withDmnModel } from '../dmn-files.ts';
import type { ManagementContext } from './context.ts';
import type { RuleDocument } from './documents.ts';
import { documentOf, groupByRule } from './lookup.ts';

/** The rule holding a namespace, and its model. */
export interface DmnHolder {
  ruleId: string;
  model: DmnModel;
}

function modelOf(document: RuleDocument): DmnModel | undefined {
  const model = document[DMN_MODEL_FIELD] as DmnModel | undefined;
  return typeof model?.namespace === 'string' ? model : undefined;
}

/** Namespace -> the space's DMN rule holding it (each rule by its latest version), leaving out `except`. */
export async function dmnHolders(tx: ManagementTransaction, except?: string): Promise<Map<string, DmnHolder>> {
  const out = new Map<string, DmnHolder>();
  for (const [ruleId, versions] of groupByRule((await tx.heads()).filter((h) => h.type === 'dmn'))) {
    if (ruleId === except) continue;
    const model = modelOf((await documentOf(tx, versions[versions.length - 1]!)).document);
    if (model && !out.has(model.namespace)) out.set(model.namespace, { ruleId, model });
  }
  return out;
}

/** The models `model` imports, transitively, as `holders` has them (a missing one is left to the link's check). */
function importedModels(model: DmnModel, holders: ReadonlyMap<string, DmnHolder>): DmnModel[] {
  const out: DmnModel[] = [];
  const seen = new Set([model.namespace]);
  const visit = (from: DmnModel) => {
    for (const { namespace } of dmnModelImports(from)) {
      const held = holders.get(namespace);
      if (seen.has(namespace) || !held) continue;
      seen.add(namespace);
      out.push(held.model);
      visit(held.model);
    }
  };
  visit(model);
  return out;
}

/**
 * Links a DMN document's imports to their holders and compiles its model with the imported models; a problem of
 * either (an import no rule holds, an imported name that does not resolve) is a ValidationError under `dmn`.
 */
function linkAndCheck(document: RuleDocument, holders: ReadonlyMap<string, DmnHolder>): RuleDocument {
  const linked = linkDmnImports(document, (namespace) => holders.get(namespace)?.ruleId);
  const model = modelOf(linked);
  if (!model || dmnModelImports(model).length === 0) return linked;
  const { problems } = compileDmn(model, { imports: importedModels(model, holders) });
  if (problems.length > 0) throw new ValidationError(problems.map((p) => ({ path: DMN_XML_FIELD, message: p.path ? `${p.path}: ${p.message}` : p.message })));
  return linked;
}

/**
 * A document about to be written, its DMN model read, its imports linked and checked (other documents unchanged).
 * `ruleId`: the rule written, whose own versions do not count as imports.
 */
export async function prepareDmnWrite(ctx: ManagementContext, space: string, document: RuleDocument, ruleId?: string): Promise<RuleDocument> {
  if (!isDmnDocument(document)) return document;
  const read = await withDmnModel(document);
  return linkAndCheck(read, await ctx.store.management.read(space, (tx) => dmnHolders(tx, ruleId)));
}

/**
 * Links, in place, the imports of the DMN models among `documents` (rules written together, ids decided): to the
 * batch's own models first, then to the space's, and checks each with its imports. Every problem at once.
 */
export async function linkBatchImports(tx: ManagementTransaction, documents: RuleDocument[]): Promise<void> {
  const models = documents.filter((d) => d.type === 'dmn');
  if (models.length === 0) return;
  const holders = await dmnHolders(tx);
  for (const d of models) {
    const model = modelOf(d);
    if (model) holders.set(model.namespace, { ruleId: String(d.ruleId), model });
  }
  const problems: Problem[] = [];
  for (const d of models) {
    try {
      const linked = linkAndCheck(d, holders);
      delete d[DMN_IMPORTS_FIELD];
      Object.assign(d, linked);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...error.problems.map((p) => ({ ...p, message: `rule ${JSON.stringify(String(d.name))}: ${p.message}` })));
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
}
