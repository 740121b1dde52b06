// Folder use cases (SPEC 5.1, rule-format §9.2): the tree, create, replace a folder's content, move, rename, delete
// and find. A folder is addressed by node id (`root` and the SDK's `undefined` mean the root) or by path
// (`/Clients/Important`). Sibling folders have distinct names, so a path names at most one folder.
import { randomUUID } from 'node:crypto';
import { VERSION_RANGE, isVersion } from '../../rules/bounds.ts';
import { ROOT_FOLDER_ID } from '../../store/ports.ts';
import type { ManagementTransaction, RuleHead } from '../../store/ports.ts';
import { isoAt } from '../clock.ts';
import type { ManagementContext, WriteOptions } from './context.ts';
import { isObject } from './documents.ts';
import { badRequest, conflict, notFound } from './errors.ts';
import { FolderTree, renderNode, ruleLeaf } from './folder-tree.ts';
import type { FolderNode } from './folder-tree.ts';
import { recordHistory } from './history.ts';
import { findRule, findVersion } from './lookup.ts';
import { assertMayDelete } from './publish-rights.ts';

/** A folder named by id or by path (not both). */
export interface FolderTarget {
  nodeId?: string;
  path?: string;
}

/** A folder to create, with what goes in it: sub-folders, and rules (all versions, or one) to move into it. */
export type FolderSpec =
  | { kind: 'folder'; name: string; children: FolderSpec[] }
  | { kind: 'rule'; ref: string; version: number | undefined };

export interface FindCriteria {
  name?: string;
  id?: string;
  baseId?: string;
  ruleAlias?: string;
  ruleType?: string;
  tags?: string[];
  ruleState?: string;
  type?: string;
  version?: number;
}

export interface MoveRequest {
  targetId?: string;
  targetPath?: string;
  nodes: Array<{ type: 'FOLDER' | 'RULE'; id: string; version?: number }>;
}

export interface DeletedFolder {
  deletedFolders: number;
  deletedRules: Array<{ ruleId: string; version: number }>;
}

const MAX_NAME = 100;
const MAX_DEPTH = 100;

export function folderName(value: unknown, where: string): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || name.length > MAX_NAME || name.includes('/')) {
    throw badRequest(`${where} must be a folder name of 1-${MAX_NAME} characters without "/"`);
  }
  return name;
}

/** Reads a folder structure of a request body; problems name their place (`body.children[2].name`). */
export function readFolderSpec(value: unknown, where: string, depth = 0): FolderSpec {
  if (!isObject(value)) throw badRequest(`${where} must be a folder or rule node (an object)`);
  if (depth > MAX_DEPTH) throw badRequest(`${where}: folders are nested deeper than ${MAX_DEPTH} levels`);
  if (value.type === 'RULE') {
    const ref = [value.baseId, value.ruleAlias, value.ruleId, value.id].find((v): v is string => typeof v === 'string' && v !== '');
    if (ref === undefined) throw badRequest(`${where} is a RULE node without baseId or ruleAlias`);
    const version = value.version;
    if (version !== undefined && version !== null && !isVersion(version)) throw badRequest(`${where}.version must be ${VERSION_RANGE}`);
    return { kind: 'rule', ref, version: typeof version === 'number' ? version : undefined };
  }
  if (value.type !== undefined && value.type !== 'FOLDER') throw badRequest(`${where}.type must be FOLDER or RULE`);
  return { kind: 'folder', name: folderName(value.name, `${where}.name`), children: readChildren(value.children, `${where}.children`, depth) };
}

export function readChildren(value: unknown, where: string, depth = 0): FolderSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`${where} must be an array`);
  return value.map((child, i) => readFolderSpec(child, `${where}[${i}]`, depth + 1));
}

export async function loadTree(tx: ManagementTransaction): Promise<{ tree: FolderTree; heads: RuleHead[] }> {
  const heads = await tx.heads();
  return { tree: new FolderTree(await tx.folders(), await tx.placements(), heads), heads };
}

export function resolveTarget(tree: FolderTree, target: FolderTarget): FolderNode {
  if (target.path !== undefined && target.nodeId !== undefined && target.nodeId !== '') {
    throw badRequest('Name the folder by node id or by path, not both');
  }
  if (target.path !== undefined) {
    if (!target.path.startsWith('/')) throw badRequest(`Folder path "${target.path}" must start with "/"`);
    const node = tree.nodeAtPath(target.path);
    if (!node) throw notFound(`Folder "${target.path}" not found`);
    return node;
  }
  const node = tree.node(target.nodeId);
  if (!node) throw notFound(`Folder "${target.nodeId}" not found`);
  return node;
}

