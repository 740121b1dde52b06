// Rule use cases of the management API (SPEC 5.1): get, create, new version, update, status, lock, delete, and the
// space listing. Numbering, aliases and statuses follow docs/decisions/management-api-semantics.md.
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../engine/errors.ts';
import { ruleIdOf } from '../../rules/containers.ts';
import { ALIAS_RULE_TEXT, isRuleAlias } from '../../rules/envelope.ts';
import type { RuleHead, RuleStatus, StoredRule } from '../../store/ports.ts';
import { isoAt } from '../clock.ts';
import type { ManagementContext, VersionedDocument, WriteOptions } from './context.ts';
import { checkDocument, isObject, requestedAlias, ruleBody, withIdentity } from './documents.ts';
import { prepareDmnWrite } from './dmn.ts';
import { uniqueAlias } from '../rules-io.ts';
import { assertNoNewClash, assertRuleId, namespaceClashes, takenNames } from '../rule-namespace.ts';
import type { NamespaceClash } from '../rule-namespace.ts';
import type { RuleDocument } from './documents.ts';
import { badRequest, conflict, notFound } from './errors.ts';
import { checkIfMatch, etagOf } from './etag.ts';
import { recordHistory } from './history.ts';
import { FolderTree } from './folder-tree.ts';
import { assertEditableInPlace } from './live-edits.ts';
import { assertMayChangePublished, assertMayLock, assertMayPublish, mayPublish } from './publish-rights.ts';
import { assertApproved } from './reviews.ts';
import { assertUnlocked, documentOf, findRule, findVersion, nextVersion } from './lookup.ts';
import type { RuleVersions } from './lookup.ts';
import { isFlowType, isSolvableType } from '../../rules/rule-types.ts';

/** One row of GET /api/space/items: a rule version without its body. */
export interface SpaceItem {
  baseId: string;
  ruleId: string;
  version: number;
  name: string;
  ruleAlias: string;
  type: string;
  status: RuleStatus;
  locked: boolean;
  tags: string[];
  description: string;
  createdIn: string;
  lastUpdate: string;
  /** When the version was first stored in this Verdict (ISO-8601 UTC). */
  createdAt: string;
  /** When the version was last written in this Verdict: its last change (ISO-8601 UTC). */
  updatedAt: string;
  /** The folder path (`/` for the root). */
  folder: string;
  /** Flows: the rules they use, as referenced (id or alias, and version when fixed). */
  rules?: Array<{ id: string; version?: number }>;
}

export interface DeletedRule {
  ruleId: string;
  deletedVersions: number[];
}

/** Which rule id owns each alias in the space. */
export function aliasOwners(heads: readonly RuleHead[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const head of heads) if (head.alias !== '' && !owners.has(head.alias)) owners.set(head.alias, head.ruleId);
  return owners;
}

export function aliasTaken(alias: string, owner: string): Error {
  return conflict(`Rule alias "${alias}" is already used by rule ${owner} in this space; choose another ruleAlias, or leave it out to have one generated`);
}

function versioned(stored: StoredRule): VersionedDocument {
  return { document: stored.document, etag: etagOf(stored) };
}

function typeProblem(document: RuleDocument, type: string, ruleId: string): void {
  if (document.type !== type) {
    throw new ValidationError([{ path: 'type', message: `must stay "${type}", the type of rule ${ruleId}; create a new rule for another type` }]);
  }
}

