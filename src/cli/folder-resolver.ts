// A RuleResolver over rule files on disk, for `verdict solve --rules DIR`: the rules a rule calls (SOLVE,
// LOOKUP_*, DR.solve, flow nodes) are found by id or alias like the service finds them in a space, and compiled
// on first use.
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { compileRule } from '../engine/index.ts';
import { RuleError } from '../engine/errors.ts';
import type { CompileOptions, CompiledRule, RuleResolver } from '../engine/types.ts';
import type { JsonObject } from '../rules/check.ts';
import { describeRule, readContainer, ruleIdOf } from '../rules/containers.ts';
import type { RuleContainer } from '../rules/containers.ts';
import { ruleFileValue } from '../service/jdm-files.ts';
import { dmnRuleDocument, linkDmnImports } from '../service/dmn-files.ts';
import { baseName, isDmnXml } from '../formats/dmn/index.ts';
import { ValidationError } from '../rules/problems.ts';
import { aliasSlug } from '../rules/envelope.ts';
import { DMN_MODEL_FIELD } from '../rules/dmn-rule.ts';
import { InputError } from './errors.ts';

interface LoadedRule {
  document: JsonObject;
  /** The rule's identity: its ruleId/baseId, or its place on disk when it has none. */
  identity: string;
  version: number;
  published: boolean;
  /** `file.json` or `file.json export.data.rules[2]`, for messages. */
  source: string;
}

export class FolderResolver implements RuleResolver {
  private readonly compileOptions: CompileOptions;
  /** identity -> versions of that rule. */
  private readonly rules = new Map<string, LoadedRule[]>();
  /** ruleId / baseId / compositionId -> identity. */
  private readonly ids = new Map<string, string>();
  /** alias -> identities using it (more than one makes the alias ambiguous). */
  private readonly aliases = new Map<string, Set<string>>();
  private readonly compiled = new Map<JsonObject, CompiledRule>();

  constructor(compileOptions: CompileOptions = {}) {
    this.compileOptions = compileOptions;
  }

  /** Adds one rule document. A second copy of the same rule version (same id and version) is ignored: first wins. */
  add(document: JsonObject, source: string): void {
    const ids = (['ruleId', 'baseId', 'compositionId'] as const)
      .map((key) => document[key])
      .filter((id): id is string => typeof id === 'string' && id !== '');
    const identity = (ids.length > 0 ? this.ids.get(ids[0]!) : undefined) ?? ruleIdOf(document) ?? `file:${source}`;
    const version = typeof document.version === 'number' ? document.version : 1;
    const versions = this.rules.get(identity) ?? [];
    if (versions.some((rule) => rule.version === version)) return;
    versions.push({ document, identity, version, published: document.status === 'published', source });
    this.rules.set(identity, versions);
    for (const id of ids) if (!this.ids.has(id)) this.ids.set(id, identity);
    const alias = document.ruleAlias;
    if (typeof alias === 'string' && alias !== '') {
      const users = this.aliases.get(alias) ?? new Set<string>();
      users.add(identity);
      this.aliases.set(alias, users);
    }
  }

  addContainer(container: RuleContainer, file: string): void {
    for (const entry of container.rules) this.add(entry.document, entry.path === '' ? file : `${file} ${entry.path}`);
  }

  /**
   * Links the imports of every DMN model loaded to the loaded model holding each namespace (by its alias, the file's
   * name): what the service does among a space's rules. An import no loaded model holds is an InputError naming it.
   */
  linkDmnImports(): void {
    const all = [...this.rules.values()].flat().filter((rule) => rule.document.type === 'dmn');
    const holder = new Map<string, string>();
    for (const rule of all) {
      const namespace = (rule.document[DMN_MODEL_FIELD] as { namespace?: unknown } | undefined)?.namespace;
      const alias = rule.document.ruleAlias ?? rule.document.ruleId;
      if (typeof namespace === 'string' && typeof alias === 'string' && !holder.has(namespace)) holder.set(namespace, alias);
    }
    for (const rule of all) {
      try {
        Object.assign(rule.document, linkDmnImports(rule.document, (namespace) => holder.get(namespace)));
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        throw new InputError(`${rule.source}: ${error.problems.map((p) => p.message).join('; ')} (give the imported model's .dmn file with --rules DIR)`);
      }
    }
  }

