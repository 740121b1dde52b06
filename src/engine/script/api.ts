// The script API a rule script sees (spec/rule-format.md §6): every global the bootstrap installs, with its members
// and signatures. Written once, here: bootstrap.ts builds SolverStrategy from the engine's strategies, the Studio's
// script editor completes from this list, and test/studio/script-completions.test.ts checks it against the globals
// a real isolate context has after the bootstrap ran, so the two cannot drift apart.
import { STRATEGIES } from '../types.ts';

export interface ScriptApiEntry {
  name: string;
  /** What `typeof` says of it in the sandbox ('object' for input, output, ruleVariables, DR, …). */
  kind: 'object' | 'function' | 'string';
  /** For functions: the call as an author writes it; optional arguments end in `?`. */
  signature?: string;
  /** One sentence for the completion's tooltip. */
  doc: string;
  /** Members the sandbox defines itself (DR.solve, DR.http.get, SolverStrategy.ARRAY, console.log). */
  members?: readonly ScriptApiEntry[];
  /** Members that come from the rule rather than from the sandbox: its input model, output model or variables. */
  membersFrom?: 'inputSchema' | 'outputSchema' | 'userVariables';
}

/** The console methods the bootstrap routes to log(); warn and error lines get a `[warn] ` / `[error] ` prefix. */
export const CONSOLE_METHODS = ['log', 'info', 'debug', 'warn', 'error'] as const;

const httpMethod = (name: string, body: boolean): ScriptApiEntry => ({
  name,
  kind: 'function',
  signature: `DR.http.${name}(url${body ? ', body' : ''}, options?)`,
  doc: `${name.toUpperCase()} request with a JSON${body ? ' body and' : ''} answer; options = { headers: {…} }. Resolves to { status, body, config, response_headers, timestamp }; throws (catchable) on a non-2xx status. Only hosts on the server's HTTP allowlist are reachable.`,
});

export const SCRIPT_API: readonly ScriptApiEntry[] = [
  { name: 'input', kind: 'object', doc: 'The request data (one input of a bulk solve), shaped by the input model.', membersFrom: 'inputSchema' },
  { name: 'output', kind: 'object', doc: 'An empty object to fill and return (`return output;`); the output model says what callers expect.', membersFrom: 'outputSchema' },
  { name: 'ruleVariables', kind: 'object', doc: 'The rule variables of this version, read-only ({ name: value }).', membersFrom: 'userVariables' },
  {
    name: 'log',
    kind: 'function',
    signature: 'log(...values)',
    doc: 'Prints a line to the script console: the test bench shows it, an X-Debug audit record keeps it. Objects print as JSON.',
  },
  {
    name: 'console',
    kind: 'object',
    doc: 'The same console as log(): console.warn and console.error lines are marked [warn] and [error].',
    members: CONSOLE_METHODS.map((name) => ({
      name,
      kind: 'function',
      signature: `console.${name}(...values)`,
      doc: name === 'warn' || name === 'error' ? `Writes a line as log() does, starting with [${name}].` : 'Writes a line as log() does.',
    })),
  },
  {
    name: 'DR',
    kind: 'object',
    doc: 'Calls into Verdict: other rules of this space and HTTP.',
    members: [
      {
        name: 'solve',
        kind: 'function',
        signature: 'DR.solve(ruleIdOrAlias, data, version?, strategy?)',
        doc: 'Solves another rule of this space and resolves to its result array (an array of arrays for an array of inputs). Without a version: the latest published one; to pass a strategy, pass a version too. Awaited automatically at the top level; inside a function, await it.',
      },
      {
        name: 'http',
        kind: 'object',
        doc: 'JSON HTTP calls to allowlisted hosts (off unless the server enables them).',
        members: [httpMethod('get', false), httpMethod('delete', false), httpMethod('post', true), httpMethod('put', true), httpMethod('patch', true)],
      },
    ],
  },
  {
    name: 'SolverStrategy',
    kind: 'object',
    doc: 'The strategies DR.solve accepts as its 4th argument.',
    members: STRATEGIES.map((name) => ({ name, kind: 'string', doc: `The ${name} strategy ('${name}').` })),
  },
];
