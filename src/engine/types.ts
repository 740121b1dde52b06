// The engine's public contract. Every other module (service, CLI, HTTP, Kafka, benchmarks) codes against
// these types only; the engine itself is pure: no I/O, no globals, the clock and every capability passed in.

import type { Problem } from './errors.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// The strategies are part of the document format (src/rules), like the rule types.
export { STRATEGIES } from '../rules/strategies.ts';
export type { Strategy } from '../rules/strategies.ts';
import type { Strategy } from '../rules/strategies.ts';

export const LOOKUP_METHODS = ['LOOKUP_VALUE', 'LOOKUP_EXISTS'] as const;
export type LookupMethod = (typeof LOOKUP_METHODS)[number];

// The rule types are part of the document format (src/rules); the engine compiles them.
import type { RuleType } from '../rules/rule-types.ts';
export { RULE_TYPES } from '../rules/rule-types.ts';
export type { RuleType };

/** A reference from one rule to another (SOLVE, LOOKUP_*, DR.solve, flow nodes). `version` undefined = latest published. */
export interface RuleRef {
  idOrAlias: string;
  version?: number;
}

/**
 * Supplies the compiled rules that a rule calls. The service implements it over its compiled-rule cache,
 * the CLI over a folder of rule files (`--rules DIR`), tests over a Map.
 *
 * `resolve` is synchronous so that table solves stay synchronous. It returns:
 *  - a CompiledRule when found;
 *  - undefined when the rule or version definitely does not exist (SOLVE then yields null);
 * and throws:
 *  - RuleError (kind 'rule') for an ambiguous alias;
 *  - UnresolvedRuleError when the rule may exist but is not loaded yet: the service catches it, loads the
 *    rule asynchronously and solves again (see docs/decisions).
 */
export interface RuleResolver {
  resolve(idOrAlias: string, version: number | undefined): CompiledRule | undefined;
}

/** Outbound HTTP for HTTP_* functions, DR.http and HTTP_CLIENT nodes. The service enforces the host allowlist. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, otherwise the text. */
  body: unknown;
}
export interface HttpClient {
  request(req: HttpRequest): Promise<HttpResponse>;
}

/** Runs scripting rules (`complex-rule`). Implemented in engine/script over isolated-vm; injected because it owns native isolates. */
export interface ScriptSandbox {
  run(script: CompiledScriptHandle, call: ScriptCall): Promise<unknown>;
  dispose(): void;
}
export interface CompiledScriptHandle {
  readonly source: string;
  readonly cacheKey: string;
}
export interface ScriptCall {
  input: unknown;
  /**
   * The input as JSON text already checked against the sandbox's data limits (a script worker receives it so from
   * its supervisor); when present the sandbox uses it as is instead of serialising and checking `input` again.
   */
  inputJson?: string;
  ruleVariables: Record<string, unknown>;
  /** DR.solve(...) from inside the script. */
  solve: (idOrAlias: string, data: unknown, version?: number, strategy?: string) => Promise<unknown>;
  http?: HttpClient;
  log: (line: string) => void;
  deadline: number;
  /** The limit the deadline came from, for the TimeoutError message. */
  timeoutMs?: number;
  /**
   * True when the script is solved below another script's DR.solve (that script holds an isolate while it waits).
   * The sandbox may then exceed its isolate pool, so that scripts waiting on each other cannot deadlock it.
   */
  nested?: boolean;
  /**
   * The same object for every script of one top-level solve (its budget). A sandbox that hosts scripts in
   * separate workers runs all of them in one worker, so a crash or a kill stays within that solve.
   */
  scope?: object;
}

/** Bounds on one top-level solve, shared by every nested call it makes (SOLVE, DR.solve, flow nodes, scripts). */
export interface SolveLimits {
  /** Deepest chain of nested rule calls. */
  maxDepth: number;
  /** Nested rule calls, counted over the whole top-level solve. */
  maxCalls: number;
  /** Scripts running at the same moment inside one top-level solve (DR.solve fan-out with Promise.all). */
  maxConcurrentScripts: number;
}

/** The running count against SolveLimits of one top-level solve. The engine writes to it; nothing else does. */
export interface SolveBudget {
  readonly limits: SolveLimits;
  /** Nested rule calls made so far. */
  calls: number;
  /** Scripts running now. */
  scripts: number;
}

/** One step of the chain of nested calls, newest first, for the message naming the chain. */
export interface CallLink {
  readonly name: string;
  readonly caller: CallLink | undefined;
}

export interface SolveOptions {
  /** Missing, unknown or unsupported by the rule type: STANDARD. */
  strategy?: Strategy | string;
  includedConditionCols?: string[];
  excludedConditionCols?: string[];
  /** Lookup tables only; default LOOKUP_VALUE. */
  lookupMethod?: LookupMethod | string;
  /** The solve time: row time validity, NOW(), CURDATE(), partial dates. Required for reproducible results. */
  now?: Date | number;
  /** IANA zone for date functions given no zone. Default 'UTC'. */
  timeZone?: string;
  /** Record the evaluation trace (SPEC: X-Debug / `verdict solve --debug`). */
  trace?: boolean;
  resolver?: RuleResolver;
  http?: HttpClient;
  sandbox?: ScriptSandbox;
  /** Epoch ms after which evaluation stops with a TimeoutError. */
  deadline?: number;
  /** The timeout the deadline came from, for the error message. */
  timeoutMs?: number;
  /** Source of RANDOM(): uniform in [0, 1). Default Math.random; tests pass a seeded one. */
  random?: () => number;
  /** Bounds on nested calls; each missing field takes its DEFAULT_LIMITS value. */
  limits?: Partial<SolveLimits>;
  /** DMN models only: which decisions (or which decision service) the solve answers, and how errors answer. */
  dmnOptions?: DmnOptions;
}

