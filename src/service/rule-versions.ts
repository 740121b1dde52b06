// Values by rule id, then version. Lookups use the id string and version number already in hand, so the hot
// path builds no composite key per call, and dropping every version of one rule is one delete.
export class RuleVersions<T> {
  readonly #byId = new Map<string, Map<number, T>>();
  #size = 0;

  /** Number of (rule, version) entries. */
  get size(): number {
    return this.#size;
  }

  get(ruleId: string, version: number): T | undefined {
    return this.#byId.get(ruleId)?.get(version);
  }

  has(ruleId: string, version: number): boolean {
    return this.#byId.get(ruleId)?.has(version) === true;
  }

  set(ruleId: string, version: number, value: T): void {
    let versions = this.#byId.get(ruleId);
    if (versions === undefined) this.#byId.set(ruleId, (versions = new Map()));
    if (!versions.has(version)) this.#size++;
    versions.set(version, value);
  }

  /** Drops every version of a rule; returns how many there were. */
  deleteRule(ruleId: string): number {
    const versions = this.#byId.get(ruleId);
    if (versions === undefined) return 0;
    this.#byId.delete(ruleId);
    this.#size -= versions.size;
    return versions.size;
  }

  /** Drops everything; returns how many entries there were. */
  clear(): number {
    const size = this.#size;
    this.#byId.clear();
    this.#size = 0;
    return size;
  }

  /** Drops the earliest entry of the earliest rule still held; false when empty. */
  deleteOldest(): boolean {
    for (const [ruleId, versions] of this.#byId) {
      const first = versions.keys().next();
      if (first.done) continue;
      versions.delete(first.value);
      if (versions.size === 0) this.#byId.delete(ruleId);
      this.#size--;
      return true;
    }
    return false;
  }

  /** Every value (in insertion order of rules, then versions). */
  *values(): IterableIterator<T> {
    for (const versions of this.#byId.values()) yield* versions.values();
  }
}
