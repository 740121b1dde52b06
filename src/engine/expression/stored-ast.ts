// The stored `value` form of an expression (spec/rule-format.md §4.7) -> the same AST the text parser builds.
// Used for old exports that lack `stringValue`. Internal names (EQUAL, LESS, TIMES_CHAR, MINUS_CHAR, EVAL, ...)
// are resolved here or by the function registry's aliases.
import type { Node, ObjectMember } from './ast.ts';
import type { Problem } from '../errors.ts';
import { parsePath } from '../path.ts';
import { Scanner, isVariablePath, normaliseVariablePath } from './lexer.ts';
import { interpolationParts, MAX_NESTING } from './parser.ts';
import { findFunction } from './functions/index.ts';

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const WHOLE_REFERENCE = /^\{([^{}]*)\}$/;
const OPERATORS: Record<string, '+' | '-' | '*' | '/' | '%'> = {
  PLUS_CHAR: '+',
  MINUS_CHAR: '-',
  TIMES_CHAR: '*',
  DIVIDED_CHAR: '/',
  MODULO_CHAR: '%',
};

/** Converts a stored value; problems (unknown functions, malformed nodes) are collected with their JSON path. */
export function readStoredValue(value: unknown, where: string, problems: Problem[]): Node {
  return new StoredReader(problems).parameter(value, where, 0);
}

function isAstNode(value: unknown): value is { functionName: unknown; parameters?: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'functionName');
}

function unquote(text: string): string {
  const scanner = new Scanner(text);
  try {
    const inner = scanner.readQuoted();
    if (scanner.atEnd) return inner;
  } catch {
    // not a well-formed quoted string: fall back to dropping the outer quotes
  }
  return text.slice(1, -1);
}

class StoredReader {
  private readonly problems: Problem[];

  constructor(problems: Problem[]) {
    this.problems = problems;
  }

  private tooDeep(path: string, depth: number): boolean {
    if (depth <= MAX_NESTING) return false;
    this.problems.push({ path, message: `expression nests deeper than ${MAX_NESTING} levels` });
    return true;
  }

  /** A direct parameter or the top-level value: strings follow the §4.7 string rules. */
  parameter(value: unknown, path: string, depth: number): Node {
    if (this.tooDeep(path, depth)) return { kind: 'literal', value: null, pos: 0 };
    if (value === undefined) return { kind: 'literal', value: '', pos: 0 };
    if (value === null || typeof value === 'boolean' || typeof value === 'number') {
      return { kind: 'literal', value, pos: 0 };
    }
    if (typeof value === 'string') return this.stringParameter(value);
    if (isAstNode(value)) return this.call(value, path, depth);
    return this.leaf(value, path, depth);
  }

  private stringParameter(text: string): Node {
    const reference = WHOLE_REFERENCE.exec(text);
    if (reference && isVariablePath(reference[1]!)) {
      const p = normaliseVariablePath(reference[1]!);
      return { kind: 'var', path: p, segments: parsePath(p), pos: 0 };
    }
    const first = text[0];
    if (text.length >= 2 && (first === '"' || first === "'") && text[text.length - 1] === first) {
      const inner = unquote(text);
      const parts = interpolationParts(inner);
      return parts ? { kind: 'interpolated', parts, text: inner, pos: 0 } : { kind: 'literal', value: inner, pos: 0 };
    }
    if (NUMBER_TEXT.test(text)) return { kind: 'literal', value: Number(text), pos: 0 };
    // the parser reads these words as literals, so the stored form must too (stringValue and value agree)
    if (text === 'true') return { kind: 'literal', value: true, pos: 0 };
    if (text === 'false') return { kind: 'literal', value: false, pos: 0 };
    if (text === 'null') return { kind: 'literal', value: null, pos: 0 };
    return { kind: 'literal', value: text, pos: 0 };
  }

  /** A member of a JSON literal: AST nodes are evaluated, every other leaf is taken literally. */
  private leaf(value: unknown, path: string, depth: number): Node {
    if (this.tooDeep(path, depth)) return { kind: 'literal', value: null, pos: 0 };
    if (isAstNode(value)) return this.call(value, path, depth);
    if (Array.isArray(value)) {
      return { kind: 'array', items: value.map((item, i) => this.leaf(item, `${path}[${i}]`, depth + 1)), pos: 0 };
    }
    if (value !== null && typeof value === 'object') {
      const members: ObjectMember[] = [];
      for (const [key, member] of Object.entries(value)) {
        const memberPath = `${path}.${key}`;
        if (/^_kvp_\d+$/.test(key) && member !== null && typeof member === 'object' && Object.hasOwn(member, 'key')) {
          const pair = member as { key: unknown; value?: unknown };
          members.push({
            key: this.leaf(pair.key, `${memberPath}.key`, depth + 1),
            value: this.leaf(pair.value, `${memberPath}.value`, depth + 1),
          });
        } else {
          members.push({ key: { kind: 'literal', value: key, pos: 0 }, value: this.leaf(member, memberPath, depth + 1) });
        }
      }
      return { kind: 'object', members, pos: 0 };
    }
    if (value === undefined) return { kind: 'literal', value: null, pos: 0 };
    return { kind: 'literal', value: value as string | number | boolean | null, pos: 0 };
  }

  private call(node: { functionName: unknown; parameters?: unknown }, path: string, depth: number): Node {
    const name = typeof node.functionName === 'string' ? node.functionName.trim().toUpperCase() : '';
    if (name === '') {
      this.problems.push({ path: `${path}.functionName`, message: 'functionName must be a non-empty string' });
      return { kind: 'literal', value: null, pos: 0 };
    }
    let params: unknown[] = [];
    if (Array.isArray(node.parameters)) params = node.parameters;
    else if (node.parameters !== undefined && node.parameters !== null) {
      this.problems.push({ path: `${path}.parameters`, message: 'parameters must be an array' });
    }
    const arg = (i: number): Node => this.parameter(params[i], `${path}.parameters[${i}]`, depth + 1);

    if (name === 'EVAL' && params.length === 1) return arg(0);
    if (name === 'TEXT') return { kind: 'text', raw: rawText(params[0]), pos: 0 };
    const op = OPERATORS[name];
    if (op === '-' && params.length === 1) return { kind: 'unary', op: '-', operand: arg(0), pos: 0 };
    if (op && params.length === 2) return { kind: 'binary', op, left: arg(0), right: arg(1), pos: 0 };
    if (!op && !findFunction(name)) {
      this.problems.push({ path: `${path}.functionName`, message: `unknown function ${name}` });
    }
    return { kind: 'call', name, args: params.map((_, i) => arg(i)), pos: 0 };
  }
}

function rawText(param: unknown): string {
  if (param === undefined) return '';
  if (typeof param !== 'string') return JSON.stringify(param);
  const text = param.trim();
  if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text[text.length - 1] === text[0]) return text.slice(1, -1);
  return text;
}