/** How a solve evaluates a DMN model (docs/dmn.md). */
export interface DmnOptions {
  /** The decisions answered, by name (what they require is evaluated too); default every decision. */
  decisions?: readonly string[];
  /** Evaluate this decision service, by name: its output decisions answer. */
  decisionService?: string;
  /**
   * DMN's own semantics: an error (a value not of its declared type, a UNIQUE table with several hits, a FEEL
   * error) makes the value null and the solve answers. Default false: the solve fails with a RuleError naming each
   * error's element and expression.
   */
  nullOnError?: boolean;
}

/** One solve of one input object. */
export interface SolveResult {
  /** The Solver API response for this input (an array; see SPEC 3.1). */
  result: Json[];
  /** Present when `trace: true` was asked for. Shape per rule type, see spec/rule-format.md §10.1. */
  trace?: unknown[];
}

/** A rule compiled once per version and reused for every solve. */
export interface CompiledRule {
  readonly type: RuleType;
  readonly ruleId: string | undefined;
  readonly ruleAlias: string | undefined;
  readonly version: number | undefined;
  readonly name: string;
  /** True when a solve may need to await (scripts, flows, HTTP functions, SOLVE of an async rule). */
  readonly async: boolean;
  /** Rules this rule references by a literal id or alias, found at compile time. */
  readonly dependencies: readonly RuleRef[];
  /** Present on lookup tables: LOOKUP_VALUE / LOOKUP_EXISTS functions read them directly. */
  readonly lookup?: LookupTableAccess;
  /**
   * Function cells that did not compile and evaluate as invalid (null / no match) instead of stopping the rule
   * from loading (docs/decisions/tables-invalid-cells.md). Absent or empty when every cell compiled.
   */
  readonly warnings?: readonly Problem[];
  /** Internal: evaluate one input object. Use solve()/solveSync() from engine/index.ts. */
  evaluate(input: unknown, ctx: EvaluationContext): SolveResult | Promise<SolveResult>;
  /**
   * Internal, present on rules whose untraced solves read nothing of their input but a few fixed paths (decision
   * tables whose rows are all constant): flow nodes solve them from the mapped values without building the input
   * object (docs/decisions/perf-engine-sync-flows.md).
   */
  readonly columnInput?: ColumnInput;
}

/** See CompiledRule.columnInput. */
export interface ColumnInput {
  /** The input paths the rule reads (plain names only), one per value `evaluateColumns` takes. */
  readonly paths: readonly (readonly string[])[];
  /**
   * evaluate() of an input that holds `values[i]` at `paths[i]` (undefined: missing) and nothing else the rule
   * reads. Only for contexts that do not trace (a trace shows the input).
   */
  evaluateColumns(values: readonly unknown[], ctx: EvaluationContext): SolveResult | Promise<SolveResult>;
  /**
   * The FIRST_MATCH answer for the same values, without a solve: the output object of the first matching row, or
   * undefined when no row matches. The object is the row's compiled constant, shared by every call and frozen: it
   * is for flow nodes, which only read their rules' outputs and copy what they pass on. Reads only `ctx.now` (rows
   * with a time window, date cells); the caller counts the call (context.ts countCall) and does not trace.
   */
  firstMatch(values: readonly unknown[], ctx: EvaluationContext): Json | undefined;
}

/** Direct access to a lookup table's rows (spec/rule-format.md §7, §4.9.7). */
export interface LookupTableAccess {
  /**
   * The cell of `column` (matched by column name, then alias) in the row whose primary key equals `key`, with the
   * simple-value cast applied; with `column` undefined, the whole row keyed by column alias without the primary key
   * (the function page's shape). null when no row or no such column.
   */
  lookupValue(key: unknown, column: string | undefined): unknown;
  lookupExists(key: unknown): boolean;
}

/** Everything an evaluation may use, normalised from SolveOptions once per solve. */
export interface EvaluationContext {
  strategy: Strategy;
  includedConditionCols: readonly string[] | undefined;
  excludedConditionCols: readonly string[] | undefined;
  lookupMethod: LookupMethod;
  now: number;
  timeZone: string;
  trace: boolean;
  resolver: RuleResolver | undefined;
  http: HttpClient | undefined;
  sandbox: ScriptSandbox | undefined;
  deadline: number;
  timeoutMs: number | undefined;
  /** Nesting depth of SOLVE / flow calls, to stop runaway recursion. */
  depth: number;
  /** The top-level solve's budget, shared by every nested context (see enterCall). */
  budget: SolveBudget;
  /** The nested calls that led here, newest first; undefined at the top level. */
  callPath?: CallLink;
  /**
   * True below a DR.solve call: an enclosing script holds a sandbox isolate while it waits, so scripts solved here
   * may go beyond the sandbox's isolate pool instead of waiting for it (which could deadlock).
   */
  insideScript?: boolean;
  /** Source of RANDOM(); Math.random when absent. */
  random?: () => number;
  /** The top-level solve's DMN options; nested calls answer every decision. */
  dmnOptions?: DmnOptions;
}

export interface CompileOptions {
  /** IANA zone used when compiling date cells without an offset. Default 'UTC'. */
  timeZone?: string;
  /**
   * Grouping of `a - b - c` in expression text: 'left' (standard arithmetic, default) or 'right' (DecisionRules'
   * right-to-left quirk). See docs/decisions/expressions-arithmetic-associativity.md.
   */
  arithmeticAssociativity?: 'left' | 'right';
}
