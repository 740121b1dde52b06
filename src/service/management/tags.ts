// Tags of rule versions (SPEC 5.1): find versions carrying every given tag, add tags, remove tags. Without a
// version, adding and removing apply to every version of the rule (as DecisionRules documents).
import { isoAt } from '../clock.ts';
import type { ManagementContext } from './context.ts';
import type { RuleDocument } from './documents.ts';
import { assertUnlocked, findRule, findVersion } from './lookup.ts';

export class TagManagement {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
    this.#ctx = ctx;
  }

  /** Full documents of every version whose tags include all of `tags`. */
  async find(space: string, tags: readonly string[]): Promise<RuleDocument[]> {
    const rules = await this.#ctx.store.management.read(space, (tx) => tx.rules());
    return rules.filter((r) => tags.every((t) => r.tags.includes(t))).map((r) => r.document);
  }

  add(space: string, idOrAlias: string, version: number | undefined, tags: readonly string[]): Promise<string[]> {
    return this.#change(space, idOrAlias, version, (current) => [...current, ...tags.filter((t) => !current.includes(t))]);
  }

  remove(space: string, idOrAlias: string, version: number | undefined, tags: readonly string[]): Promise<string[]> {
    return this.#change(space, idOrAlias, version, (current) => current.filter((t) => !tags.includes(t)));
  }

  /** Applies `edit` to the tags of the versions named; answers the tags of the highest of them afterwards. */
  async #change(space: string, idOrAlias: string, version: number | undefined, edit: (current: string[]) => string[]): Promise<string[]> {
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const rule = findRule(await tx.heads(), idOrAlias);
      const targets = version === undefined ? rule.versions : [findVersion(rule, version)];
      assertUnlocked(targets);
      const wanted = new Set(targets.map((t) => t.version));
      const documents = (await tx.versions(rule.ruleId)).filter((v) => wanted.has(v.version));
      const now = isoAt(this.#ctx.clock);
      const updated = await tx.putRules(documents.map((d) => ({ ...d.document, tags: edit(d.tags), lastUpdate: now })));
      return updated[updated.length - 1]?.tags ?? [];
    });
  }
}