function assertFreeName(tree: FolderTree, parent: FolderNode, name: string, except?: FolderNode): void {
  if (parent.folders.some((f) => f.name === name && f !== except)) {
    throw conflict(`A folder named "${name}" already exists in "${tree.path(parent)}"`);
  }
}

/** Creates a folder (and its sub-folders) under `parent` and moves the rules the spec names into place. */
export async function createFolders(
  tx: ManagementTransaction, tree: FolderTree, heads: readonly RuleHead[], parent: FolderNode, spec: Extract<FolderSpec, { kind: 'folder' }>, now: string,
): Promise<FolderNode> {
  assertFreeName(tree, parent, spec.name);
  const record = { id: randomUUID(), parentId: parent.id, name: spec.name, createdAt: now };
  await tx.insertFolder(record);
  const node = tree.attach(record);
  await fillFolder(tx, tree, heads, node, spec.children, now);
  return node;
}

async function fillFolder(tx: ManagementTransaction, tree: FolderTree, heads: readonly RuleHead[], node: FolderNode, children: FolderSpec[], now: string): Promise<void> {
  for (const child of children) {
    if (child.kind === 'folder') {
      await createFolders(tx, tree, heads, node, child, now);
      continue;
    }
    const rule = findRule(heads, child.ref);
    if (child.version !== undefined) findVersion(rule, child.version);
    await tx.place(rule.ruleId, child.version, node.id);
  }
}

export class FolderManagement {
  readonly #ctx: ManagementContext;

  constructor(ctx: ManagementContext) {
    this.#ctx = ctx;
  }

  async tree(space: string, target: FolderTarget): Promise<Record<string, unknown>> {
    return this.#ctx.store.management.read(space, async (tx) => renderNode(resolveTarget((await loadTree(tx)).tree, target)));
  }

  /** POST /api/folder/{nodeId}: a new folder (with sub-folders and rules moved into them) under the target. */
  async create(space: string, target: FolderTarget, body: unknown): Promise<Record<string, unknown>> {
    const spec = readFolderSpec(body, 'body');
    if (spec.kind !== 'folder') throw badRequest('body must be a FOLDER node: {"type": "FOLDER", "name": ..., "children": [...]}');
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const { tree, heads } = await loadTree(tx);
      const node = await createFolders(tx, tree, heads, resolveTarget(tree, target), spec, isoAt(this.#ctx.clock));
      return this.#render(tx, node.id);
    });
  }

  /**
   * PUT /api/folder/{nodeId}: the folder's content becomes the body's `children`. Its sub-folders are replaced;
   * rules it held that the body does not place again go to the root. `name` in the body renames it.
   */
  async replace(space: string, target: FolderTarget, body: unknown): Promise<Record<string, unknown>> {
    if (!isObject(body)) throw badRequest('body must be a folder node: {"name": ..., "children": [...]}');
    const children = readChildren(body.children, 'body.children');
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const { tree, heads } = await loadTree(tx);
      const node = resolveTarget(tree, target);
      if (body.name !== undefined && node !== tree.root) {
        const name = folderName(body.name, 'body.name');
        assertFreeName(tree, node.parent!, name, node);
        await tx.updateFolder(node.id, { name });
        node.name = name;
      }
      for (const head of node.rules) await tx.place(head.ruleId, head.version, ROOT_FOLDER_ID);
      const below = tree.subtree(node).slice(1);
      await tx.deleteFolders(below.map((f) => f.id));
      for (const child of [...node.folders]) tree.detach(child);
      await fillFolder(tx, tree, heads, node, children, isoAt(this.#ctx.clock));
      return this.#render(tx, node.id);
    });
  }

