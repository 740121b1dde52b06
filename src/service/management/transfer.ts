// Export and import over the management API: folders in the DecisionRules folder format (rule-format §9.2) and
// rule flows as `[flow, ...rules it uses]` (§9.3). Imports validate every rule first and write everything in one
// transaction, so a failed import changes nothing. Ids, aliases and folders on import:
// docs/decisions/management-api-semantics.md.
import { ValidationError } from '../../engine/errors.ts';
import type { Problem } from '../../engine/errors.ts';
import { joinPaths, readContainer, ruleIdOf } from '../../rules/containers.ts';
import type { FolderNode as ExportFolderNode, RuleContainer } from '../../rules/containers.ts';
import type { ManagementTransaction, RuleHead, StoredRule } from '../../store/ports.ts';
import { isoAt } from '../clock.ts';
import { jdmTestsOf, ruleFileValue } from '../jdm-files.ts';
import { dmnFileValue } from '../dmn-files.ts';
import { DMN_XML_FIELD } from '../../rules/dmn-rule.ts';
import { linkBatchImports } from './dmn.ts';
import { CannotConvertError, tableToGraph, writeJdm } from '../../formats/jdm/index.ts';
import { ServiceError } from '../errors.ts';
import { prepareForStorage, uniqueAlias } from '../rules-io.ts';
import { assertNoNewClash, ruleIdProblem, takenNames } from '../rule-namespace.ts';
import type { SuiteDefinition } from '../rule-tests/definitions.ts';
import { attachSuites, takeSuites, writeCarriedSuites } from '../rule-tests/portable.ts';
import type { ImportedRule } from '../rules-io.ts';
import type { ManagementContext, WriteOptions } from './context.ts';
import { problemsOf, requestedAlias, withIdentity } from './documents.ts';
import type { RuleDocument } from './documents.ts';
import { badRequest, conflict } from './errors.ts';
import { FolderTree, renderNode } from './folder-tree.ts';
import type { FolderNode } from './folder-tree.ts';
import { createFolders, folderName, loadTree, resolveTarget } from './folders.ts';
import type { FolderTarget } from './folders.ts';
import { recordHistory } from './history.ts';
import { assertUnlocked, documentOf, findRule, findVersion, groupByRule, nextVersion } from './lookup.ts';
import { assertMayChangePublished, assertMayLock, assertMayPublish } from './publish-rights.ts';
import { assertApproved } from './reviews.ts';
import { aliasOwners, aliasTaken } from './rules.ts';

export interface FolderImportResult {
  /** The folder the export became (the target itself for an export of a root). */
  folderNode: string;
  imported: ImportedRule[];
}

export interface RuleFlowImportOptions {
  /** Import the flow (the first element) as the next version of this rule. */
  newVersion?: string;
  /** Import the flow over this rule's `version`. */
  overwrite?: string;
  version?: number;
  /** The name a JDM file's decision graph gets (a JDM file names none); default "Decision graph". */
  name?: string;
}

interface Incoming {
  document: RuleDocument;
  /** The alias the file gave, if any (else one is generated). */
  alias: string | undefined;
  /** Whether the file gave a version. */
  hasVersion: boolean;
  /** Test suites the document carried (a Verdict export), written with the rule. */
  suites: SuiteDefinition[] | undefined;
}

function versionKey(ruleId: string, version: number): string {
  return `${ruleId}\u0000${version}`;
}

function imported(rules: readonly StoredRule[]): ImportedRule[] {
  return rules.map((r) => ({ ruleId: r.ruleId, version: r.version, ruleAlias: r.alias, type: r.type, status: r.status }));
}

