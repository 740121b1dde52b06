// Compiled-rule cache: a rule version is compiled once and reused until a write to that rule arrives on the
// store's change feed. Catalogs (id/alias -> version) are cached per space the same way. When the feed is not
// live (a lost LISTEN connection) nothing is retained, so a missed invalidation can never serve a stale rule.
// A generation counter per space keeps a load that raced with a write from being cached.
import type { CompiledRule } from '../engine/types.ts';
import { isAuditTtlDays } from '../rules/bounds.ts';
import type { ChangeEvent, RuleHead, Store } from '../store/ports.ts';
import { RuleCatalog } from './rule-catalog.ts';
import { RuleVersions } from './rule-versions.ts';

/** Per-rule audit settings from the document's `auditLog` (rule-format §1.5). */
export interface RuleAuditSettings {
  active: boolean;
  debug: boolean;
  ttlDays: number | undefined;
}

export interface LoadedRule {
  head: RuleHead;
  compiled: CompiledRule;
  audit: RuleAuditSettings;
}

export type RuleCompilerFn = (document: Record<string, unknown>) => CompiledRule;

interface SpaceEntry {
  generation: number;
  catalog: RuleCatalog | undefined;
  pendingCatalog: Promise<RuleCatalog> | undefined;
  rules: RuleVersions<LoadedRule>;
  pendingRules: Map<string, Promise<LoadedRule>>;
}

/** Bound on cached compiled versions across spaces; past it the oldest entries go first. */
const MAX_RULES = 20_000;

export function auditSettings(document: Record<string, unknown>): RuleAuditSettings {
  const log = document.auditLog;
  if (log === null || typeof log !== 'object' || Array.isArray(log)) return { active: false, debug: false, ttlDays: undefined };
  const settings = log as Record<string, unknown>;
  const debug = settings.debug;
  const ttl = settings.ttl;
  return {
    active: settings.active === true,
    debug: debug === true || (debug !== null && typeof debug === 'object' && (debug as Record<string, unknown>).active === true),
    // Documents are checked at save; one stored before TTLs were bounded falls back to the default here.
    ttlDays: isAuditTtlDays(ttl) ? ttl : undefined,
  };
}

export class RuleNotFoundError extends Error {
  constructor(space: string, ruleId: string, version: number) {
    super(`rule ${ruleId} version ${version} is no longer in space ${space}`);
    this.name = 'RuleNotFoundError';
  }
}

export class RuleCache {
  readonly #store: Store;
  readonly #compile: RuleCompilerFn;
  readonly #spaces = new Map<string, SpaceEntry>();
  #ruleCount = 0;
  /** Counters for tests and metrics. */
  readonly stats = { compiles: 0, catalogLoads: 0, invalidations: 0 };

  constructor(store: Store, compile: RuleCompilerFn) {
    this.#store = store;
    this.#compile = compile;
    store.changes.subscribe((event) => this.invalidate(event));
  }

  #entry(space: string): SpaceEntry {
    let entry = this.#spaces.get(space);
    if (!entry) {
      entry = { generation: 0, catalog: undefined, pendingCatalog: undefined, rules: new RuleVersions(), pendingRules: new Map() };
      this.#spaces.set(space, entry);
    }
    return entry;
  }

  get #retain(): boolean {
    return this.#store.changes.live;
  }

  invalidate(event: ChangeEvent): void {
    if (event.kind === 'key') return;
    this.stats.invalidations++;
    if (event.kind === 'all') {
      for (const entry of this.#spaces.values()) this.#reset(entry, undefined);
      return;
    }
    const entry = this.#spaces.get(event.space);
    if (entry) this.#reset(entry, event.ruleId);
  }

  #reset(entry: SpaceEntry, ruleId: string | undefined): void {
    entry.generation++;
    entry.catalog = undefined;
    entry.pendingCatalog = undefined;
    entry.pendingRules.clear();
    this.#ruleCount -= ruleId === undefined ? entry.rules.clear() : entry.rules.deleteRule(ruleId);
  }

  async catalog(space: string): Promise<RuleCatalog> {
    const entry = this.#entry(space);
    if (entry.catalog) return entry.catalog;
    if (entry.pendingCatalog) return entry.pendingCatalog;
    const generation = entry.generation;
    const pending = this.#store.rules.listHeads(space).then((heads) => {
      this.stats.catalogLoads++;
      const catalog = new RuleCatalog(space, heads);
      if (entry.generation === generation) {
        entry.pendingCatalog = undefined;
        if (this.#retain) entry.catalog = catalog;
      }
      return catalog;
    });
    entry.pendingCatalog = pending;
    pending.catch(() => {
      if (entry.pendingCatalog === pending) entry.pendingCatalog = undefined;
    });
    return pending;
  }

  /** The space catalog if it is in memory now (for the synchronous solve path). */
  peekCatalog(space: string): RuleCatalog | undefined {
    return this.#spaces.get(space)?.catalog;
  }

  /** The compiled version if it is in memory now (for the synchronous resolver). */
  peek(space: string, ruleId: string, version: number): LoadedRule | undefined {
    return this.#spaces.get(space)?.rules.get(ruleId, version);
  }

  /** Loads and compiles one version (once, even under concurrent calls). Compile errors propagate uncached. */
  async load(head: RuleHead): Promise<LoadedRule> {
    const entry = this.#entry(head.space);
    const cached = entry.rules.get(head.ruleId, head.version);
    if (cached) return cached;
    const key = `${head.ruleId}\u0000${head.version}`;
    const inFlight = entry.pendingRules.get(key);
    if (inFlight) return inFlight;
    const generation = entry.generation;
    const pending = this.#store.rules.get(head.space, head.ruleId, head.version).then((stored) => {
      if (stored === undefined) throw new RuleNotFoundError(head.space, head.ruleId, head.version);
      this.stats.compiles++;
      const loaded: LoadedRule = { head, compiled: this.#compile(stored.document), audit: auditSettings(stored.document) };
      if (entry.generation === generation) {
        entry.pendingRules.delete(key);
        if (this.#retain) {
          if (this.#ruleCount >= MAX_RULES) this.#evictOldest();
          entry.rules.set(head.ruleId, head.version, loaded);
          this.#ruleCount++;
        }
      }
      return loaded;
    });
    entry.pendingRules.set(key, pending);
    pending.catch(() => {
      if (entry.pendingRules.get(key) === pending) entry.pendingRules.delete(key);
    });
    return pending;
  }

  #evictOldest(): void {
    for (const entry of this.#spaces.values()) {
      if (entry.rules.deleteOldest()) {
        this.#ruleCount--;
        return;
      }
    }
  }

  /** Number of compiled versions held (tests, metrics). */
  get size(): number {
    return this.#ruleCount;
  }
}
