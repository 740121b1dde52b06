// What the expression editor shows: tokens for highlighting and problems for inline errors, both from the
// engine's own lexer, parser and compiler (src/engine/expression), so the editor accepts exactly what the
// solver accepts. Pure TypeScript, tested with node:test.
import { Scanner, SyntaxProblem, isFunctionName, isVariablePath } from '../../../../src/engine/expression/lexer.ts';
import { parseExpression } from '../../../../src/engine/expression/parser.ts';
import { compileAst } from '../../../../src/engine/expression/compile.ts';
import { functionCatalog } from '../../../../src/engine/expression/catalog.ts';
import type { FunctionInfo } from '../../../../src/engine/expression/catalog.ts';
import type { Node } from '../../../../src/engine/expression/ast.ts';

export type { FunctionInfo };

export type TokenType = 'string' | 'number' | 'variable' | 'function' | 'unknownFunction' | 'keyword' | 'operator' | 'punctuation' | 'word';

export interface Token {
  from: number;
  to: number;
  type: TokenType;
}

let byName: Map<string, FunctionInfo> | undefined;

export function functionInfo(name: string): FunctionInfo | undefined {
  byName ??= new Map(functionCatalog().map((f) => [f.name, f]));
  return byName.get(name.toUpperCase());
}

export { functionCatalog };

/** Splits expression text into highlighted tokens with the engine's scanner; never throws. */
export function tokenizeExpression(text: string): Token[] {
  const s = new Scanner(text);
  const out: Token[] = [];
  const push = (from: number, to: number, type: TokenType) => {
    if (to > from) out.push({ from, to, type });
  };
  let guard = 0;
  while (guard++ < text.length * 2 + 10) {
    s.skipWhitespace();
    if (s.atEnd) break;
    const start = s.pos;
    const c = s.peek()!;
    if (c === '"' || c === "'") {
      try {
        s.readQuoted();
      } catch {
        s.pos = text.length;
      }
      push(start, s.pos, 'string');
      continue;
    }
    if (c === '{') {
      const close = s.findClosing('{', '}', start);
      if (close > start && isVariablePath(text.slice(start + 1, close))) {
        push(start, close + 1, 'variable');
        s.pos = close + 1;
        continue;
      }
      push(start, start + 1, 'punctuation');
      s.pos++;
      continue;
    }
    if ('+-*/%'.includes(c)) {
      push(start, start + 1, 'operator');
      s.pos++;
      continue;
    }
    if ('()[],:}'.includes(c)) {
      push(start, start + 1, 'punctuation');
      s.pos++;
      continue;
    }
    if ((c >= '0' && c <= '9') || c === '.') {
      if (s.readNumber(false) !== undefined) {
        push(start, s.pos, 'number');
        continue;
      }
    }
    const word = s.readWord(false);
    if (word === '') {
      s.pos = start + 1;
      push(start, s.pos, 'punctuation');
      continue;
    }
    if (isFunctionName(word) && s.peekSignificant() === '(') {
      push(start, s.pos, functionInfo(word) ? 'function' : 'unknownFunction');
    } else if (word === 'true' || word === 'false' || word === 'null') {
      push(start, s.pos, 'keyword');
    } else {
      push(start, s.pos, 'word');
    }
  }
  return out;
}

export interface ExpressionProblem {
  from: number;
  to: number;
  message: string;
  severity: 'error' | 'warning';
}

function calls(root: Node): Extract<Node, { kind: 'call' }>[] {
  const out: Extract<Node, { kind: 'call' }>[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    switch (node.kind) {
      case 'call':
        out.push(node);
        stack.push(...node.args);
        break;
      case 'array':
        stack.push(...node.items);
        break;
      case 'object':
        for (const m of node.members) stack.push(m.key, m.value);
        break;
      case 'unary':
        stack.push(node.operand);
        break;
      case 'binary':
        stack.push(node.left, node.right);
        break;
      default:
        break;
    }
  }
  return out;
}

function arityText(min: number, max: number): string {
  if (min === max) return `${min} argument${min === 1 ? '' : 's'}`;
  if (max === Infinity) return `at least ${min} argument${min === 1 ? '' : 's'}`;
  return `${min} to ${max} arguments`;
}

/**
 * Syntax errors (the parser's reason at its offset), compile errors (unknown functions, malformed lambdas) and
 * argument-count errors, which the solver would turn into an invalid (null) cell.
 */
export function expressionProblems(text: string): ExpressionProblem[] {
  const at = (offset: number, length = 1) => {
    const from = Math.max(0, Math.min(offset, text.length));
    return { from, to: Math.min(text.length, from + length) };
  };
  let ast: Node;
  try {
    ast = parseExpression(text);
  } catch (error) {
    if (error instanceof SyntaxProblem) return [{ ...at(error.offset), message: error.reason, severity: 'error' }];
    return [{ from: 0, to: text.length, message: error instanceof Error ? error.message : String(error), severity: 'error' }];
  }
  try {
    compileAst(ast, text);
  } catch (error) {
    if (error instanceof SyntaxProblem) {
      const name = /^unknown function (\S+)/.exec(error.reason)?.[1];
      return [{ ...at(error.offset, name?.length ?? 1), message: error.reason, severity: 'error' }];
    }
  }
  const problems: ExpressionProblem[] = [];
  for (const call of calls(ast)) {
    const info = functionInfo(call.name);
    if (!info) continue;
    const count = call.args.length;
    if (count < info.min || count > info.max) {
      problems.push({ ...at(call.pos, call.name.length), message: `${call.name} expects ${arityText(info.min, info.max)}, got ${count}`, severity: 'error' });
    }
  }
  return problems.sort((a, b) => a.from - b.from);
}

/** The function whose argument list the cursor is in (for the signature line), or undefined. */
export function callAt(text: string, cursor: number): FunctionInfo | undefined {
  const stack: (string | undefined)[] = [];
  let pendingName: string | undefined;
  for (const token of tokenizeExpression(text)) {
    if (token.from >= cursor) break;
    const t = text.slice(token.from, token.to);
    if (token.type === 'function' || token.type === 'unknownFunction') {
      pendingName = t;
      continue;
    }
    if (t === '(' || t === '[' || (t === '{' && token.type === 'punctuation')) stack.push(t === '(' ? pendingName : undefined);
    else if ((t === ')' || t === ']' || t === '}') && token.to <= cursor) stack.pop();
    pendingName = undefined;
  }
  for (let i = stack.length - 1; i >= 0; i--) {
    const name = stack[i];
    if (name !== undefined) return functionInfo(name);
  }
  return undefined;
}