export class TransferManagement {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
    this.#ctx = ctx;
  }

  /**
   * Reads and checks an import body: every problem of every rule at once, with its place in the container. A
   * GoRules JDM file (format detected) is one decision graph named `jdmName`, its tests its suite "JDM tests".
   */
  async #read(body: unknown, jdmName?: string): Promise<{ container: RuleContainer; incoming: Incoming[] }> {
    const value = await dmnFileValue(ruleFileValue(body, { name: jdmName, status: 'pending' }).value, { name: jdmName, status: 'pending' });
    const container = readContainer(value);
    const problems: Problem[] = [];
    const taken = container.rules.map((entry) => takeSuites(entry.document, entry.path, problems));
    for (const entry of container.rules) {
      const id = ruleIdOf(entry.document);
      const idProblem = id === undefined ? undefined : ruleIdProblem(id, joinPaths(entry.path, 'ruleId'), entry.document.name);
      if (idProblem) problems.push(idProblem);
      for (const p of problemsOf(entry.document, this.#ctx.compile)) problems.push({ path: joinPaths(entry.path, p.path), message: p.message });
    }
    if (problems.length > 0) throw new ValidationError(problems);
    const now = isoAt(this.#ctx.clock);
    const incoming = taken.map(({ document: entry, suites }) => {
      const { _id: _storageId, ...document } = entry;
      return { document: prepareForStorage(document, now), alias: requestedAlias(document), hasVersion: typeof document.version === 'number', suites };
    });
    return { container, incoming };
  }

  /**
   * Final identities of imported documents: ids kept (the same id and version overwrites that version, as
   * `verdict import` does); a rule already in the space keeps its alias; a new rule's alias must not belong to
   * another rule; locked versions are never overwritten.
   */
  async #plan(tx: ManagementTransaction, heads: readonly RuleHead[], incoming: readonly Incoming[]): Promise<{ documents: RuleDocument[]; overwritten: RuleHead[] }> {
    const existing = groupByRule(heads);
    const owners = aliasOwners(heads);
    const aliasOf = new Map<string, string>();
    const usedAliases = new Set(owners.keys());
    const ids = new Set([...existing.keys(), ...incoming.map((item) => item.document.ruleId as string)]);
    const out: RuleDocument[] = [];
    const overwritten: RuleHead[] = [];
    for (const item of incoming) {
      const ruleId = item.document.ruleId as string;
      let version = item.document.version as number;
      const known = existing.get(ruleId);
      if (known && !item.hasVersion) version = nextVersion(ruleId, await tx.highestVersion(ruleId));
      let alias = known ? known[known.length - 1]!.alias : aliasOf.get(ruleId);
      if (alias === undefined) {
        alias = item.alias ?? uniqueAlias(item.document.name, takenNames(usedAliases, ids, ruleId));
        const owner = owners.get(alias);
        if (owner !== undefined && owner !== ruleId) throw aliasTaken(alias, owner);
        const twin = [...aliasOf.entries()].find(([id, a]) => a === alias && id !== ruleId);
        if (twin) throw conflict(`Rule alias "${alias}" is given to two different rules of the import (${twin[0]} and ${ruleId})`);
      }
      aliasOf.set(ruleId, alias);
      usedAliases.add(alias);
      const current = known?.find((h) => h.version === version);
      if (current) {
        assertUnlocked([current]);
        overwritten.push(current);
      }
      out.push(withIdentity(item.document, { ruleId, version, alias }));
    }
    assertNoNewClash(heads, out.map((d) => ({ ruleId: d.ruleId as string, version: d.version as number, alias: d.ruleAlias as string, name: String(d.name) })));
    return { documents: out, overwritten };
  }

  /** New versions of rules that exist go where the rule's latest version is; new rules stay where they are put. */
  async #placeNewVersions(tx: ManagementTransaction, heads: readonly RuleHead[], stored: readonly StoredRule[]): Promise<void> {
    const existing = groupByRule(heads);
    const placements = await tx.placements();
    for (const rule of stored) {
      const known = existing.get(rule.ruleId);
      if (!known || known.some((h) => h.version === rule.version)) continue;
      const latest = known[known.length - 1]!;
      const placement = placements.find((p) => p.ruleId === rule.ruleId && p.version === latest.version);
      if (placement) await tx.place(rule.ruleId, rule.version, placement.folderId);
    }
  }

  async exportFolder(space: string, target: FolderTarget): Promise<Record<string, unknown>> {
    const { node, documents } = await this.#ctx.store.management.read(space, async (tx) => {
      const rules = await tx.rules();
      const tree = new FolderTree(await tx.folders(), await tx.placements(), rules);
      const found = resolveTarget(tree, target);
      const byKey = new Map(rules.map((r) => [versionKey(r.ruleId, r.version), r.document]));
      return { node: found, documents: await attachSuites(tx, tree.rulesIn(found).map((h) => byKey.get(versionKey(h.ruleId, h.version))!)) };
    });
    return {
      export: {
        exportType: 'FOLDER',
        version: 1,
        createdAt: isoAt(this.#ctx.clock),
        data: { structure: renderNode(node), rules: documents },
      },
    };
  }

  /**
   * Imports a folder export under the target folder. Its folders are merged by name into what exists (importing
   * the same export again updates it rather than copying it); rules land where their RULE leaves put them, rules
   * no leaf names in the imported folder. Also accepts a single rule or an array of rules.
   */
  async importFolder(space: string, target: FolderTarget, body: unknown, options: WriteOptions = {}): Promise<FolderImportResult> {
    const { container, incoming } = await this.#read(body);
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const { tree, heads } = await loadTree(tx);
      const destination = resolveTarget(tree, target);
      const { documents, overwritten } = await this.#plan(tx, heads, incoming);
      await linkBatchImports(tx, documents);
      assertMayChangePublished(space, options, overwritten);
      assertMayPublish(space, options, documents.some((d) => d.status === 'published'));
      assertMayLock(space, options, documents.some((d) => d.locked === true));
      for (const published of documents.filter((d) => d.status === 'published')) await assertApproved(tx, undefined, published);
      const stored = await tx.putRules(documents);
      await this.#placeNewVersions(tx, heads, stored);
      await recordHistory(tx, this.#ctx, stored, 'import', options);
      const now = isoAt(this.#ctx.clock);
      await writeCarriedSuites(tx, carriedSuites(incoming, documents), now);
      const structure = container.structure;
      const top = structure === undefined || structure.type === 'ROOT'
        ? destination
        : await this.#folderFor(tx, tree, heads, destination, structure.name, 'export.data.structure.name', now);
      const importedVersions = new Map<string, number[]>();
      for (const r of stored) importedVersions.set(r.ruleId, [...(importedVersions.get(r.ruleId) ?? []), r.version]);
      const placed = new Set<string>();
      const walk = async (node: ExportFolderNode, folder: FolderNode, path: string): Promise<void> => {
        for (const [index, child] of node.children.entries()) {
          const childPath = `${path}.children[${index}]`;
          if (child.type === 'RULE') {
            const versions = (importedVersions.get(child.baseId) ?? []).filter((v) => child.version === undefined || v === child.version);
            for (const v of versions) {
              await tx.place(child.baseId, v, folder.id);
              placed.add(versionKey(child.baseId, v));
            }
            continue;
          }
          await walk(child, await this.#folderFor(tx, tree, heads, folder, child.name, `${childPath}.name`, now), childPath);
        }
      };
      if (structure) await walk(structure, top, 'export.data.structure');
      for (const r of stored) if (!placed.has(versionKey(r.ruleId, r.version))) await tx.place(r.ruleId, r.version, top.id);
      return { folderNode: top.id, imported: imported(stored) };
    });
  }

  async #folderFor(tx: ManagementTransaction, tree: FolderTree, heads: readonly RuleHead[], parent: FolderNode, name: unknown, where: string, now: string): Promise<FolderNode> {
    const wanted = folderName(name, where);
    return parent.folders.find((f) => f.name === wanted) ?? createFolders(tx, tree, heads, parent, { kind: 'folder', name: wanted, children: [] }, now);
  }

  /**
   * One rule as a GoRules JDM file (without a version, its latest): a decision graph as it was imported, a decision
   * table converted exactly to input -> table -> output with `hitPolicy`; the rule's tests whose answer is one
   * object become the file's `tests`. Anything JDM cannot express exactly is `not-convertible`, naming each place.
   */
  async exportJdm(space: string, idOrAlias: string, version: number | undefined, hitPolicy: 'first' | 'collect' = 'first'): Promise<Record<string, unknown>> {
    const { document, suites } = await this.#ctx.store.management.read(space, async (tx) => {
      const rules = await tx.rules();
      const head = findVersion(findRule(rules, idOrAlias), version);
      const rule = rules.find((r) => r.ruleId === head.ruleId && r.version === head.version)!;
      return { document: rule.document, suites: await tx.ruleTests(head.ruleId) };
    });
    const tests = jdmTestsOf(suites.map(({ tests: list }) => ({ tests: list.map((t) => ({ input: t.input, expected: t.expected as unknown[] })) })));
    try {
      const graph = document.type === 'decision-table' ? tableToGraph(document, hitPolicy) : document;
      return writeJdm(graph, tests);
    } catch (err) {
      if (!(err instanceof CannotConvertError)) throw err;
      const problems = err.unsupported.map((u) => ({ path: u.path, message: u.reason }));
      throw new ServiceError('not-convertible', `Rule "${idOrAlias}" cannot be written as JDM exactly: ${err.message.replace(/^cannot convert exactly: /, '')}`, { problems });
    }
  }

  /** A `dmn` rule's model as its .dmn file (the XML as stored); without a version, its latest. */
  async exportDmn(space: string, idOrAlias: string, version: number | undefined): Promise<{ xml: string; filename: string }> {
    const document = await this.#ctx.store.management.read(space, async (tx) => (await documentOf(tx, findVersion(findRule(await tx.heads(), idOrAlias), version))).document);
    if (document.type !== 'dmn' || typeof document[DMN_XML_FIELD] !== 'string') {
      throw badRequest(`Rule "${idOrAlias}" is a ${String(document.type)}, not a DMN model: only rules of type dmn export as .dmn`);
    }
    return { xml: document[DMN_XML_FIELD], filename: `${String(document.ruleAlias ?? document.name)}.dmn` };
  }

  /** `[flow, ...every rule it uses, transitively]`; without a version, the flow's latest version. */
  async exportRuleFlow(space: string, idOrAlias: string, version: number | undefined): Promise<RuleDocument[]> {
    const documents = await this.#flowDocuments(space, idOrAlias, version);
    return this.#ctx.store.management.read(space, (tx) => attachSuites(tx, documents));
  }

  async #flowDocuments(space: string, idOrAlias: string, version: number | undefined): Promise<RuleDocument[]> {
    const rules = await this.#ctx.store.management.read(space, (tx) => tx.rules());
    const root = findVersion(findRule(rules, idOrAlias), version);
    const byKey = new Map(rules.map((r) => [versionKey(r.ruleId, r.version), r]));
    const out: StoredRule[] = [byKey.get(versionKey(root.ruleId, root.version))!];
    const seen = new Set([versionKey(root.ruleId, root.version)]);
    for (let i = 0; i < out.length; i++) {
      let dependencies;
      try {
        dependencies = (await this.#ctx.cache.load(out[i]!)).compiled.dependencies;
      } catch {
        continue; // a rule that does not compile references nothing we can list
      }
      for (const ref of dependencies) {
        const head = resolveReference(rules, ref.idOrAlias, ref.version);
        if (!head || seen.has(versionKey(head.ruleId, head.version))) continue;
        seen.add(versionKey(head.ruleId, head.version));
        out.push(byKey.get(versionKey(head.ruleId, head.version))!);
      }
    }
    return out.map((r) => r.document);
  }

  /**
   * Imports `[flow, ...rules]` (rule-format §9.3): per rule, an unknown id is created, a known id and version is
   * overwritten, a known id with a new version is added. `newVersion` makes the flow the next version of that
   * rule; `overwrite` + `version` writes it over that version.
   */
  async importRuleFlow(space: string, body: unknown, options: RuleFlowImportOptions & WriteOptions): Promise<ImportedRule[]> {
    if (options.newVersion !== undefined && options.overwrite !== undefined) throw badRequest('Give new-version or overwrite, not both');
    if (options.overwrite !== undefined && options.version === undefined) throw badRequest('overwrite needs the version to overwrite: ?overwrite=<id>&version=<n>');
    const { container, incoming } = await this.#read(body, options.name);
    if (container.kind === 'folder') throw badRequest('This is a folder export; import it with POST /api/folder/import');
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const heads = await tx.heads();
      const first = incoming[0];
      if (first && (options.newVersion !== undefined || options.overwrite !== undefined)) {
        const rule = findRule(heads, (options.newVersion ?? options.overwrite)!);
        const latest = rule.versions[rule.versions.length - 1]!;
        if (first.document.type !== latest.type) {
          throw new ValidationError([{ path: '[0].type', message: `must stay "${latest.type}", the type of rule ${rule.ruleId}` }]);
        }
        let version: number;
        if (options.overwrite !== undefined) {
          version = findVersion(rule, options.version).version;
        } else {
          const highest = await tx.highestVersion(rule.ruleId);
          version = options.version ?? nextVersion(rule.ruleId, highest);
          if (version <= highest) throw conflict(`Version ${version} of rule ${rule.ruleId} was already used; the next free version is ${highest + 1}`);
        }
        first.document = withIdentity(first.document, { ruleId: rule.ruleId, version, alias: rule.alias });
        first.hasVersion = true;
      }
      const { documents, overwritten } = await this.#plan(tx, heads, incoming);
      await linkBatchImports(tx, documents);
      assertMayChangePublished(space, options, overwritten);
      assertMayPublish(space, options, documents.some((d) => d.status === 'published'));
      assertMayLock(space, options, documents.some((d) => d.locked === true));
      for (const published of documents.filter((d) => d.status === 'published')) await assertApproved(tx, undefined, published);
      const stored = await tx.putRules(documents);
      await this.#placeNewVersions(tx, heads, stored);
      await recordHistory(tx, this.#ctx, stored, 'import', options);
      await writeCarriedSuites(tx, carriedSuites(incoming, documents), isoAt(this.#ctx.clock));
      return imported(stored);
    });
  }
}

/** The suites imported documents carried, with the ids and versions the import gave them. */
function carriedSuites(incoming: readonly Incoming[], documents: readonly RuleDocument[]) {
  return incoming.flatMap((item, i) => (item.suites ? [{ ruleId: String(documents[i]!.ruleId), version: Number(documents[i]!.version), suites: item.suites }] : []));
}

/** The version a reference means when solving: the version given, else the latest published (else the latest). */
export function resolveReference(heads: readonly RuleHead[], idOrAlias: string, version: number | undefined): RuleHead | undefined {
  let rule;
  try {
    rule = findRule(heads, idOrAlias);
  } catch {
    return undefined;
  }
  if (version !== undefined) return rule.versions.find((v) => v.version === version);
  const published = rule.versions.filter((v) => v.status === 'published');
  return (published.length > 0 ? published : rule.versions)[(published.length > 0 ? published : rule.versions).length - 1];
}
