// DecisionRules export containers (spec/rule-format.md §9): a single rule, an array of rules (the rule-flow
// export: the flow first, then the rules it uses), and the folder export {export: {data: {structure, rules}}}.
// Reading a container checks only its shape; validateContainer() checks the rules inside it.
import type { Problem } from './problems.ts';
import { ValidationError } from './problems.ts';
import { VERSION_RANGE, isVersion } from './bounds.ts';
import { at, describe, isObject } from './check.ts';
import type { JsonObject } from './check.ts';
import { validateRuleDocument } from './validate.ts';

export type ContainerKind = 'rule' | 'rule-list' | 'folder';

export interface FolderNode {
  type: 'FOLDER' | 'ROOT';
  id?: string;
  name?: string;
  children: FolderTreeNode[];
}

/** A rule version placed in the folder tree, identified by baseId + version. */
export interface FolderRuleLeaf {
  type: 'RULE';
  baseId: string;
  version?: number;
  name?: string;
  ruleAlias?: string;
}

export type FolderTreeNode = FolderNode | FolderRuleLeaf;

export interface ContainerEntry {
  /** Where the rule sits in the container (`export.data.rules[2]`, `[0]`, or `` for a single rule). */
  path: string;
  document: JsonObject;
}

export interface RuleContainer {
  kind: ContainerKind;
  rules: ContainerEntry[];
  /** The folder tree of a folder export. */
  structure?: FolderNode;
}

/** Reads any export container. Throws ValidationError (with paths into the container) when its shape is wrong. */
export function readContainer(value: unknown): RuleContainer {
  if (Array.isArray(value)) {
    // An array none of whose items looks like a rule is some other file: say that once, rather than list what
    // every item lacks.
    if (value.length > 0 && !value.some(looksLikeRule)) throw notAnExport(`an array of ${value.length} item${value.length === 1 ? '' : 's'}, none of them a rule`);
    return { kind: 'rule-list', rules: readRuleArray(value, '') };
  }
  if (!isObject(value)) throw notAnExport(describe(value));
  if (value.export !== undefined) return readFolderExport(value.export);
  // A package.json or a settings file is an object too; its "name" and "version" are not a rule's.
  if (!looksLikeRule(value)) throw notAnExport(`an object with none of a rule's fields${fieldList(value)}`);
  return { kind: 'rule', rules: [{ path: '', document: value }] };
}

/** The fields only a rule document has (spec/rule-format.md §1): one of them makes an object a rule, however broken. */
const RULE_FIELDS = ['type', 'ruleId', 'baseId', 'compositionId', 'ruleAlias', 'inputSchema', 'outputSchema', 'decisionTable', 'nodes', 'dataTree'];

function looksLikeRule(value: unknown): boolean {
  return isObject(value) && RULE_FIELDS.some((field) => value[field] !== undefined);
}

function fieldList(value: JsonObject): string {
  const keys = Object.keys(value);
  if (keys.length === 0) return ' (it is empty)';
  return ` (it has ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''})`;
}

/** How the refusal of a file that is not a rule export begins (it is about the file, not about a rule in it). */
export const NOT_AN_EXPORT = 'not a DecisionRules export';

/** Whether a validation failure is the refusal of something that is not a rule export at all. */
export function isNotAnExport(problems: readonly Problem[]): boolean {
  return problems.length === 1 && problems[0]!.path === '' && problems[0]!.message.startsWith(NOT_AN_EXPORT);
}

function notAnExport(got: string): ValidationError {
  return new ValidationError([{
    path: '',
    message: `${NOT_AN_EXPORT}: Verdict reads a rule object (with its "type", e.g. "decision-table"), an array of rules (a rule-flow export) or a folder export ({"export": {"data": {"rules": [...]}}}); this is ${got}`,
  }]);
}

