// The synchronous RuleResolver the engine calls for SOLVE, LOOKUP_*, DR.solve and flow nodes. It answers from
// one solve's snapshot of the space catalog and from compiled rules already in memory. Anything not yet loaded
// throws UnresolvedRuleError; the solve use case then loads it and solves again (bounded). Preloading a rule's
// static dependencies first makes that retry rare.
import { RuleError, UnresolvedRuleError } from '../engine/errors.ts';
import type { CompiledRule, RuleResolver } from '../engine/types.ts';
import type { RuleCatalog } from './rule-catalog.ts';
import type { LoadedRule, RuleCache } from './rule-cache.ts';
import { RuleVersions } from './rule-versions.ts';

/** Most distinct rules one solve may pull in through references. */
const MAX_RULES_PER_SOLVE = 1000;

export class SolveSession implements RuleResolver {
  readonly catalog: RuleCatalog;
  readonly #cache: RuleCache;
  /** Rules this solve has used: kept for the whole solve even if the cache drops them meanwhile. */
  readonly #local = new RuleVersions<LoadedRule>();

  constructor(catalog: RuleCatalog, cache: RuleCache) {
    this.catalog = catalog;
    this.#cache = cache;
  }

  resolve(idOrAlias: string, version: number | undefined): CompiledRule | undefined {
    const resolution = this.catalog.resolve(idOrAlias, version);
    if (!resolution.ok) {
      if (resolution.reason === 'ambiguous') {
        throw new RuleError(`rule alias "${idOrAlias}" is ambiguous: ${resolution.count} rules in this space use it`);
      }
      return undefined;
    }
    const { head } = resolution;
    let loaded = this.#local.get(head.ruleId, head.version);
    if (!loaded) {
      loaded = this.#cache.peek(this.catalog.space, head.ruleId, head.version);
      if (!loaded) throw new UnresolvedRuleError(idOrAlias, version);
      this.#local.set(head.ruleId, head.version, loaded);
    }
    return loaded.compiled;
  }

  /** Loads a referenced rule (after UnresolvedRuleError) and everything it references statically. */
  async load(idOrAlias: string, version: number | undefined): Promise<void> {
    const resolution = this.catalog.resolve(idOrAlias, version);
    if (!resolution.ok) return;
    await this.use(await this.#cache.load(resolution.head));
  }

  /**
   * use() without waiting: records the rule and its static dependencies when all of them are in memory already.
   * False when one still has to be loaded (or the solve would reference too many rules): then call use().
   */
  useCached(root: LoadedRule): boolean {
    if (root.compiled.dependencies.length === 0) {
      this.#local.set(root.head.ruleId, root.head.version, root);
      return true;
    }
    const found = new RuleVersions<LoadedRule>();
    const queue: LoadedRule[] = [root];
    found.set(root.head.ruleId, root.head.version, root);
    for (let next = 0; next < queue.length; next++) {
      for (const dependency of queue[next]!.compiled.dependencies) {
        const resolution = this.catalog.resolve(dependency.idOrAlias, dependency.version);
        if (!resolution.ok) continue;
        const { ruleId, version } = resolution.head;
        if (found.has(ruleId, version) || this.#local.has(ruleId, version)) continue;
        const cached = this.#cache.peek(this.catalog.space, ruleId, version);
        if (cached === undefined) return false;
        found.set(ruleId, version, cached);
        if (found.size + this.#local.size > MAX_RULES_PER_SOLVE) return false;
        queue.push(cached);
      }
    }
    for (const loaded of found.values()) this.#local.set(loaded.head.ruleId, loaded.head.version, loaded);
    return true;
  }

  /** Records a loaded rule for this solve and preloads its static dependencies, transitively. */
  async use(root: LoadedRule): Promise<void> {
    const queue: LoadedRule[] = [root];
    while (queue.length > 0) {
      const loaded = queue.shift()!;
      const { ruleId, version } = loaded.head;
      if (this.#local.has(ruleId, version) && loaded !== root) continue;
      this.#local.set(ruleId, version, loaded);
      if (this.#local.size > MAX_RULES_PER_SOLVE) {
        throw new RuleError(`a solve may reference at most ${MAX_RULES_PER_SOLVE} rules`);
      }
      for (const dependency of loaded.compiled.dependencies) {
        const resolution = this.catalog.resolve(dependency.idOrAlias, dependency.version);
        if (!resolution.ok) continue; // missing or ambiguous: the engine reports it when (and if) the call happens
        if (this.#local.has(resolution.head.ruleId, resolution.head.version)) continue;
        try {
          queue.push(await this.#cache.load(resolution.head));
        } catch {
          // A broken dependency fails the solve only if it is actually called (then load() reports why).
        }
      }
    }
  }
}
