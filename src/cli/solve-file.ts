// Solving a rule file for `verdict solve`: read the container, pick the rule, load the rules it may call,
// read the input, solve each input and return what the command prints.
import { collectDependencies } from '../engine/dependencies.ts';
import { createContext } from '../engine/context.ts';
import { ValidationError } from '../engine/index.ts';
import type { CompiledRule, DmnOptions, Json, ScriptSandbox } from '../engine/types.ts';
import type { JsonObject } from '../rules/check.ts';
import { joinPaths, ruleIdOf } from '../rules/containers.ts';
import { isSolvableType } from '../rules/rule-types.ts';
import type { ContainerEntry, RuleContainer } from '../rules/containers.ts';
import { InputLoop } from '../service/input-loop.ts';
import { InputError, UsageError } from './errors.ts';
import { FolderResolver, loadRulesDirectory, readContainerOf, readJsonFile, readRuleFile } from './folder-resolver.ts';
import { DEFAULT_TIMEOUT_MS, parseTimeZone, positiveInteger } from './solve-options.ts';

export interface SolveCommandOptions {
  strategy?: string;
  include: string[];
  exclude: string[];
  lookupMethod?: string;
  /** DMN models: the decisions answered, or the decision service evaluated. */
  decisions?: string[];
  decisionService?: string;
  nullOnError?: boolean;
  debug?: boolean;
  rules: string[];
  rule?: string;
  now?: number;
  timezone?: string;
  timeout?: number;
}

/** A rule file loaded for a local solve: the chosen rule compiled, with every rule it may call. */
export interface LoadedRuleFile {
  container: RuleContainer;
  entry: ContainerEntry;
  compiled: CompiledRule;
  resolver: FolderResolver;
  timeZone: string;
}

/** Where a warning line goes: stderr, unless the command says otherwise (`verdict solve` writes through its program). */
export type Warn = (line: string) => void;

const toStderr: Warn = (line) => void process.stderr.write(line);

/**
 * Reads a rule file, picks the rule (`--rule`), loads the directories of rules it may call (`--rules`), compiles it,
 * and warns about references no loaded file provides. Shared by `verdict solve` and `verdict test`.
 */
export async function loadRuleFile(rulePath: string, options: { rules: string[]; rule?: string; timezone?: string }, warn: Warn = toStderr): Promise<LoadedRuleFile> {
  const opened = await openRuleFile(rulePath, options);
  const entry = selectRule(opened.container, rulePath, options.rule);
  return { ...opened, entry, compiled: compileEntry(opened.resolver, entry, rulePath, warn) };
}

/** A rule file and the directories of rules it may call, loaded but not compiled. */
export async function openRuleFile(rulePath: string, options: { rules: string[]; timezone?: string }): Promise<Omit<LoadedRuleFile, 'entry' | 'compiled'>> {
  const timeZone = options.timezone ?? envTimeZone();
  const container = readContainerOf(await readRuleFile(rulePath), rulePath);
  const resolver = new FolderResolver({ timeZone });
  resolver.addContainer(container, rulePath);
  for (const dir of options.rules) await loadRulesDirectory(dir, resolver);
  resolver.linkDmnImports();
  return { container, resolver, timeZone };
}

/** Compiles one rule of an opened file, warning about references no loaded file provides. */
export function compileEntry(resolver: FolderResolver, entry: ContainerEntry, rulePath: string, warn: Warn = toStderr): CompiledRule {
  const compiled = compileSelected(resolver, entry, rulePath);
  for (const line of missingDependencies(compiled, resolver)) warn(`verdict: warning: ${line}\n`);
  return compiled;
}

/** A script sandbox when a loaded rule may run scripts (dispose it after use), else undefined. */
export async function sandboxFor(resolver: FolderResolver): Promise<ScriptSandbox | undefined> {
  // Decision graphs may hold function nodes, which run as scripts too.
  const types = resolver.types();
  return types.has('complex-rule') || types.has('decision-graph') ? createSandbox() : undefined;
}

/**
 * Solves and returns what the command prints. The inputs go through the service's one input loop (as a bulk over
 * HTTP does): each input with its own time limit and call budget, every input of a bulk at the same NOW().
 */
