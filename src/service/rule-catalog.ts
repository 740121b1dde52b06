// The rules of one space as metadata (no documents): resolves an id or alias plus an optional version to one
// stored version, in memory. Loaded once per space and dropped on any rule write in that space.
import type { RuleHead } from '../store/ports.ts';

export type Resolution =
  | { ok: true; head: RuleHead }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'not-published' }
  | { ok: false; reason: 'ambiguous'; count: number };

export class RuleCatalog {
  readonly space: string;
  /** Versions per rule id, ascending. */
  readonly #byId = new Map<string, RuleHead[]>();
  readonly #idsByAlias = new Map<string, Set<string>>();

  constructor(space: string, heads: readonly RuleHead[]) {
    this.space = space;
    for (const head of heads) {
      let versions = this.#byId.get(head.ruleId);
      if (!versions) this.#byId.set(head.ruleId, (versions = []));
      versions.push(head);
      if (head.alias !== '') {
        let ids = this.#idsByAlias.get(head.alias);
        if (!ids) this.#idsByAlias.set(head.alias, (ids = new Set()));
        ids.add(head.ruleId);
      }
    }
    for (const versions of this.#byId.values()) versions.sort((a, b) => a.version - b.version);
  }

  get size(): number {
    return this.#byId.size;
  }

  /**
   * An id wins over an alias. A version given must exist and be published; no version: the highest published.
   * A rule with versions but none published is 'not-published' (SPEC 3.2).
   */
  resolve(idOrAlias: string, version: number | undefined): Resolution {
    let versions = this.#byId.get(idOrAlias);
    if (versions === undefined) {
      const ids = this.#idsByAlias.get(idOrAlias);
      if (ids === undefined || ids.size === 0) return { ok: false, reason: 'unknown' };
      if (ids.size > 1) return { ok: false, reason: 'ambiguous', count: ids.size };
      versions = this.#byId.get([...ids][0]!) ?? [];
    }
    if (version !== undefined) {
      const head = versions.find((v) => v.version === version);
      if (head === undefined) return { ok: false, reason: 'unknown' };
      return head.status === 'published' ? { ok: true, head } : { ok: false, reason: 'not-published' };
    }
    for (let i = versions.length - 1; i >= 0; i--) {
      const head = versions[i]!;
      if (head.status === 'published') return { ok: true, head };
    }
    return { ok: false, reason: 'not-published' };
  }
}
