// What the script editor offers and checks, as plain functions of the text: completions for exactly the globals
// Verdict's sandbox installs (src/engine/script/api.ts, checked against a real isolate by the tests) plus the rule's
// own input fields, output fields and variables; the signature of the API call the cursor is in; and member names
// the sandbox does not have. CodeMirror only adapts these (ScriptEditor.tsx).
import { SCRIPT_API } from '../../../src/engine/script/api.ts';
import type { ScriptApiEntry } from '../../../src/engine/script/api.ts';
import { codeMask } from '../../../src/engine/script/source-scan.ts';
import { ruleVariablesOf } from '../../../src/engine/flow/rule-envelope.ts';

/** What a rule adds to the API: its models, its variables, and the rules DR.solve can call. */
export interface ScriptScope {
  inputSchema?: unknown;
  outputSchema?: unknown;
  userVariables?: unknown;
  /** Rules of the space, offered inside DR.solve's first argument. */
  rules?: readonly { alias: string; name: string; type: string }[];
}

export interface ScriptOption {
  label: string;
  type: 'variable' | 'function' | 'property' | 'constant' | 'text';
  detail?: string;
  info?: string;
  /** Text inserted instead of the label. */
  apply?: string;
  /** Where the inserted text starts when it is not the result's `from` (`input['a-b']` replaces the dot). */
  applyFrom?: number;
}

