// Source text that runs inside each fresh isolate context before the rule's script. It installs the documented
// globals (spec/rule-format.md §6) and returns the runner that awaits the script and hands back one JSON string.
//
// Why JSON text: the result must leave the isolate as plain data, and a string is the one value that crosses the
// boundary without the host touching objects the script built (getters, proxies, prototypes). Every builtin the
// runner needs is captured here, before rule code runs, so a script that replaces JSON.stringify or
// Array.prototype.push only damages its own result.
import { STRATEGIES } from '../types.ts';
import { CONSOLE_METHODS } from './api.ts';

/** File name given to rule scripts, so error stacks can be searched for the script's own line numbers. */
export const SCRIPT_FILE_NAME = 'rule-script.js';

/**
 * Wraps a rule script as the body of an async function (top-level `await` and `return output;` both work).
 * The opening line is compiled with lineOffset -1, so line 1 of the rule's text is reported as line 1.
 */
export function wrapScript(source: string): string {
  return `(async function script() {\n${source}\n})`;
}

/** Values the host passes to the bootstrap function, in order. */
export interface BootstrapLimits {
  maxLogLines: number;
  maxLogLineChars: number;
}

export const BOOTSTRAP_SOURCE = String.raw`(function bootstrap(inputJson, variablesJson, solveRef, httpRef, httpEnabled, limitsJson, install) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const isFrozen = Object.isFrozen;
  const ownKeys = Object.getOwnPropertyNames;
  const defineProperty = Object.defineProperty;
  const toText = String;
  const ErrorType = Error;
  const exec = RegExp.prototype.exec;
  const call = Function.prototype.call;
  const callExec = call.bind(exec);
  const LINE_PATTERN = /${SCRIPT_FILE_NAME.replace(/[.]/g, '\\.')}:(\d+):(\d+)/;
  const limits = parse(limitsJson);
  const logs = [];
  let logsTruncated = false;

  function deepFreeze(value) {
    if (value !== null && typeof value === 'object' && !isFrozen(value)) {
      freeze(value);
      const keys = ownKeys(value);
      for (let i = 0; i < keys.length; i++) deepFreeze(value[keys[i]]);
    }
    return value;
  }

  function describeValue(value) {
    if (typeof value === 'string') return value;
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      return toText(value);
    }
    if (value instanceof ErrorType) return toText(value.stack || value);
    try {
      const text = stringify(value);
      return text === undefined ? toText(value) : text;
    } catch {
      return toText(value);
    }
  }

  function writeLine(prefix, values) {
    if (logs.length >= limits.maxLogLines) {
      logsTruncated = true;
      return;
    }
    let line = prefix === undefined ? '' : prefix;
    for (let i = 0; i < values.length; i++) line += (i > 0 || prefix !== undefined ? ' ' : '') + describeValue(values[i]);
    if (line.length > limits.maxLogLineChars) line = line.slice(0, limits.maxLogLineChars) + ' [cut]';
    logs[logs.length] = line;
  }

  function log() {
    writeLine(undefined, arguments);
  }

  // V8 gives every context a console that prints nowhere; a script's console.log would vanish without a word, so
  // the console writes to the same lines as log() (docs/decisions/studio-scripts.md).
  const consoleMethods = {};
  const consoleNames = ${JSON.stringify(CONSOLE_METHODS)};
  for (let i = 0; i < consoleNames.length; i++) {
    const name = consoleNames[i];
    const prefix = name === 'warn' || name === 'error' ? '[' + name + ']' : undefined;
    consoleMethods[name] = function () {
      writeLine(prefix, arguments);
    };
  }

  const transfer = { arguments: { copy: true }, result: { promise: true, copy: true } };

  function solve(ruleIdOrAlias, data, version, strategy) {
    return solveRef.apply(undefined, [ruleIdOrAlias, data, version, strategy], transfer);
  }

  function httpCall(method, url, body, options) {
    if (!httpEnabled) return Promise.reject(new ErrorType('HTTP is disabled'));
    const headers = options && typeof options === 'object' ? options.headers : undefined;
    return httpRef.apply(undefined, [method, url, body, headers], transfer);
  }

  const http = freeze({
    get: (url, options) => httpCall('GET', url, undefined, options),
    delete: (url, options) => httpCall('DELETE', url, undefined, options),
    post: (url, body, options) => httpCall('POST', url, body, options),
    put: (url, body, options) => httpCall('PUT', url, body, options),
    patch: (url, body, options) => httpCall('PATCH', url, body, options),
  });

  const globals = {
    input: parse(inputJson),
    output: {},
    ruleVariables: deepFreeze(parse(variablesJson)),
    log: log,
    console: freeze(consoleMethods),
    DR: freeze({ solve: solve, http: http }),
    SolverStrategy: freeze(${JSON.stringify(Object.fromEntries(STRATEGIES.map((name) => [name, name])))}),
  };
  // A fresh context gets them as its own globals; the warm realm (warm-realm.ts) passes 'install', which makes them
  // the current run's values of globals it defined once.
  if (install) {
    install(globals);
  } else {
    const names = ownKeys(globals);
    for (let i = 0; i < names.length; i++) {
      defineProperty(globalThis, names[i], { value: globals[names[i]], writable: true, enumerable: false, configurable: true });
    }
  }

  function describeError(error) {
    try {
      if (error instanceof ErrorType) {
        const name = toText(error.name);
        const message = (name && name !== 'Error' ? name + ': ' : '') + toText(error.message);
        const found = callExec(LINE_PATTERN, toText(error.stack));
        return { message: message, line: found ? +found[1] : null };
      }
      if (typeof error === 'string') return { message: error, line: null };
      const text = stringify(error);
      return { message: text === undefined ? toText(error) : text, line: null };
    } catch {
      return { message: 'the script threw a value that cannot be described', line: null };
    }
  }

  // The outcome is one line of JSON describing the run, then (on success) a newline and the value's JSON text. The
  // value stays text so the host can check its size and depth before parsing it; stringify never emits a raw
  // newline, so the first one ends the description.
  return async function run(script) {
    let value;
    try {
      value = await script();
    } catch (error) {
      return stringify({ ok: false, error: describeError(error), logs: logs, logsTruncated: logsTruncated });
    }
    let text;
    try {
      text = stringify(value === undefined ? {} : value);
    } catch (error) {
      const reason = describeError(error).message;
      return stringify({ ok: false, error: { message: 'the script returned a value that is not JSON: ' + reason, line: null }, logs: logs, logsTruncated: logsTruncated });
    }
    return stringify({ ok: true, logs: logs, logsTruncated: logsTruncated }) + '\n' + (text === undefined ? '{}' : text);
  };
})`;