export class RuleManagement {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
    this.#ctx = ctx;
  }

  #now(): string {
    return isoAt(this.#ctx.clock);
  }

  async get(space: string, idOrAlias: string, version: number | undefined): Promise<VersionedDocument> {
    return this.#ctx.store.management.read(space, async (tx) => {
      const head = findVersion(findRule(await tx.heads(), idOrAlias), version);
      return versioned(await documentOf(tx, head));
    });
  }

  /**
   * Creates a rule: version 1 (or the next number, for an id whose versions were all deleted), status published
   * unless the body says pending or its writer could not publish it, the body's ruleId and alias kept when free,
   * else refused; a missing alias is the name's slug, suffixed only on a clash (uniqueAlias). `folderPath` places
   * it in a folder.
   */
  async create(space: string, body: unknown, folderPath?: string, options: WriteOptions = {}): Promise<VersionedDocument> {
    const now = this.#now();
    const written = ruleBody(body);
    const input = await prepareDmnWrite(this.#ctx, space, written, ruleIdOf(written));
    const requestedId = ruleIdOf(input);
    if (requestedId !== undefined) assertRuleId(requestedId, input.name);
    const alias = requestedAlias(input);
    // Without a status a new rule is published, as DecisionRules does, unless its writer could not publish it (a
    // role without rules:publish, or a space that requires approvals): then it starts pending.
    const approvals = (await this.#ctx.store.spaces.settings(space))?.approvals === true;
    const status = input.status ?? (approvals || !mayPublish(options) ? 'pending' : 'published');
    const draft: RuleDocument = { ...input, status, tags: input.tags ?? [], locked: input.locked ?? false, createdIn: now, lastUpdate: now };
    assertMayPublish(space, options, draft.status === 'published');
    assertMayLock(space, options, draft.locked === true);
    const warnings = checkDocument(withIdentity(draft, { ruleId: requestedId ?? randomUUID(), version: 1, alias: alias ?? 'generated' }), this.#ctx.compile);
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const heads = await tx.heads();
      if (requestedId !== undefined && heads.some((h) => h.ruleId === requestedId)) {
        throw conflict(`Rule id "${requestedId}" already exists in this space; add a version with POST /api/rule/${requestedId}/new-version, or leave ruleId out`);
      }
      const owners = aliasOwners(heads);
      if (alias !== undefined && owners.has(alias)) throw aliasTaken(alias, owners.get(alias)!);
      const ruleId = requestedId ?? randomUUID();
      const ids = new Set(heads.map((h) => h.ruleId));
      const chosenAlias = alias ?? uniqueAlias(input.name, takenNames(new Set(owners.keys()), ids, ruleId));
      assertNoNewClash(heads, [{ ruleId, version: 0, alias: chosenAlias, name: String(input.name) }]);
      let folderId: string | undefined;
      if (folderPath !== undefined) {
        const tree = new FolderTree(await tx.folders(), [], []);
        const folder = tree.nodeAtPath(folderPath);
        if (!folder) throw notFound(`Folder "${folderPath}" not found`);
        folderId = folder.id;
      }
      const version = nextVersion(ruleId, await tx.highestVersion(ruleId));
      if (draft.status === 'published') await assertApproved(tx, undefined, draft);
      const document = withIdentity(draft, { ruleId, version, alias: chosenAlias });
      const [stored] = await tx.putRules([document]);
      if (folderId !== undefined) await tx.place(ruleId, version, folderId);
      await recordHistory(tx, this.#ctx, [stored!], 'create', options);
      return { ...versioned(stored!), warnings };
    });
  }

  /**
   * Adds a version after the highest number the rule ever had. It starts pending; id, alias and name stay the
   * rule's whatever the body says; it goes into the folder of the latest version.
   */
  async newVersion(space: string, idOrAlias: string, body: unknown, options: WriteOptions = {}): Promise<VersionedDocument> {
    const now = this.#now();
    const { rule, latest } = await this.#ctx.store.management.read(space, async (tx) => {
      const found = findRule(await tx.heads(), idOrAlias);
      return { rule: found, latest: findVersion(found, undefined) };
    });
    const input = await prepareDmnWrite(this.#ctx, space, ruleBody(body), rule.ruleId);
    const draft: RuleDocument = {
      ...input,
      type: input.type ?? latest.type,
      name: latest.name,
      status: 'pending',
      locked: false,
      tags: input.tags ?? latest.tags,
      createdIn: now,
      lastUpdate: now,
    };
    typeProblem(draft, latest.type, rule.ruleId);
    const warnings = checkDocument(withIdentity(draft, { ruleId: rule.ruleId, version: nextVersion(rule.ruleId, latest.version), alias: rule.alias }), this.#ctx.compile);
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const current = this.#sameRule(findRule(await tx.heads(), idOrAlias), rule);
      const top = findVersion(current, undefined);
      const version = nextVersion(current.ruleId, await tx.highestVersion(current.ruleId));
      const [stored] = await tx.putRules([withIdentity(draft, { ruleId: current.ruleId, version, alias: current.alias })]);
      const placement = (await tx.placements()).find((p) => p.ruleId === current.ruleId && p.version === top.version);
      if (placement) await tx.place(current.ruleId, version, placement.folderId);
      await recordHistory(tx, this.#ctx, [stored!], 'new-version', options);
      return { ...versioned(stored!), warnings };
    });
  }

  /**
   * Replaces a version's content; id, version, alias, lock and creation time stay. Locked versions refuse. The
   * If-Match precondition is checked inside the write's transaction, so of two writes that read the same version
   * only the first wins. Content that will be published (the version is, or the body says so) passes the publishing
   * gate first. A published version refuses when the space forbids live edits (live-edits.ts).
   */
  async update(space: string, idOrAlias: string, version: number | undefined, body: unknown, options: WriteOptions = {}): Promise<VersionedDocument> {
    const now = this.#now();
    const { rule, head, existing } = await this.#ctx.store.management.read(space, async (tx) => {
      const found = findRule(await tx.heads(), idOrAlias);
      const target = findVersion(found, version);
      return { rule: found, head: target, existing: (await documentOf(tx, target)).document };
    });
    const input = await prepareDmnWrite(this.#ctx, space, ruleBody(body), rule.ruleId);
    assertUnlocked([head]);
    assertMayChangePublished(space, options, [head]);
    const liveEdits = (await this.#ctx.store.spaces.settings(space))?.liveEdits ?? 'allowed';
    assertEditableInPlace(head, liveEdits);
    const draft: RuleDocument = {
      ...input,
      type: input.type ?? head.type,
      status: input.status ?? head.status,
      locked: head.locked,
      tags: input.tags ?? head.tags,
      createdIn: typeof existing.createdIn === 'string' ? existing.createdIn : head.createdAt,
      lastUpdate: now,
    };
    typeProblem(draft, head.type, rule.ruleId);
    const document = withIdentity(draft, { ruleId: rule.ruleId, version: head.version, alias: rule.alias });
    const warnings = checkDocument(document, this.#ctx.compile);
    assertMayPublish(space, options, draft.status === 'published');
    const gated = draft.status === 'published' && this.#ctx.publishGate !== undefined;
    if (gated) await this.#ctx.publishGate!.beforePublish(space, { head: { ...head, status: 'published' }, document, actor: options.actor }, options.force === true);
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const current = findVersion(this.#sameRule(findRule(await tx.heads(), idOrAlias), rule), head.version);
      checkIfMatch(options.ifMatch, await documentOf(tx, current));
      if (gated) this.#unchangedSinceTests(current, head);
      assertUnlocked([current]);
      assertMayChangePublished(space, options, [current]);
      assertEditableInPlace(current, liveEdits);
      if (draft.status === 'published') await assertApproved(tx, current, document);
      const [stored] = await tx.putRules([{ ...document, ruleAlias: current.alias }]);
      await recordHistory(tx, this.#ctx, [stored!], 'update', options);
      return { ...versioned(stored!), warnings };
    });
  }

  /** Publishing a pending version passes the publishing gate first (its tests run outside the transaction). */
  async setStatus(space: string, idOrAlias: string, status: RuleStatus, version: number | undefined, options: WriteOptions = {}): Promise<VersionedDocument> {
    assertMayPublish(space, options, true);
    let tested: RuleHead | undefined;
    const gate = this.#ctx.publishGate;
    if (status === 'published' && gate !== undefined) {
      const head = await this.#ctx.store.management.read(space, async (tx) => findVersion(findRule(await tx.heads(), idOrAlias), version));
      if (head.status !== 'published') {
        assertUnlocked([head]);
        await gate.beforePublish(space, { head, actor: options.actor }, options.force === true);
        tested = head;
      }
    }
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const head = findVersion(findRule(await tx.heads(), idOrAlias), version);
      const stored = await documentOf(tx, head);
      checkIfMatch(options.ifMatch, stored);
      if (tested) this.#unchangedSinceTests(head, tested);
      assertUnlocked([head]);
      if (status === 'published' && head.status !== 'published') await assertApproved(tx, head, stored.document);
      const [updated] = await tx.putRules([{ ...stored.document, status, lastUpdate: this.#now() }]);
      await recordHistory(tx, this.#ctx, [updated!], status === 'published' ? 'publish' : 'pending', options);
      return versioned(updated!);
    });
  }

  async setLock(space: string, idOrAlias: string, locked: boolean, version: number | undefined, options: WriteOptions = {}): Promise<VersionedDocument> {
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const head = findVersion(findRule(await tx.heads(), idOrAlias), version);
      const stored = await documentOf(tx, head);
      checkIfMatch(options.ifMatch, stored);
      const [updated] = await tx.putRules([{ ...stored.document, locked, lastUpdate: this.#now() }]);
      await recordHistory(tx, this.#ctx, [updated!], locked ? 'lock' : 'unlock', options);
      return versioned(updated!);
    });
  }

  /**
   * Gives the rule a new alias: every version carries it at once, the old one stops answering (the store's change
   * event drops the cached catalog). Refused when another rule has the alias, or the alias is another rule's id
   * (409, naming that rule), or it breaks the rule for aliases (400). Locks do not stop it: a lock freezes a
   * version's content, and the alias names the rule, not a version (docs/decisions/aliases-chosen-by-users.md).
   * Returns the latest version.
   */
  async setAlias(space: string, idOrAlias: string, body: unknown, options: WriteOptions = {}): Promise<VersionedDocument> {
    const alias = isObject(body) ? body.ruleAlias : undefined;
    if (typeof alias !== 'string' || !isRuleAlias(alias)) {
      throw badRequest(`ruleAlias must be ${ALIAS_RULE_TEXT} (got ${alias === undefined ? 'none' : JSON.stringify(alias)}); send {"ruleAlias": "new-alias"}`);
    }
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const heads = await tx.heads();
      const rule = findRule(heads, idOrAlias);
      assertMayChangePublished(space, options, rule.versions);
      const owner = aliasOwners(heads.filter((h) => h.ruleId !== rule.ruleId)).get(alias);
      if (owner !== undefined) throw aliasTaken(alias, owner);
      assertNoNewClash(heads, rule.versions.map((v) => ({ ...v, alias })));
      const now = this.#now();
      const documents = (await tx.versions(rule.ruleId)).map((v) => ({ ...v.document, ruleAlias: alias, lastUpdate: now }));
      const stored = await tx.putRules(documents);
      await recordHistory(tx, this.#ctx, stored, 'alias', options);
      return versioned(stored.reduce((a, b) => (b.version > a.version ? b : a)));
    });
  }

  /** Deletes one version, or every version when none is given; refused when a version to delete is locked. */
  async delete(space: string, idOrAlias: string, version: number | undefined, options: WriteOptions = {}): Promise<DeletedRule> {
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const rule = findRule(await tx.heads(), idOrAlias);
      const targets = version === undefined ? rule.versions : [findVersion(rule, version)];
      assertUnlocked(targets);
      await tx.deleteRule(rule.ruleId, version);
      await recordHistory(tx, this.#ctx, targets, 'delete', options);
      return { ruleId: rule.ruleId, deletedVersions: targets.map((t) => t.version) };
    });
  }

  /** Texts that are one rule's id and another's alias, stored before the check on writes (rule-namespace.ts). */
  async namespaceClashes(space: string): Promise<NamespaceClash[]> {
    return namespaceClashes(await this.#ctx.store.rules.listHeads(space));
  }

  /** Every version of every rule, without bodies; flows list the rules they use. */
  async items(space: string): Promise<SpaceItem[]> {
    const { rules, tree } = await this.#ctx.store.management.read(space, async (tx) => {
      const all = await tx.rules();
      return { rules: all, tree: new FolderTree(await tx.folders(), await tx.placements(), all) };
    });
    const items: SpaceItem[] = [];
    for (const rule of rules) {
      const doc = rule.document;
      const item: SpaceItem = {
        baseId: rule.ruleId,
        ruleId: rule.ruleId,
        version: rule.version,
        name: rule.name,
        ruleAlias: rule.alias,
        type: rule.type,
        status: rule.status,
        locked: rule.locked,
        tags: rule.tags,
        description: typeof doc.description === 'string' ? doc.description : '',
        createdIn: typeof doc.createdIn === 'string' ? doc.createdIn : rule.createdAt,
        lastUpdate: typeof doc.lastUpdate === 'string' ? doc.lastUpdate : rule.updatedAt,
        createdAt: rule.createdAt,
        updatedAt: rule.updatedAt,
        folder: tree.path(tree.folderOf(rule.ruleId, rule.version)),
      };
      // The rules a flow's nodes call (rule flows, decision flows, decision graphs), as the engine lists them.
      if (isFlowType(rule.type) && isSolvableType(rule.type)) item.rules = await this.#usedRules(rule);
      items.push(item);
    }
    return items;
  }

  async #usedRules(head: RuleHead): Promise<Array<{ id: string; version?: number }>> {
    try {
      const loaded = await this.#ctx.cache.load(head);
      return loaded.compiled.dependencies.map((ref) => (ref.version === undefined ? { id: ref.idOrAlias } : { id: ref.idOrAlias, version: ref.version }));
    } catch {
      return [];
    }
  }

  /** The version the gate's tests ran on must be the one about to be published, unchanged since. */
  #unchangedSinceTests(current: RuleHead, tested: RuleHead): void {
    if (current.ruleId !== tested.ruleId || current.version !== tested.version || current.updatedAt !== tested.updatedAt) {
      throw conflict(`Rule "${tested.alias || tested.ruleId}" version ${tested.version} changed while its tests ran; send the request again`);
    }
  }

  /** The rule a transaction found must be the one the checks ran on (not another rule that took its alias since). */
  #sameRule(current: RuleVersions, checked: RuleVersions): RuleVersions {
    if (current.ruleId !== checked.ruleId) throw conflict(`Rule "${checked.ruleId}" changed while the request ran; send it again`);
    return current;
  }
}
