// Import and export of DecisionRules containers into a space (CLI `import`/`export`; the management API reuses
// it). Import validates every rule first and writes all of them in one transaction, or nothing.
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../engine/errors.ts';
import type { Problem } from '../engine/errors.ts';
import { joinPaths, readContainer, ruleIdOf, validateContainer } from '../rules/containers.ts';
import type { RuleContainer } from '../rules/containers.ts';
import type { RuleHead, RuleStatus, Store, StoredRule } from '../store/ports.ts';
import type { Clock } from './clock.ts';
import { isoAt } from './clock.ts';
import { CLI_ACTOR, recordHistory } from './management/history.ts';
import { requireSpace } from './require-space.ts';
import { attachSuites, takeSuites, writeCarriedSuites } from './rule-tests/portable.ts';
import type { CarriedSuites } from './rule-tests/portable.ts';
import type { SuiteDefinition } from './rule-tests/definitions.ts';
import { ruleFileValue } from './jdm-files.ts';
import { dmnFileValue } from './dmn-files.ts';
import { linkBatchImports } from './management/dmn.ts';
import { sharedAliases } from './shared-aliases.ts';
import type { SharedAlias } from './shared-aliases.ts';
import { aliasSlug } from '../rules/envelope.ts';
import { assertNoNewClash, ruleIdProblem, takenNames } from './rule-namespace.ts';

export interface ImportedRule {
  ruleId: string;
  version: number;
  ruleAlias: string;
  type: string;
  /** Pending versions cannot be solved until published (`verdict rule publish`). */
  status: RuleStatus;
}

export interface ImportResult {
  imported: ImportedRule[];
  /** Aliases of imported rules that more than one rule of the space now uses: solving by them fails. */
  sharedAliases: SharedAlias[];
}

export interface ImportOptions {
  /** Refuse (nothing written) when the import would leave an alias shared by several rules. */
  strict?: boolean;
  /** Who imports, for the rule history; default "cli". */
  by?: string | null;
}

function sharingProblem(space: string, shared: SharedAlias): Problem {
  return {
    path: 'ruleAlias',
    message: `"${shared.alias}" would be used by ${shared.ruleIds.length} rules in space "${space}" (${shared.ruleIds.join(', ')}), so solving by this alias would fail; nothing was imported`,
  };
}

/**
 * The name's slug when `taken` does not have it, else the slug with the first free `-2`, `-3`, ... suffix. `taken`
 * holds other rules' aliases and ids (rule-namespace.ts `takenNames`): one namespace for both.
 */
export function uniqueAlias(name: unknown, taken: { has(alias: string): boolean }): string {
  const slug = aliasSlug(name);
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) {
    const alias = `${slug}-${n}`;
    if (!taken.has(alias)) return alias;
  }
}

/**
 * Fills what a stored rule needs and an export may lack: ruleId (kept when present: re-importing overwrites the
 * same version, rule-format §9.3), baseId = ruleId, version (1 when absent), status (published), tags. The alias
 * stays "" when the document has none; the import chooses one (`chooseMissingAliases`).
 */
export function prepareForStorage(document: Record<string, unknown>, now: string): Record<string, unknown> {
  const ruleId = ruleIdOf(document) ?? randomUUID();
  const version = typeof document.version === 'number' && Number.isInteger(document.version) && document.version >= 1 ? document.version : 1;
  // A missing alias is left empty here: the import chooses it against the space's aliases (uniqueAlias).
  const alias = typeof document.ruleAlias === 'string' && document.ruleAlias.trim() !== '' ? document.ruleAlias : '';
  return {
    ...document,
    ruleId,
    baseId: ruleId,
    version,
    ruleAlias: alias,
    status: document.status === 'pending' ? 'pending' : 'published',
    tags: Array.isArray(document.tags) ? document.tags : [],
    createdIn: typeof document.createdIn === 'string' ? document.createdIn : now,
    lastUpdate: now,
  };
}

/**
 * Gives each document without an alias its rule's alias: the one the rule has in the space, or that another
 * version of the import gives it, else the name's slug, suffixed only when the space or the import uses it.
 */
export function chooseMissingAliases(heads: readonly RuleHead[], documents: Record<string, unknown>[]): void {
  const aliasOf = new Map<string, string>();
  for (const head of heads) if (head.alias !== '') aliasOf.set(head.ruleId, head.alias);
  for (const d of documents) if (d.ruleAlias !== '' && !aliasOf.has(String(d.ruleId))) aliasOf.set(String(d.ruleId), String(d.ruleAlias));
  const taken = new Set([...heads.map((h) => h.alias), ...documents.map((d) => String(d.ruleAlias))]);
  const ids = new Set([...heads.map((h) => h.ruleId), ...documents.map((d) => String(d.ruleId))]);
  for (const d of documents) {
    if (d.ruleAlias !== '') continue;
    let alias = aliasOf.get(String(d.ruleId));
    if (alias === undefined) {
      alias = uniqueAlias(d.name, takenNames(taken, ids, String(d.ruleId)));
      aliasOf.set(String(d.ruleId), alias);
      taken.add(alias);
    }
    d.ruleAlias = alias;
  }
}

