// Integration functions (spec/rule-format.md §4.9.7, §11 Fn4, Fn5): SOLVE and LOOKUP_* through ctx.resolver,
// HTTP_* through ctx.http. Identical SOLVE and HTTP calls within one solve (one EvaluationContext) run once.
// SOLVE answers directly when its target does, and with a promise when the target waits; HTTP_* always waits.
import type { FunctionDef, EagerFunction } from './types.ts';
import type { CNode, CompileApi } from '../nodes.ts';
import type { Frame } from '../runtime.ts';
import type { CompiledRule, EvaluationContext, HttpRequest, LookupTableAccess, SolveResult } from '../../types.ts';
import type { PathSegment } from '../../path.ts';
import { enterCall, normaliseStrategy, pinInstant } from '../../context.ts';
import { parsePath } from '../../path.ts';
import { cloneJson, describe, invalid, mustPropagate, toText } from '../runtime.ts';
import { pick } from './data.ts';

/** Per-solve memo of SOLVE / HTTP results. Keyed by the context object, so it lives exactly as long as the solve. */
const callCache = new WeakMap<EvaluationContext, Map<string, unknown>>();

function cacheOf(ctx: EvaluationContext): Map<string, unknown> {
  let cache = callCache.get(ctx);
  if (!cache) {
    cache = new Map();
    callCache.set(ctx, cache);
  }
  return cache;
}

function cacheKey(parts: unknown[]): string | undefined {
  try {
    return JSON.stringify(parts);
  } catch {
    return undefined;
  }
}

function ruleIdOf(value: unknown, fn: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '') invalid(`${fn}: ${describe(value)} is not a rule id or alias`);
  return value.trim();
}

/** `null`, "latest" and anything that is not a number mean the latest published version. */
function versionOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

function optionsOf(value: unknown, fn: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) invalid(`${fn}: the options ${describe(value)} are not an object`);
  return value as Record<string, unknown>;
}

function columnList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const names = value.filter((v): v is string => typeof v === 'string');
  return names.length > 0 ? names : undefined;
}

interface PreparedSolve {
  id: string;
  compiled: CompiledRule | undefined;
  data: unknown;
  /** The nested context; made (and counted against the solve's budget) only when the call is not memoised. */
  child: () => EvaluationContext;
  path: PathSegment[] | undefined;
  key: string | undefined;
}

function prepareSolve(args: unknown[], f: Frame): PreparedSolve {
  const [target, data, options] = args;
  const id = ruleIdOf(target, 'SOLVE');
  const opts = optionsOf(options, 'SOLVE');
  const version = versionOf(opts.version);
  const resolver = f.ctx.resolver;
  if (!resolver) invalid(`SOLVE: no rules are available to call (rule "${id}")`);
  const strategy = normaliseStrategy(opts.strategy);
  const included = columnList(opts.includedConditionCols);
  const excluded = columnList(opts.excludedConditionCols);
  const path = typeof opts.path === 'string' && opts.path.trim() !== '' ? parsePath(opts.path.trim()) : undefined;
  const compiled = resolver.resolve(id, version);
  return {
    id,
    compiled,
    data,
    child: () => enterCall(f.ctx, compiled?.name ?? id, { strategy, includedConditionCols: included, excludedConditionCols: excluded }),
    path,
    key: cacheKey(['SOLVE', id, version ?? null, strategy, included ?? null, excluded ?? null, path ?? null, data ?? null]),
  };
}

/**
 * A rule or version that does not exist answers `{}`, as DecisionRules' own exported self-checking rules show (a
 * fresh object each time; `IS_NULL({})` is true). docs/decisions/expressions-integration-functions.md
 */
function shapeResult(result: SolveResult, path: PathSegment[] | undefined): unknown {
  if (!path) return result.result;
  return result.result.length === 0 ? null : pick(result.result[0], path);
}

/** A memoised answer (a value, or the promise of one) as a copy the caller owns. */
function ownCopy(memo: unknown): unknown {
  return memo instanceof Promise ? memo.then(cloneJson) : cloneJson(memo);
}

const SOLVE: EagerFunction = {
  kind: 'eager',
  name: 'SOLVE',
  params: 'rule, input, [options]',
  min: 2,
  max: 3,
  contextual: true,
  waits: true,
  impl(args, f) {
    const call = prepareSolve(args, f);
    if (!call.compiled) return {};
    const cache = cacheOf(f.ctx);
    if (call.key !== undefined && cache.has(call.key)) return ownCopy(cache.get(call.key));
    const outcome = call.compiled.evaluate(call.data, call.child());
    const answer = outcome instanceof Promise ? outcome.then((settled) => shapeResult(settled, call.path)) : shapeResult(outcome, call.path);
    if (call.key !== undefined) cache.set(call.key, answer);
    return ownCopy(answer);
  },
  collectRefs(args, api) {
    collectRef(args, api, (options) => {
      if (options === undefined) return undefined;
      if (options.isConst && options.value !== null && typeof options.value === 'object') {
        return versionOf((options.value as Record<string, unknown>).version);
      }
      return undefined;
    });
  },
};