export async function runSolve(rulePath: string, inputPath: string | undefined, options: SolveCommandOptions, warn: Warn = toStderr): Promise<unknown> {
  const { compiled, resolver, timeZone } = await loadRuleFile(rulePath, options, warn);
  const input = await readInput(inputPath);
  const sandbox = await sandboxFor(resolver);
  try {
    const timeoutMs = options.timeout ?? envTimeout();
    const ctx = createContext({
      strategy: options.strategy,
      includedConditionCols: options.include,
      excludedConditionCols: options.exclude,
      lookupMethod: options.lookupMethod,
      now: options.now ?? Date.now(),
      timeZone,
      trace: options.debug === true,
      resolver,
      sandbox,
      timeoutMs,
      dmnOptions: dmnOptionsOf(options),
    });
    const loop = new InputLoop({ compiled, ctx, data: input, timeoutMs, bulkFailure: namingInput });
    await loop.run();
    const { results, traces } = loop;
    const printed = (i: number): unknown => (traces === undefined ? results[i] : { result: results[i], trace: traces[i] ?? [] });
    return loop.bulk ? results.map((_, i) => printed(i)) : printed(0);
  } finally {
    sandbox?.dispose();
  }
}

/** The DMN options of the command line; both --decisions and --decision-service is a usage error. */
function dmnOptionsOf(options: SolveCommandOptions): DmnOptions | undefined {
  if (options.decisions !== undefined && options.decisionService !== undefined) throw new UsageError('give --decisions or --decision-service, not both');
  if (options.decisions === undefined && options.decisionService === undefined && options.nullOnError === undefined) return undefined;
  return {
    ...(options.decisions !== undefined ? { decisions: options.decisions } : {}),
    ...(options.decisionService !== undefined ? { decisionService: options.decisionService } : {}),
    ...(options.nullOnError === true ? { nullOnError: true } : {}),
  };
}

/** A failed input of a bulk, named by its index in the input file. */
function namingInput(error: unknown, index: number): unknown {
  if (error instanceof Error) error.message = `input[${index}]: ${error.message}`;
  return error;
}

/** Compiles the chosen rule; validation problems are reported with their paths inside the file. */
function compileSelected(resolver: FolderResolver, entry: ContainerEntry, file: string): CompiledRule {
  try {
    return resolver.compile(entry.document);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const problems = error.problems.map((p) => `${joinPaths(entry.path, p.path) || '(document)'}: ${p.message}`);
    const count = problems.length === 1 ? '' : ` (${problems.length} problems)`;
    throw new InputError(`${file} is not a valid rule${count}: ${problems.join('; ')}`);
  }
}

/**
 * Rules referenced by literal id or alias (directly or through other loaded rules) that no loaded file provides,
 * found by the engine's dependency walk (the one the service uses). The engine treats them as missing (SOLVE and
 * LOOKUP_* give null), which is easy to mistake for a wrong rule. When the walk itself fails (a rule cycle, an
 * ambiguous alias, a rule that does not compile) there is nothing to warn about: the solve reports it.
 */
export function missingDependencies(root: CompiledRule, resolver: FolderResolver): string[] {
  let walk;
  try {
    walk = collectDependencies(root, resolver);
  } catch {
    return [];
  }
  return walk.missing.map(({ from, idOrAlias, version }) => {
    const which = version === undefined ? 'a published version of ' : `version ${version} of `;
    return `rule "${from.ruleAlias ?? from.ruleId ?? from.name}" refers to ${which}"${idOrAlias}", which no loaded file provides (add --rules DIR)`;
  });
}

/**
 * The rule to solve: the file's only rule; the first rule of an array (a rule-flow export lists the flow first);
 * the only solvable rule of a folder export; or the one named by --rule (id or alias; its latest published
 * version, else its highest version, since a local solve may try a pending rule).
 */
