// functionNode (zen nodes/function): JavaScript, run in the solve's ScriptSandbox (isolated-vm, the script workers
// of complex-rule scripts) with zen's function API as far as it exists here:
//  - v1, the source as a string: `const handler = (input, { dayjs, Big, moment, env }) => ...`;
//  - v2, `{ source }`: `export const handler = async (input) => ...`, which may import `big.js` and `dayjs`.
// The input is the node's input with `$nodes`; the answer is what the handler returns (without `$nodes`). Other
// v2 modules (`zen`, `http`, `zod`) and TypeScript sources are refused when the graph compiles, naming the node.
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { pinInstant } from '../../context.ts';
import { LimitError, RuleError } from '../../errors.ts';
import type { Problem } from '../../errors.ts';
import type { CompiledScriptHandle, EvaluationContext } from '../../types.ts';
import { wrapScript } from '../../script/bootstrap.ts';
import type { JdmFunctionNode } from '../../../rules/decision-graph.ts';
import { BIG_JS_SOURCE, DAYJS_SOURCE } from '../function-libraries.ts';
import { nodeLabel } from '../node.ts';
import type { CompiledNode, NodeOutcome, NodeRun } from '../node.ts';
import { isObject } from '../values.ts';

/** The v2 modules a function node may import, and the global each sets. */
const MODULES: Readonly<Record<string, string>> = { 'big.js': 'Big', dayjs: 'dayjs' };

const IMPORT = /^\s*import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s+(['"])([^'"]+)\2\s*;?\s*$/;
const ANY_IMPORT = /^\s*import\s.*?from\s+(['"])([^'"]+)\1/;

/**
 * Hoisted functions ending every function node's script (so the author's line numbers stay theirs): a library is
 * a stand-in that evaluates big.js and Day.js (about 30 KB) the first time it is used, so that the many handlers
 * that only destructure `{ dayjs, Big }` do not pay for them on every solve.
 */
const LIBRARY_LOADER = `function __zenLibraries() {
  if (globalThis.__zenLoaded) return;
  globalThis.__zenLoaded = true;
${BIG_JS_SOURCE}
${DAYJS_SOURCE}
}
function __zenLibrary(name) {
  const real = () => (__zenLibraries(), globalThis[name]);
  return new Proxy(function () {}, {
    apply: (_, self, args) => Reflect.apply(real(), self, args),
    construct: (_, args, target) => Reflect.construct(real(), args),
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
  });
}`;

/** The sandbox script of a function node: the author's source, then the handler called with zen's arguments. */
function scriptOf(node: JdmFunctionNode, path: string, problems: Problem[]): string | undefined {
  const v2 = typeof node.content !== 'string';
  const source = typeof node.content === 'string' ? node.content : node.content.source;
  const sourcePath = v2 ? `${path}.content.source` : `${path}.content`;
  let body = source;
  let refused = false;
  if (v2) {
    const lines = source.split('\n').map((line, i) => {
      const found = IMPORT.exec(line);
      if (found && Object.hasOwn(MODULES, found[3])) return `const ${found[1]} = __zenLibrary('${MODULES[found[3]]}');`;
      const other = ANY_IMPORT.exec(line);
      if (other || /^\s*import\s/.test(line)) {
        refused = true;
        problems.push({ path: sourcePath, message: `line ${i + 1}: imports ${other ? JSON.stringify(other[2]) : 'a module'}; function nodes here provide "big.js" and "dayjs" only (as default imports)` });
        return '';
      }
      return line.replace(/^(\s*)export\s+(default\s+)?/, '$1');
    });
    body = lines.join('\n');
  }
  const call = v2 ? 'handler(input)' : "handler(input, { moment: __zenLibrary('dayjs'), dayjs: __zenLibrary('dayjs'), Big: __zenLibrary('Big'), env: {} })";
  if (refused) return undefined;
  const script = `${body}\n;return await ${call};\n${LIBRARY_LOADER}`;
  try {
    new Script(wrapScript(script), { filename: 'function.js', lineOffset: -1 });
  } catch (error) {
    problems.push({ path: sourcePath, message: `the function does not compile: ${(error as Error).message}${v2 ? ' (TypeScript types are not supported: write JavaScript)' : ''}` });
    return undefined;
  }
  return script;
}

/** zen's cleaner: `$nodes` never leaves a node (it is in a function's input, so a handler returning input has it). */
function withoutNodes(value: unknown): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = withoutNodes(item);
      if (clean !== item) (out ??= [...value])[i] = clean;
    });
    return out ?? value;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const key in value) {
    if (key === '$nodes') {
      out ??= { ...value };
      delete out[key];
      continue;
    }
    const clean = withoutNodes(value[key]);
    if (clean !== value[key]) (out ??= { ...value })[key] = clean;
  }
  return out ?? value;
}

export function compileFunctionNode(node: JdmFunctionNode, path: string, problems: Problem[]): CompiledNode {
  const base = { id: node.id, name: node.name, type: node.type, readsNodes: true, async: true } as const;
  const where = nodeLabel(base);
  const source = scriptOf(node, path, problems) ?? '';
  // Hostless: a function node's handler gets no DR.solve or DR.http, so it may run in the sandbox's warm realm.
  const handle: CompiledScriptHandle = { source, cacheKey: createHash('sha256').update(source).digest('base64url'), hostless: true };

  return {
    ...base,
    async evaluate(input: unknown, run: NodeRun): Promise<NodeOutcome> {
      const { ctx } = run;
      const sandbox = ctx.sandbox;
      if (!sandbox) throw new RuleError('function nodes need a script sandbox, and none is configured', where);
      const { budget } = ctx;
      if (budget.scripts >= budget.limits.maxConcurrentScripts) {
        throw new LimitError(`more than ${budget.limits.maxConcurrentScripts} scripts run at once in one solve; ${where} was not started`);
      }
      budget.scripts++;
      pinInstant(ctx);
      const logs: string[] = [];
      let value: unknown;
      try {
        value = await sandbox.run(handle, callOf(ctx, isObject(input) ? { ...input, $nodes: run.nodes() } : input, logs, where));
      } catch (error) {
        if (error instanceof RuleError) throw new RuleError(error.message, where);
        throw error;
      } finally {
        budget.scripts--;
      }
      const output = withoutNodes(value);
      return run.trace ? { output, traceData: { log: logs } } : { output };
    },
  };
}

function callOf(ctx: EvaluationContext, input: unknown, logs: string[], where: string) {
  return {
    input,
    ruleVariables: {},
    solve: () => Promise.reject(new RuleError('DR.solve is not available in a function node: use a decision node', where)),
    log: (line: string) => logs.push(line),
    deadline: ctx.deadline,
    timeoutMs: ctx.timeoutMs,
    nested: ctx.insideScript === true,
    scope: ctx.budget,
  };
}