function collectRef(args: readonly CNode[], api: CompileApi, version: (options: CNode | undefined) => number | undefined): void {
  const target = args[0];
  if (!target?.isConst) return;
  const id = target.value;
  if (typeof id !== 'string' || id.trim() === '') return;
  const v = version(args[2]);
  api.addRuleRef(v === undefined ? { idOrAlias: id.trim() } : { idOrAlias: id.trim(), version: v });
}

function lookupAccess(table: unknown, version: unknown, f: Frame, fn: string): LookupTableAccess | null {
  const id = ruleIdOf(table, fn);
  const resolver = f.ctx.resolver;
  if (!resolver) invalid(`${fn}: no lookup tables are available (table "${id}")`);
  const compiled = resolver.resolve(id, versionOf(version));
  if (!compiled) return null;
  if (!compiled.lookup) invalid(`${fn}: rule "${id}" is not a lookup table`);
  return compiled.lookup;
}

const lookupRefs = (args: readonly CNode[], api: CompileApi): void =>
  collectRef(args, api, (v) => (v?.isConst ? versionOf(v.value) : undefined));

const LOOKUP_VALUE: EagerFunction = {
  kind: 'eager',
  name: 'LOOKUP_VALUE',
  params: 'table, key, [version], [column]',
  min: 2,
  max: 4,
  contextual: true,
  impl([table, key, version, column], f) {
    const access = lookupAccess(table, version, f, 'LOOKUP_VALUE');
    if (!access) return null;
    const name = column === undefined || column === null || typeof column === 'object' ? undefined : toText(column);
    const value = access.lookupValue(key, name);
    return value === undefined ? null : value;
  },
  collectRefs: lookupRefs,
};

const LOOKUP_EXISTS: EagerFunction = {
  kind: 'eager',
  name: 'LOOKUP_EXISTS',
  params: 'table, key, [version]',
  min: 2,
  max: 3,
  contextual: true,
  impl([table, key, version], f) {
    const access = lookupAccess(table, version, f, 'LOOKUP_EXISTS');
    return access ? access.lookupExists(key) : null;
  },
  collectRefs: lookupRefs,
};

function headersOf(options: unknown, fn: string): Record<string, string> | undefined {
  const opts = optionsOf(options, fn);
  const headers = opts.headers;
  if (headers === undefined || headers === null) return undefined;
  if (typeof headers !== 'object' || Array.isArray(headers)) invalid(`${fn}: headers ${describe(headers)} are not an object`);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = toText(value);
  return out;
}

function httpFunction(method: HttpRequest['method'], withBody: boolean): EagerFunction {
  const name = `HTTP_${method}`;
  return {
    kind: 'eager',
    name,
    params: withBody ? 'url, body, [options]' : 'url, [options]',
    min: withBody ? 2 : 1,
    max: withBody ? 3 : 2,
    contextual: true,
    waits: true,
    impl(args, f) {
      const http = f.ctx.http;
      if (!http) return invalid('HTTP functions are disabled');
      const url = args[0];
      if (typeof url !== 'string' || url.trim() === '') return invalid(`${name}: ${describe(url)} is not a URL`);
      const request: HttpRequest = { method, url: url.trim() };
      const headers = headersOf(withBody ? args[2] : args[1], name);
      if (headers) request.headers = headers;
      if (withBody) request.body = args[1];
      const cache = cacheOf(f.ctx);
      const key = cacheKey(['HTTP', method, request.url, request.headers ?? null, request.body ?? null]);
      let pending = key === undefined ? undefined : (cache.get(key) as Promise<unknown> | undefined);
      if (!pending) {
        // The request waits: the solve's instant is taken before (SolveInstant).
        pinInstant(f.ctx);
        pending = http.request(request).then(
          (response) => (response.status >= 200 && response.status < 300 ? (response.body ?? null) : null),
          (error: unknown) => {
            if (mustPropagate(error)) throw error;
            return invalid(`${name}: ${error instanceof Error ? error.message : String(error)}`);
          },
        );
        if (key !== undefined) cache.set(key, pending);
      }
      return pending.then(cloneJson);
    },
  };
}

export const integrationFunctions: FunctionDef[] = [
  SOLVE,
  LOOKUP_VALUE,
  LOOKUP_EXISTS,
  httpFunction('GET', false),
  httpFunction('DELETE', false),
  httpFunction('POST', true),
  httpFunction('PUT', true),
  httpFunction('PATCH', true),
];