function readRuleArray(items: unknown[], path: string): ContainerEntry[] {
  const problems: Problem[] = [];
  const entries: ContainerEntry[] = [];
  items.forEach((item, index) => {
    const itemPath = at(path, index);
    if (isObject(item)) entries.push({ path: itemPath, document: item });
    else problems.push({ path: itemPath, message: `must be a rule object (got ${describe(item)})` });
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return entries;
}

function readFolderExport(exported: unknown): RuleContainer {
  if (!isObject(exported)) throw shapeError('export', `must be an object (got ${describe(exported)})`);
  const data = exported.data;
  if (!isObject(data)) throw shapeError('export.data', data === undefined ? 'is required ({"structure": …, "rules": [...]})' : `must be an object (got ${describe(data)})`);
  if (!Array.isArray(data.rules)) {
    throw shapeError('export.data.rules', data.rules === undefined ? 'is required (the exported rules)' : `must be an array (got ${describe(data.rules)})`);
  }
  const rules = readRuleArray(data.rules, 'export.data.rules');
  const problems: Problem[] = [];
  const structure = data.structure === undefined || data.structure === null ? undefined : readFolderNode(data.structure, 'export.data.structure', problems, 0);
  if (problems.length > 0) throw new ValidationError(problems);
  return { kind: 'folder', rules, structure: structure && structure.type !== 'RULE' ? structure : undefined };
}

const MAX_FOLDER_DEPTH = 100;

function readFolderNode(value: unknown, path: string, problems: Problem[], depth: number): FolderTreeNode | undefined {
  if (!isObject(value)) {
    problems.push({ path, message: `must be a folder or rule node (got ${describe(value)})` });
    return undefined;
  }
  if (value.type === 'RULE') {
    if (typeof value.baseId !== 'string' || value.baseId === '') {
      problems.push({ path: at(path, 'baseId'), message: 'is required (the rule this leaf places in the folder)' });
      return undefined;
    }
    if (value.version !== undefined && value.version !== null && !isVersion(value.version)) {
      const got = typeof value.version === 'number' ? value.version : describe(value.version);
      problems.push({ path: at(path, 'version'), message: `must be ${VERSION_RANGE} (got ${got})` });
      return undefined;
    }
    return {
      type: 'RULE',
      baseId: value.baseId,
      ...(typeof value.version === 'number' ? { version: value.version } : {}),
      ...(typeof value.name === 'string' ? { name: value.name } : {}),
      ...(typeof value.ruleAlias === 'string' ? { ruleAlias: value.ruleAlias } : {}),
    };
  }
  if (value.type !== 'FOLDER' && value.type !== 'ROOT') {
    problems.push({ path: at(path, 'type'), message: `must be FOLDER, ROOT or RULE (got ${typeof value.type === 'string' ? JSON.stringify(value.type) : describe(value.type)})` });
    return undefined;
  }
  if (depth >= MAX_FOLDER_DEPTH) {
    problems.push({ path, message: `folders are nested deeper than ${MAX_FOLDER_DEPTH} levels` });
    return undefined;
  }
  const children: FolderTreeNode[] = [];
  const rawChildren = value.children ?? [];
  if (!Array.isArray(rawChildren)) problems.push({ path: at(path, 'children'), message: `must be an array (got ${describe(rawChildren)})` });
  else {
    rawChildren.forEach((child, i) => {
      const node = readFolderNode(child, at(at(path, 'children'), i), problems, depth + 1);
      if (node) children.push(node);
    });
  }
  return {
    type: value.type,
    ...(typeof value.id === 'string' ? { id: value.id } : {}),
    ...(typeof value.name === 'string' ? { name: value.name } : {}),
    children,
  };
}

function shapeError(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }]);
}

/** Validates every rule of a container; problem paths are prefixed with the rule's place in the container. */
export function validateContainer(container: RuleContainer): Problem[] {
  const problems: Problem[] = [];
  for (const entry of container.rules) {
    for (const problem of validateRuleDocument(entry.document)) {
      problems.push({ path: joinPaths(entry.path, problem.path), message: problem.message });
    }
  }
  return problems;
}

export function joinPaths(prefix: string, path: string): string {
  if (prefix === '') return path;
  if (path === '') return prefix;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}

/** `"Loan Type" (alias loan-type, version 2)` for messages about one rule of a container. */
export function describeRule(doc: JsonObject): string {
  const name = typeof doc.name === 'string' ? JSON.stringify(doc.name) : 'unnamed rule';
  const details = [
    typeof doc.ruleAlias === 'string' && doc.ruleAlias !== '' ? `alias ${doc.ruleAlias}` : undefined,
    typeof doc.version === 'number' ? `version ${doc.version}` : undefined,
  ].filter((d) => d !== undefined);
  return details.length > 0 ? `${name} (${details.join(', ')})` : name;
}

/** The id a rule is known by: ruleId, else baseId, else compositionId (old rule-flow exports). */
export function ruleIdOf(doc: JsonObject): string | undefined {
  for (const key of ['ruleId', 'baseId', 'compositionId'] as const) {
    const value = doc[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