export function selectRule(container: RuleContainer, file: string, wanted: string | undefined): ContainerEntry {
  if (wanted !== undefined) return pickByIdOrAlias(container, file, wanted);
  const solvable = container.rules.filter((entry) => isSolvableType(entry.document.type));
  if (container.kind === 'rule' || (container.kind === 'rule-list' && solvable.length === 0)) {
    const only = container.rules[0];
    if (!only) throw new InputError(`${file} holds no rules`);
    return only;
  }
  if (solvable.length === 0) throw new InputError(`${file} holds no solvable rule (${listRules(container.rules)})`);
  if (container.kind === 'rule-list') return solvable[0]!;
  if (distinctRules(solvable).length === 1) return latest(solvable);
  throw new UsageError(`${file} holds ${solvable.length} solvable rules (${listRules(solvable)}); choose one with --rule ID|ALIAS`);
}

function pickByIdOrAlias(container: RuleContainer, file: string, wanted: string): ContainerEntry {
  const byId = container.rules.filter((entry) => idsOf(entry.document).includes(wanted));
  const matches = byId.length > 0 ? byId : container.rules.filter((entry) => entry.document.ruleAlias === wanted);
  if (matches.length === 0) throw new UsageError(`${file} has no rule with id or alias "${wanted}" (it holds ${listRules(container.rules)})`);
  if (distinctRules(matches).length > 1) throw new UsageError(`alias "${wanted}" is not unique in ${file} (${listRules(matches)})`);
  return latest(matches);
}

/** Highest published version, else highest version. */
function latest(entries: ContainerEntry[]): ContainerEntry {
  const version = (entry: ContainerEntry) => (typeof entry.document.version === 'number' ? entry.document.version : 1);
  const published = entries.filter((entry) => entry.document.status === 'published');
  const pool = published.length > 0 ? published : entries;
  return pool.reduce((best, entry) => (version(entry) > version(best) ? entry : best));
}

function distinctRules(entries: ContainerEntry[]): string[] {
  return [...new Set(entries.map((entry) => ruleIdOf(entry.document) ?? entry.path))];
}

function idsOf(doc: JsonObject): unknown[] {
  return [doc.ruleId, doc.baseId, doc.compositionId];
}

function listRules(entries: ContainerEntry[]): string {
  return entries
    .map(({ document }) => `${labelOf(document)} (${String(document.type)})`)
    .join(', ');
}

function labelOf(doc: JsonObject): string {
  if (typeof doc.ruleAlias === 'string' && doc.ruleAlias !== '') return doc.ruleAlias;
  return ruleIdOf(doc) ?? (typeof doc.name === 'string' ? JSON.stringify(doc.name) : 'unnamed');
}

async function readInput(inputPath: string | undefined): Promise<JsonObject | unknown[]> {
  if (inputPath === undefined) return {};
  const value = inputPath === '-' ? parseStdin(await readStdin()) : await readJsonFile(inputPath);
  const name = inputPath === '-' ? 'stdin' : inputPath;
  if (Array.isArray(value)) {
    const bad = value.findIndex((item) => item === null || typeof item !== 'object' || Array.isArray(item));
    if (bad >= 0) throw new InputError(`input ${name}: element [${bad}] of a bulk input must be a JSON object`);
    return value as Json[];
  }
  if (value === null || typeof value !== 'object') {
    throw new InputError(`input ${name} must be a JSON object, or an array of objects for a bulk solve`);
  }
  return value as JsonObject;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseStdin(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(`stdin is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function createSandbox(): Promise<ScriptSandbox> {
  // Loaded only when a scripting rule may run: isolated-vm is a native addon with a start-up cost.
  const { createScriptSandbox } = await import('../engine/script/sandbox.ts');
  return createScriptSandbox({ maxIsolates: 1 });
}

/** TIMEZONE from the environment: UTC when unset or empty; an unknown zone is a usage error. */
export function envTimeZone(): string {
  const zone = process.env.TIMEZONE;
  if (zone === undefined || zone === '') return 'UTC';
  try {
    return parseTimeZone(zone);
  } catch {
    throw new UsageError(`TIMEZONE: unknown time zone "${zone}"`);
  }
}

export function envTimeout(): number {
  const value = process.env.RULE_TIMEOUT_MS;
  if (value === undefined || value === '') return DEFAULT_TIMEOUT_MS;
  try {
    return positiveInteger(value);
  } catch {
    throw new UsageError(`RULE_TIMEOUT_MS: must be a positive integer (got "${value}")`);
  }
}
