// DMN rules on every management write (docs/decisions/dmn-rule-type.md): the typed model is read from the XML, and
// the model's imports of other DMN models are linked to the rules of the space holding their namespaces.
import type { ManagementTransaction } from '../../store/ports.ts';
import { DMN_IMPORTS_FIELD, DMN_MODEL_FIELD } from '../../rules/dmn-rule.ts';
import { ValidationError } from '../../rules/problems.ts';
import type { Problem } from '../../rules/problems.ts';
import { isDmnDocument, linkDmnImports, withDmnModel } from '../dmn-files.ts';
import type { ManagementContext } from './context.ts';
import type { RuleDocument } from './documents.ts';
import { documentOf, groupByRule } from './lookup.ts';

/** Namespace -> rule id of the space's DMN rules (each rule by its latest version), leaving out `except`. */
export async function dmnNamespaces(tx: ManagementTransaction, except?: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [ruleId, versions] of groupByRule((await tx.heads()).filter((h) => h.type === 'dmn'))) {
    if (ruleId === except) continue;
    const latest = versions[versions.length - 1]!;
    const model = (await documentOf(tx, latest)).document[DMN_MODEL_FIELD] as { namespace?: unknown } | undefined;
    if (typeof model?.namespace === 'string' && !out.has(model.namespace)) out.set(model.namespace, ruleId);
  }
  return out;
}

/**
 * A document about to be written, its DMN model read and imports linked (other documents unchanged). `ruleId`: the
 * rule written, whose own versions do not count as imports; `batch`: namespaces of rules written with it.
 */
export async function prepareDmnWrite(ctx: ManagementContext, space: string, document: RuleDocument, ruleId?: string, batch?: ReadonlyMap<string, string>): Promise<RuleDocument> {
  if (!isDmnDocument(document)) return document;
  const read = await withDmnModel(document);
  const namespaces = await ctx.store.management.read(space, (tx) => dmnNamespaces(tx, ruleId));
  return linkDmnImports(read, (namespace) => batch?.get(namespace) ?? namespaces.get(namespace));
}

/**
 * Links, in place, the imports of the DMN models among `documents` (rules written together, ids decided): to the
 * batch's own models first, then to the space's. Every import no rule holds at once, as a ValidationError.
 */
export async function linkBatchImports(tx: ManagementTransaction, documents: RuleDocument[]): Promise<void> {
  const models = documents.filter((d) => d.type === 'dmn');
  if (models.length === 0) return;
  const holders = await dmnNamespaces(tx);
  for (const d of models) {
    const namespace = (d[DMN_MODEL_FIELD] as { namespace?: unknown } | undefined)?.namespace;
    if (typeof namespace === 'string') holders.set(namespace, String(d.ruleId));
  }
  const problems: Problem[] = [];
  for (const d of models) {
    try {
      const linked = linkDmnImports(d, (namespace) => holders.get(namespace));
      delete d[DMN_IMPORTS_FIELD];
      Object.assign(d, linked);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...error.problems.map((p) => ({ ...p, message: `rule ${JSON.stringify(String(d.name))}: ${p.message}` })));
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
}
