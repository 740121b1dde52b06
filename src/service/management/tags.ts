// Tags of rule versions (SPEC 5.1): find versions carrying every given tag, add tags, remove tags. Without a
// version, adding and removing apply to every version of the rule (as DecisionRules documents).
import { isoAt } from '../clock.ts';
import type { ManagementContext, WriteOptions } from './context.ts';
import type { RuleDocument } from './documents.ts';
import { badRequest } from './errors.ts';
import { checkIfMatch, etagOf } from './etag.ts';
import { recordHistory } from './history.ts';
import { assertUnlocked, findRule, findVersion } from './lookup.ts';

export interface TagChange {
  /** The tags of the (highest) version changed, afterwards. */
  tags: string[];
  /** The version's new entity tag when one version was named. */
  etag: string | undefined;
}

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

  add(space: string, idOrAlias: string, version: number | undefined, tags: readonly string[], options: WriteOptions = {}): Promise<TagChange> {
    return this.#change(space, idOrAlias, version, options, (current) => [...current, ...tags.filter((t) => !current.includes(t))]);
  }

  remove(space: string, idOrAlias: string, version: number | undefined, tags: readonly string[], options: WriteOptions = {}): Promise<TagChange> {
    return this.#change(space, idOrAlias, version, options, (current) => current.filter((t) => !tags.includes(t)));
  }

  /** Applies `edit` to the tags of the versions named; answers the tags of the highest of them afterwards. */
  async #change(space: string, idOrAlias: string, version: number | undefined, options: WriteOptions, edit: (current: string[]) => string[]): Promise<TagChange> {
    // Without a version the change spans every version; a precondition names one version's ETag.
    if (options.ifMatch !== undefined && version === undefined) {
      throw badRequest('Header If-Match needs one version: send it to /api/tags/{idOrAlias}/{version}');
    }
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const rule = findRule(await tx.heads(), idOrAlias);
      const targets = version === undefined ? rule.versions : [findVersion(rule, version)];
      const wanted = new Set(targets.map((t) => t.version));
      const documents = (await tx.versions(rule.ruleId)).filter((v) => wanted.has(v.version));
      if (version !== undefined) checkIfMatch(options.ifMatch, documents[0]!);
      assertUnlocked(targets);
      const now = isoAt(this.#ctx.clock);
      const updated = await tx.putRules(documents.map((d) => ({ ...d.document, tags: edit(d.tags), lastUpdate: now })));
      await recordHistory(tx, this.#ctx, updated, 'tags', options);
      const last = updated[updated.length - 1];
      return { tags: last?.tags ?? [], etag: version !== undefined && last ? etagOf(last) : undefined };
    });
  }
}