  /** Rule types present, e.g. to start a script sandbox only when a scripting rule may run. */
  types(): Set<string> {
    const types = new Set<string>();
    for (const versions of this.rules.values()) for (const rule of versions) types.add(String(rule.document.type));
    return types;
  }

  resolve(idOrAlias: string, version: number | undefined): CompiledRule | undefined {
    const identity = this.identityOf(idOrAlias);
    if (identity === undefined) return undefined;
    const versions = this.rules.get(identity) ?? [];
    const rule =
      version === undefined
        ? versions.filter((r) => r.published).sort((a, b) => b.version - a.version)[0]
        : versions.find((r) => r.version === version);
    return rule && this.compileLoaded(rule);
  }

  /** Compiles a document once; the CLI compiles the rule it solves through here so a self-reference shares it. */
  compile(document: JsonObject): CompiledRule {
    const cached = this.compiled.get(document);
    if (cached) return cached;
    const compiled = compileRule(document, this.compileOptions);
    this.compiled.set(document, compiled);
    return compiled;
  }

  private identityOf(idOrAlias: string): string | undefined {
    const byId = this.ids.get(idOrAlias);
    if (byId !== undefined) return byId;
    const users = this.aliases.get(idOrAlias);
    if (!users || users.size === 0) return undefined;
    if (users.size > 1) {
      const names = [...users].map((identity) => this.rules.get(identity)![0]!.source).join(', ');
      throw new RuleError(`alias "${idOrAlias}" is not unique: ${users.size} rules use it (${names})`);
    }
    return [...users][0];
  }

  private compileLoaded(rule: LoadedRule): CompiledRule {
    try {
      return this.compile(rule.document);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new RuleError(`rule ${describeRule(rule.document)} from ${rule.source} cannot be compiled: ${message}`);
    }
  }
}

/**
 * Reads a rule file: DMN XML (format detected) as one `dmn` rule document aliased after the file, its model read;
 * anything else as JSON (readJsonFile). Failures name the file.
 */
export async function readRuleFile(file: string, status: 'pending' | 'published' = 'published'): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${reason(error)}`);
  }
  if (!isDmnXml(text)) return parseJsonText(text, file);
  try {
    return { ...(await dmnRuleDocument(text, { fileName: file, status })), ruleAlias: aliasSlug(baseName(file)) };
  } catch (error) {
    if (error instanceof ValidationError) throw new InputError(`${file} is not a valid DMN model: ${error.problems.map((p) => p.message).join('; ')}`);
    throw error;
  }
}

/** Reads and parses one JSON file; failures name the file. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${reason(error)}`);
  }
  return parseJsonText(text, file);
}

function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(`${file} is not valid JSON: ${reason(error)}`);
  }
}

/** Loads every `*.json` and `*.dmn` under `dir` (recursively) as an export container into the resolver. Returns the file count. */
export async function loadRulesDirectory(dir: string, resolver: FolderResolver): Promise<number> {
  let files: string[];
  try {
    files = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && /\.(json|dmn)$/i.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  } catch (error) {
    throw new InputError(`cannot read rules directory ${dir}: ${reason(error)}`);
  }
  for (const file of files) {
    const shown = join(dir, relative(dir, file));
    const container = readContainerOf(await readRuleFile(file), shown);
    resolver.addContainer(container, shown);
  }
  return files.length;
}

/**
 * readContainer with errors that name the file. A GoRules JDM file (format detected) is read as one decision
 * graph named and aliased after the file, published (a file on disk is what its user solves), its embedded tests
 * carried as the suite "JDM tests".
 */
export function readContainerOf(value: unknown, file: string): RuleContainer {
  let converted: unknown;
  try {
    converted = ruleFileValue(value, { fileName: file, status: 'published' }).value;
  } catch (error) {
    throw new InputError(`${file} is not a valid JDM file: ${reason(error)}`);
  }
  try {
    return readContainer(converted);
  } catch (error) {
    throw new InputError(`${file} is not a rule export: ${reason(error)}`);
  }
}

function reason(error: unknown): string {
  if (error !== null && typeof error === 'object' && 'code' in error && error.code === 'ENOENT') return 'no such file or directory';
  return error instanceof Error ? error.message : String(error);
}
