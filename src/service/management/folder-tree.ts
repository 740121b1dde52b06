// A space's folder tree in memory, built from the stored folders, placements and rule heads, and its JSON form
// (rule-format §9.2): FOLDER/ROOT nodes with `id`, `name`, `children`, and RULE leaves naming a rule version.
// A version without a placement, or placed in a folder that no longer exists, sits in the root.
import { ROOT_FOLDER_ID } from '../../store/ports.ts';
import type { FolderRecord, RuleHead, RulePlacement } from '../../store/ports.ts';

export interface FolderNode {
  id: string;
  name: string;
  /** undefined for the root. */
  parent: FolderNode | undefined;
  folders: FolderNode[];
  rules: RuleHead[];
}

export const ROOT_NAME = 'Home';

/**
 * Node ids that mean the root: `root` as DecisionRules exports it, and the empty, `undefined` and `null` segments
 * the official SDK puts in the path when it is called without a node id.
 */
export function isRootId(id: string | undefined): boolean {
  return id === undefined || id === '' || id === ROOT_FOLDER_ID || id === 'undefined' || id === 'null';
}

function versionKey(ruleId: string, version: number): string {
  return `${ruleId}\u0000${version}`;
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export class FolderTree {
  readonly root: FolderNode;
  readonly #byId = new Map<string, FolderNode>();
  readonly #folderOfVersion = new Map<string, FolderNode>();

  constructor(folders: readonly FolderRecord[], placements: readonly RulePlacement[], heads: readonly RuleHead[]) {
    this.root = { id: ROOT_FOLDER_ID, name: ROOT_NAME, parent: undefined, folders: [], rules: [] };
    this.#byId.set(ROOT_FOLDER_ID, this.root);
    for (const f of folders) this.#byId.set(f.id, { id: f.id, name: f.name, parent: undefined, folders: [], rules: [] });
    for (const f of folders) {
      const node = this.#byId.get(f.id)!;
      let parent = this.#byId.get(f.parentId) ?? this.root;
      // A parent link that would close a cycle (never written, but never trusted either) hangs the folder on the root.
      for (let p: FolderNode | undefined = parent; p; p = p.parent) if (p === node) parent = this.root;
      node.parent = parent;
      parent.folders.push(node);
    }
    const placed = new Map(placements.map((p) => [versionKey(p.ruleId, p.version), p.folderId]));
    for (const head of heads) {
      const folder = this.#byId.get(placed.get(versionKey(head.ruleId, head.version)) ?? ROOT_FOLDER_ID) ?? this.root;
      folder.rules.push(head);
      this.#folderOfVersion.set(versionKey(head.ruleId, head.version), folder);
    }
    for (const node of this.#byId.values()) {
      node.folders.sort(byName);
      node.rules.sort((a, b) => byName(a, b) || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : a.version - b.version));
    }
  }

  /** The folder with this id (root ids included), or undefined. */
  node(id: string | undefined): FolderNode | undefined {
    return isRootId(id) ? this.root : this.#byId.get(id!);
  }

  /** The folder at `/A/B` (folder names from the root); `/` is the root. */
  nodeAtPath(path: string): FolderNode | undefined {
    let node: FolderNode | undefined = this.root;
    for (const name of path.split('/').filter((part) => part !== '')) {
      node = node.folders.find((f) => f.name === name);
      if (!node) return undefined;
    }
    return node;
  }

  folderOf(ruleId: string, version: number): FolderNode {
    return this.#folderOfVersion.get(versionKey(ruleId, version)) ?? this.root;
  }

  /** The node and every folder below it, parents before children. */
  subtree(node: FolderNode): FolderNode[] {
    const out: FolderNode[] = [];
    const walk = (n: FolderNode): void => {
      out.push(n);
      for (const child of n.folders) walk(child);
    };
    walk(node);
    return out;
  }

  /** Every rule version in the node or below it. */
  rulesIn(node: FolderNode): RuleHead[] {
    return this.subtree(node).flatMap((n) => n.rules);
  }

  /** True when `node` is `ancestor` or lies below it. */
  isWithin(node: FolderNode, ancestor: FolderNode): boolean {
    for (let n: FolderNode | undefined = node; n; n = n.parent) if (n === ancestor) return true;
    return false;
  }

  /** Adds a folder created during this request, so later checks see it. */
  attach(record: FolderRecord): FolderNode {
    const parent = this.node(record.parentId) ?? this.root;
    const node: FolderNode = { id: record.id, name: record.name, parent, folders: [], rules: [] };
    parent.folders.push(node);
    this.#byId.set(node.id, node);
    return node;
  }

  /** Moves a folder in memory (after the store moved it). */
  reattach(node: FolderNode, parent: FolderNode): void {
    if (node.parent) node.parent.folders = node.parent.folders.filter((f) => f !== node);
    node.parent = parent;
    parent.folders.push(node);
  }

  /** Forgets a folder and everything below it (after the store deleted them). */
  detach(node: FolderNode): void {
    for (const n of this.subtree(node)) this.#byId.delete(n.id);
    if (node.parent) node.parent.folders = node.parent.folders.filter((f) => f !== node);
  }

  path(node: FolderNode): string {
    const names: string[] = [];
    for (let n: FolderNode | undefined = node; n && n !== this.root; n = n.parent) names.unshift(n.name);
    return `/${names.join('/')}`;
  }
}

export function ruleLeaf(head: RuleHead): Record<string, unknown> {
  return {
    type: 'RULE',
    baseId: head.ruleId,
    version: head.version,
    name: head.name,
    ruleAlias: head.alias,
    ruleType: head.type,
    ruleStatus: head.status,
  };
}

/** The DecisionRules JSON of a folder and everything below it. */
export function renderNode(node: FolderNode): Record<string, unknown> {
  return {
    id: node.id,
    name: node.name,
    type: node.parent === undefined ? 'ROOT' : 'FOLDER',
    children: [...node.folders.map(renderNode), ...node.rules.map(ruleLeaf)],
  };
}