export interface ScriptCompletions {
  from: number;
  options: ScriptOption[];
  /** The typed text the options stay valid for. */
  validFor: RegExp;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const WORD_TAIL = /^[\w$]*$/;

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function entryOption(entry: ScriptApiEntry): ScriptOption {
  return entry.kind === 'function'
    ? { label: entry.name, type: 'function', detail: entry.signature, info: entry.doc, apply: `${entry.name}(` }
    : { label: entry.name, type: entry.kind === 'string' ? 'constant' : 'variable', detail: entry.kind === 'string' ? `'${entry.name}'` : undefined, info: entry.doc };
}

/** The members at a dotted path (`DR.http`, `input.customer`), or undefined when the path is not the API's. */
function membersAt(path: readonly string[], scope: ScriptScope, dotAt: number): ScriptOption[] | undefined {
  const root = SCRIPT_API.find((entry) => entry.name === path[0]);
  if (!root) return undefined;
  if (root.membersFrom) {
    if (root.membersFrom === 'userVariables') {
      if (path.length > 1) return undefined;
      return Object.entries(ruleVariablesOf(scope.userVariables)).map(([name, value]) =>
        fieldOption(name, `rule variable = ${JSON.stringify(value)}`, dotAt));
    }
    let node = asObject(scope[root.membersFrom]);
    for (const key of path.slice(1)) node = asObject(node[key]);
    const where = root.membersFrom === 'inputSchema' ? 'input model' : 'output model';
    return Object.entries(node).map(([name, child]) =>
      fieldOption(name, Object.keys(asObject(child)).length > 0 ? `${where} object` : `${where} field`, dotAt));
  }
  let entry: ScriptApiEntry | undefined = root;
  for (const key of path.slice(1)) entry = entry?.members?.find((member) => member.name === key);
  return entry?.members?.map(entryOption);
}

/** A model field or variable; a name that is not an identifier is written `["name"]` in place of the dot (after `?.`). */
function fieldOption(name: string, detail: string, dotAt: number): ScriptOption {
  if (IDENTIFIER.test(name)) return { label: name, type: 'property', detail };
  return { label: name, type: 'property', detail, apply: `[${JSON.stringify(name)}]`, applyFrom: dotAt };
}

function ruleOptions(scope: ScriptScope): ScriptOption[] {
  return (scope.rules ?? []).map((rule) => ({ label: rule.alias, type: 'text', detail: `${rule.name} · ${rule.type}` }));
}

/**
 * Completions at `pos`. `where` says what the syntax tree has at the cursor: nothing is offered in comments, and in
 * strings only the rule aliases of DR.solve's first argument.
 */
export function scriptCompletions(text: string, pos: number, scope: ScriptScope, where: 'code' | 'string' | 'comment', explicit = false): ScriptCompletions | null {
  const before = text.slice(0, pos);
  if (where === 'comment') return null;
  if (where === 'string') {
    const alias = /\bDR\s*\.\s*solve\s*\(\s*['"`]([\w.-]*)$/.exec(before);
    return alias ? { from: pos - alias[1]!.length, options: ruleOptions(scope), validFor: /^[\w.-]*$/ } : null;
  }
  const member = /(?<![\w$.])((?:[A-Za-z_$][\w$]*\s*\??\.\s*)+)([\w$]*)$/.exec(before);
  if (member) {
    const path = member[1]!.split('.').map((part) => part.replace(/\?$/, '').trim()).filter((part) => part !== '');
    const from = pos - member[2]!.length;
    const dot = before.lastIndexOf('.', from - 1);
    // `a.b` becomes `a["b-c"]`; `a?.b` becomes `a?.["b-c"]`
    const options = membersAt(path, scope, before[dot - 1] === '?' ? dot + 1 : dot);
    return options ? { from, options, validFor: WORD_TAIL } : null;
  }
  const word = /(?<![\w$.])[A-Za-z_$][\w$]*$/.exec(before);
  if (!word && !explicit) return null;
  return { from: word ? pos - word[0].length : pos, options: SCRIPT_API.map(entryOption), validFor: WORD_TAIL };
}

/** The API function whose call the cursor is in, as `signature — doc`, for the status line. */
export function signatureAt(text: string, pos: number): { signature: string; doc: string } | undefined {
  const mask = codeMask(text);
  let depth = 0;
  for (let i = Math.min(pos, text.length) - 1; i >= 0; i--) {
    if (!mask[i]) continue;
    const c = text[i]!;
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '[' || c === '{') {
      // an object or array literal the cursor is in is part of the call's arguments; a block is not
      if (depth === 0 && c === '{' && !/[(,:=[]\s*$/.test(text.slice(0, i))) return undefined;
      if (depth > 0) depth--;
    } else if (c === '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const callee = /(?<![\w$.])((?:[A-Za-z_$][\w$]*\s*\.\s*)*[A-Za-z_$][\w$]*)\s*$/.exec(text.slice(0, i));
      const entry = callee ? entryAt(callee[1]!.split('.').map((part) => part.trim())) : undefined;
      // the innermost call the cursor is in decides: inside Math.max( there is no API signature to show
      return entry?.signature ? { signature: entry.signature, doc: entry.doc } : undefined;
    } else if (c === ';' && depth === 0) return undefined;
  }
  return undefined;
}

function entryAt(path: readonly string[]): ScriptApiEntry | undefined {
  let entries: readonly ScriptApiEntry[] | undefined = SCRIPT_API;
  let entry: ScriptApiEntry | undefined;
  for (const key of path) {
    entry = entries?.find((candidate) => candidate.name === key);
    entries = entry?.members;
  }
  return entry;
}

export interface ScriptProblem {
  from: number;
  to: number;
  message: string;
}

/**
 * Members the sandbox does not define, read on its own objects (`DR.solv(`, `SolverStrategy.FIRST`): in the
 * sandbox they are undefined, and calling one fails only when the script runs.
 */
export function unknownMembers(text: string): ScriptProblem[] {
  const mask = codeMask(text);
  const problems: ScriptProblem[] = [];
  for (const match of text.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)+/g)) {
    if (!mask[match.index]) continue;
    const segments = [...match[0].matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => ({ name: m[0], at: match.index + m.index }));
    let entry = SCRIPT_API.find((candidate) => candidate.name === segments[0]!.name);
    const owner = [segments[0]!.name];
    for (const segment of segments.slice(1)) {
      // input, output and ruleVariables hold whatever the request and the rule hold: not checked.
      if (!entry?.members) break;
      const next: ScriptApiEntry | undefined = entry.members.find((member) => member.name === segment.name);
      if (!next) {
        problems.push({
          from: segment.at,
          to: segment.at + segment.name.length,
          message: `${owner.join('.')} has no member "${segment.name}" in Verdict's sandbox (it has ${entry.members.map((m) => m.name).join(', ')})`,
        });
        break;
      }
      entry = next;
      owner.push(segment.name);
    }
  }
  return problems;
}