function located(source: string, problem: Problem): Problem {
  if (source === '') return problem;
  return { path: problem.path === '' ? source : `${source}: ${problem.path}`, message: problem.message };
}

export class RulesIO {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Imports any DecisionRules container (rule, array of rules, rule-flow export, folder export). */
  async importContainer(space: string, value: unknown, options: ImportOptions = {}): Promise<ImportResult> {
    return this.importContainers(space, [{ source: '', value }], options);
  }

  /**
   * Imports several containers (e.g. the files of a folder) all or nothing: every rule of every container is
   * validated first; problem paths start with the container's source name.
   */
  async importContainers(space: string, containers: Array<{ source: string; value: unknown }>, options: ImportOptions = {}): Promise<ImportResult> {
    await requireSpace(this.#store, space);
    const problems: Problem[] = [];
    const documents: Record<string, unknown>[] = [];
    /** The test suites each document carried (Verdict exports), index for index with documents. */
    const suites: Array<SuiteDefinition[] | undefined> = [];
    for (const { source, value } of containers) {
      let container: RuleContainer;
      try {
        const fileName = source === '' ? undefined : source;
        container = readContainer(await dmnFileValue(ruleFileValue(value, { fileName, status: 'pending' }).value, { fileName, status: 'pending' }));
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        problems.push(...err.problems.map((p) => located(source, p)));
        continue;
      }
      problems.push(...validateContainer(container).map((p) => located(source, p)));
      for (const entry of container.rules) {
        const id = ruleIdOf(entry.document);
        const idProblem = id === undefined ? undefined : ruleIdProblem(id, joinPaths(entry.path, 'ruleId'), entry.document.name);
        if (idProblem) problems.push(located(source, idProblem));
        const found: Problem[] = [];
        const taken = takeSuites(entry.document, entry.path, found);
        problems.push(...found.map((p) => located(source, p)));
        documents.push(taken.document);
        suites.push(taken.suites);
      }
    }
    if (problems.length > 0) throw new ValidationError(problems);
    const now = isoAt(this.#clock);
    const prepared = documents.map((document) => prepareForStorage(document, now));
    const carried: CarriedSuites[] = prepared.flatMap((d, i) => (suites[i] ? [{ ruleId: String(d.ruleId), version: Number(d.version), suites: suites[i] }] : []));
    // One management transaction: the alias check and the write see the same rules (writes to a space are serialised).
    return this.#store.management.transaction(space, async (tx) => {
      const heads = await tx.heads();
      chooseMissingAliases(heads, prepared);
      await linkBatchImports(tx, prepared);
      const incoming = prepared.map((d) => ({ ruleId: String(d.ruleId), version: Number(d.version), alias: String(d.ruleAlias), name: String(d.name) }));
      assertNoNewClash(heads, incoming);
      const shared = sharedAliases(heads, incoming);
      if (options.strict && shared.length > 0) throw new ValidationError(shared.map((s) => sharingProblem(space, s)));
      const stored = await tx.putRules(prepared);
      await recordHistory(tx, { clock: this.#clock }, stored, 'import', { by: options.by ?? CLI_ACTOR });
      await writeCarriedSuites(tx, carried, now);
      return {
        imported: stored.map((r) => ({ ruleId: r.ruleId, version: r.version, ruleAlias: r.alias, type: r.type, status: r.status })),
        sharedAliases: shared,
      };
    });
  }

  /** Every version of every rule of the space, as full documents. */
  async rules(space: string): Promise<StoredRule[]> {
    const heads = await this.#store.rules.listHeads(space);
    const out: StoredRule[] = [];
    for (const head of heads) {
      const rule = await this.#store.rules.get(space, head.ruleId, head.version);
      if (rule) out.push(rule);
    }
    return out;
  }

  /** Every rule version as exported: each rule's test suites on its highest version (`testSuites`). */
  async exportRules(space: string): Promise<StoredRule[]> {
    const rules = await this.rules(space);
    const documents = await this.#store.management.read(space, (tx) => attachSuites(tx, rules.map((r) => r.document)));
    return rules.map((r, i) => ({ ...r, document: documents[i]! }));
  }

  /** The space as a DecisionRules folder export (rule-format §9.2), re-importable with `verdict import`. */
  async exportFolder(space: string): Promise<Record<string, unknown>> {
    const rules = await this.exportRules(space);
    return {
      export: {
        exportType: 'FOLDER',
        version: 1,
        createdAt: isoAt(this.#clock),
        data: {
          structure: {
            id: 'root',
            name: 'Home',
            type: 'ROOT',
            children: rules.map((r) => ({ baseId: r.ruleId, version: r.version, name: r.name, ruleAlias: r.alias, type: 'RULE' })),
          },
          rules: rules.map((r) => r.document),
        },
      },
    };
  }
}