  /** PUT /api/folder/move: folders and rules (all versions, or one) into the target folder. */
  async move(space: string, request: MoveRequest): Promise<Record<string, unknown>> {
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const { tree, heads } = await loadTree(tx);
      const targetPath = request.targetPath;
      const target = targetPath !== undefined && !targetPath.startsWith('/')
        ? resolveTarget(tree, { nodeId: targetPath })
        : resolveTarget(tree, targetPath !== undefined ? { path: targetPath } : { nodeId: request.targetId ?? ROOT_FOLDER_ID });
      for (const [index, item] of request.nodes.entries()) {
        if (item.type === 'RULE') {
          const rule = findRule(heads, item.id);
          if (item.version !== undefined) findVersion(rule, item.version);
          await tx.place(rule.ruleId, item.version, target.id);
          continue;
        }
        const folder = tree.node(item.id);
        if (!folder) throw notFound(`Folder "${item.id}" (nodes[${index}]) not found`);
        if (folder === tree.root) throw badRequest('The root folder cannot be moved');
        if (tree.isWithin(target, folder)) throw badRequest(`Folder "${folder.name}" cannot be moved into itself or one of its sub-folders`);
        assertFreeName(tree, target, folder.name, folder);
        await tx.updateFolder(folder.id, { parentId: target.id });
        tree.reattach(folder, target);
      }
      return this.#render(tx, target.id);
    });
  }

  async rename(space: string, nodeId: string, name: unknown): Promise<Record<string, unknown>> {
    const newName = folderName(name, 'body.name');
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const { tree } = await loadTree(tx);
      const node = resolveTarget(tree, { nodeId });
      if (node === tree.root) throw badRequest('The root folder cannot be renamed');
      assertFreeName(tree, node.parent!, newName, node);
      await tx.updateFolder(node.id, { name: newName });
      return this.#render(tx, node.id);
    });
  }

  /** Deletes a folder and its sub-folders; the rules in them too with `deleteAll`, else it must hold none. */
  async delete(space: string, target: FolderTarget, deleteAll: boolean, options: WriteOptions = {}): Promise<DeletedFolder> {
    return this.#ctx.store.management.transaction(space, async (tx) => {
      const { tree } = await loadTree(tx);
      const node = resolveTarget(tree, target);
      if (node === tree.root) throw badRequest('The root folder cannot be deleted');
      const rules = tree.rulesIn(node);
      if (rules.length > 0 && !deleteAll) {
        throw conflict(`Folder "${tree.path(node)}" holds ${rules.length} rule version(s); move them out first, or delete them with it: ?deleteAll=true`);
      }
      assertMayDelete(tx.space, options, rules.length > 0);
      const locked = rules.filter((r) => r.locked);
      if (locked.length > 0) {
        throw conflict(`Folder "${tree.path(node)}" holds locked rule versions (${locked.map((r) => `${r.alias || r.ruleId} v${r.version}`).join(', ')}); unlock them first`);
      }
      for (const rule of rules) await tx.deleteRule(rule.ruleId, rule.version);
      await recordHistory(tx, this.#ctx, rules, 'delete', options);
      const folders = tree.subtree(node);
      await tx.deleteFolders(folders.map((f) => f.id));
      return { deletedFolders: folders.length, deletedRules: rules.map((r) => ({ ruleId: r.ruleId, version: r.version })) };
    });
  }

  /** POST /api/folder/find: folders and rule versions matching every criterion given, each with its path. */
  async find(space: string, criteria: FindCriteria): Promise<Array<Record<string, unknown>>> {
    const { tree, rules } = await this.#ctx.store.management.read(space, async (tx) => {
      const all = await tx.rules();
      return { tree: new FolderTree(await tx.folders(), await tx.placements(), all), rules: all };
    });
    const ruleOnly = [criteria.baseId, criteria.ruleAlias, criteria.ruleType, criteria.tags, criteria.ruleState, criteria.version].some((c) => c !== undefined);
    const out: Array<Record<string, unknown>> = [];
    if (!ruleOnly && (criteria.type === undefined || criteria.type === 'FOLDER')) {
      for (const node of tree.subtree(tree.root).slice(1)) {
        if (criteria.name !== undefined && node.name !== criteria.name) continue;
        if (criteria.id !== undefined && node.id !== criteria.id) continue;
        out.push({ type: 'FOLDER', id: node.id, name: node.name, path: tree.path(node), parentId: node.parent!.id });
      }
    }
    if (criteria.type === undefined || criteria.type === 'RULE') {
      for (const rule of rules) {
        if (criteria.name !== undefined && rule.name !== criteria.name) continue;
        if (criteria.id !== undefined && rule.ruleId !== criteria.id) continue;
        if (criteria.baseId !== undefined && rule.ruleId !== criteria.baseId) continue;
        if (criteria.ruleAlias !== undefined && rule.alias !== criteria.ruleAlias) continue;
        if (criteria.ruleType !== undefined && rule.type !== criteria.ruleType) continue;
        if (criteria.ruleState !== undefined && rule.status !== criteria.ruleState) continue;
        if (criteria.version !== undefined && rule.version !== criteria.version) continue;
        if (criteria.tags !== undefined && !criteria.tags.every((t) => rule.tags.includes(t))) continue;
        const folder = tree.folderOf(rule.ruleId, rule.version);
        const folderPath = tree.path(folder);
        out.push({
          ...ruleLeaf(rule),
          tags: rule.tags,
          description: typeof rule.document.description === 'string' ? rule.document.description : '',
          path: `${folderPath === '/' ? '' : folderPath}/${rule.name}`,
          parentId: folder.id,
        });
      }
    }
    return out;
  }

  async #render(tx: ManagementTransaction, nodeId: string): Promise<Record<string, unknown>> {
    const { tree } = await loadTree(tx);
    return renderNode(tree.node(nodeId) ?? tree.root);
  }
}
