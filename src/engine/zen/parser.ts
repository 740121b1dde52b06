// Parser for ZEN expressions, both modes (zen core/expression/src/parser/{standard,unary}.rs): precedence
// climbing over the operator table of zen's parser/constants.rs. Unary mode reads decision-table cells such
// as `> 5, < 10` or `[1..5]`: pairs joined by `and`, `or` and `,`, each compared against `$`.
import { CLOSURE_FUNCTIONS, type Node } from './ast.ts';
import { ZenSyntaxError } from './errors.ts';
import { tokenize, type Token } from './lexer.ts';

const BINARY: Record<string, { precedence: number; right?: boolean }> = {
  or: { precedence: 10 },
  and: { precedence: 15 },
  '==': { precedence: 20 },
  '!=': { precedence: 20 },
  '<': { precedence: 20 },
  '>': { precedence: 20 },
  '<=': { precedence: 20 },
  '>=': { precedence: 20 },
  in: { precedence: 20 },
  'not in': { precedence: 20 },
  '+': { precedence: 30 },
  '-': { precedence: 30 },
  '*': { precedence: 60 },
  '/': { precedence: 60 },
  '%': { precedence: 60 },
  '^': { precedence: 70, right: true },
  '??': { precedence: 80 },
};

const UNARY_PRECEDENCE: Record<string, number> = { not: 50, '!': 50, '-': 200, '+': 200 };

const COMPARISONS = new Set(['==', '!=', '<', '>', '<=', '>=', 'in', 'not in']);

class Parser {
  private readonly tokens: Token[];
  private readonly source: string;
  private index = 0;

  constructor(source: string) {
    this.source = source;
    this.tokens = tokenize(source);
  }

  private get current(): Token {
    return this.tokens[this.index];
  }

  private peek(offset = 1): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)];
  }

  private is(value: string, kind?: Token['kind']): boolean {
    const token = this.current;
    return token.value === value && (kind ? token.kind === kind : token.kind === 'operator' || token.kind === 'bracket');
  }

  private error(message: string, token = this.current): never {
    const where = token.kind === 'end' ? 'at the end' : `at ${token.at}`;
    throw new ZenSyntaxError(`${message} ${where} of '${this.source}'`, token.at);
  }

  private expect(value: string): void {
    if (!this.is(value)) this.error(`expected '${value}'`);
    this.index++;
  }

  /** The binary operator at the cursor (`not in` is two tokens), without consuming it. */
  private binaryOperator(): [string, number] | undefined {
    const token = this.current;
    if (token.kind !== 'operator') return undefined;
    if (token.value === 'not' && this.peek().kind === 'operator' && this.peek().value === 'in') return ['not in', 2];
    return BINARY[token.value] ? [token.value, 1] : undefined;
  }

  parseStandard(): Node {
    const node = this.program();
    if (this.current.kind !== 'end') this.error(`unexpected '${this.current.value}'`);
    return node;
  }

  /** Statements separated by `;`: assignments then an optional result expression. */
  private program(): Node {
    const targets: { path: string[]; value: Node }[] = [];
    let result: Node | undefined;
    for (;;) {
      const path = this.assignmentTarget();
      if (path) targets.push({ path, value: this.expression(0, false) });
      else result = this.expression(0, false);
      if (!this.is(';') || result) break;
      this.index++;
    }
    if (targets.length === 0 && result) return result;
    return { type: 'assignments', targets, result };
  }

  /** `a.b.c =` at the cursor: consumes it and returns the path, else leaves the cursor. */
  private assignmentTarget(): string[] | undefined {
    const path: string[] = [];
    let i = this.index;
    for (;;) {
      const token = this.tokens[i];
      if (token.kind !== 'identifier') return undefined;
      path.push(token.value);
      const next = this.tokens[i + 1];
      if (next.kind === 'operator' && next.value === '=') {
        this.index = i + 2;
        return path;
      }
      if (!(next.kind === 'operator' && next.value === '.')) return undefined;
      i += 2;
    }
  }

  parseUnary(): Node {
    let node = this.unaryPair();
    while (this.current.kind !== 'end') {
      const token = this.current;
      let join: string;
      if (this.is('and')) join = 'and';
      else if (this.is('or') || this.is(',')) join = 'or';
      else this.error(`invalid join operator '${token.value}'`);
      this.index++;
      node = { type: 'binary', operator: join, left: node, right: this.unaryPair() };
    }
    return node;
  }

  private unaryPair(): Node {
    const $: Node = { type: 'identifier', name: '$' };
    const operator = this.binaryOperator();
    if (operator && COMPARISONS.has(operator[0])) {
      this.index += operator[1];
      return { type: 'binary', operator: operator[0], left: $, right: this.expression(0, true) };
    }
    const node = this.expression(0, true);
    const behaviour = unaryBehaviour(node);
    if (behaviour === 'bool') return { type: 'call', name: 'bool', args: [node] };
    return { type: 'binary', operator: behaviour, left: $, right: node };
  }

  /** Precedence climbing; `joins` stops at `and`/`or`/`,` (unary mode's top level). Ternary at level 0. */
  private expression(precedence: number, joins: boolean): Node {
    let left = this.prefix(joins);
    for (;;) {
      if (joins && (this.is('and') || this.is('or') || this.is(','))) break;
      const operator = this.binaryOperator();
      if (!operator) break;
      const info = BINARY[operator[0] === 'not in' ? 'not in' : operator[0]];
      if (info.precedence < precedence) break;
      this.index += operator[1];
      const right = this.expression(info.right ? info.precedence : info.precedence + 1, joins);
      left = { type: 'binary', operator: operator[0], left, right };
    }
    if (precedence === 0 && this.is('?')) {
      this.index++;
      const whenTrue = this.expression(0, joins);
      this.expect(':');
      const whenFalse = this.expression(0, joins);
      left = { type: 'conditional', condition: left, whenTrue, whenFalse };
    }
    return left;
  }

  private prefix(joins: boolean): Node {
    const token = this.current;
    if (token.kind === 'operator' && UNARY_PRECEDENCE[token.value] !== undefined) {
      this.index++;
      const operand = this.expression(UNARY_PRECEDENCE[token.value], joins);
      const operator = token.value === '!' ? 'not' : (token.value as 'not' | '-' | '+');
      return { type: 'unary', operator, operand };
    }
    return this.postfix(this.primary());
  }

  private postfix(start: Node): Node {
    let node = start;
    for (;;) {
      if (this.is('.') || this.is('?.')) {
        this.index++;
        const name = this.current;
        if (name.kind !== 'identifier' && name.kind !== 'operator') this.error('expected a property name');
        this.index++;
        if (this.is('(')) {
          node = { type: 'method', object: node, name: name.value, args: this.arguments() };
        } else {
          node = { type: 'member', object: node, property: { type: 'literal', value: name.value } };
        }
      } else if (this.is('[')) {
        this.index++;
        if (this.is(':')) {
          this.index++;
          const to = this.is(']') ? undefined : this.expression(0, false);
          this.expect(']');
          node = { type: 'slice', object: node, to };
          continue;
        }
        const index = this.expression(0, false);
        if (this.is(':')) {
          this.index++;
          const to = this.is(']') ? undefined : this.expression(0, false);
          this.expect(']');
          node = { type: 'slice', object: node, from: index, to };
          continue;
        }
        this.expect(']');
        node = { type: 'member', object: node, property: index };
      } else {
        return node;
      }
    }
  }

  private arguments(): Node[] {
    this.expect('(');
    const args: Node[] = [];
    while (!this.is(')')) {
      args.push(this.expression(0, false));
      if (!this.is(',')) break;
      this.index++;
    }
    this.expect(')');
    return args;
  }

  private primary(): Node {
    const token = this.current;
    switch (token.kind) {
      case 'number': {
        this.index++;
        return { type: 'literal', value: Number(token.value) };
      }
      case 'string':
        this.index++;
        return { type: 'literal', value: token.value };
      case 'template':
        this.index++;
        return { type: 'template', parts: templateParts(token.value, token.at + 1) };
      case 'identifier':
        this.index++;
        return this.identifier(token.value);
      case 'bracket':
        return this.bracketed(token.value);
      default:
        return this.error(`unexpected '${token.value || 'end of expression'}'`, token);
    }
  }

  private identifier(name: string): Node {
    if (name === 'true' || name === 'false') return { type: 'literal', value: name === 'true' };
    if (name === 'null') return { type: 'literal', value: null };
    if (name === '#') return { type: 'pointer' };
    if (name === '$root') return { type: 'root' };
    if (!this.is('(')) return { type: 'identifier', name };
    if (CLOSURE_FUNCTIONS.has(name)) return this.closure(name);
    return { type: 'call', name, args: this.arguments() };
  }

  private closure(name: string): Node {
    this.expect('(');
    const subject = this.expression(0, false);
    let alias: string | undefined;
    if (this.current.kind === 'identifier' && this.current.value === 'as') {
      this.index++;
      if (this.current.kind !== 'identifier') this.error('expected an alias name after as');
      alias = this.current.value;
      this.index++;
    }
    this.expect(',');
    const body = this.expression(0, false);
    this.expect(')');
    return { type: 'closure', name, subject, alias, body };
  }

  private bracketed(bracket: string): Node {
    this.index++;
    if (bracket === '{') return this.object();
    if (bracket === '[' && this.is(']')) {
      this.index++;
      return { type: 'array', items: [] };
    }
    if (bracket !== '[' && bracket !== '(' && bracket !== ']') this.error(`unexpected '${bracket}'`);
    const first = this.expression(0, false);
    if (this.is('..')) {
      this.index++;
      const right = this.expression(0, false);
      const close = this.current;
      if (!(close.kind === 'bracket' && (close.value === ']' || close.value === ')' || close.value === '['))) {
        this.error("expected ']' or ')' closing the interval");
      }
      this.index++;
      return { type: 'interval', left: first, right, leftClosed: bracket === '[', rightClosed: close.value === ']' };
    }
    if (bracket === '(') {
      this.expect(')');
      return first;
    }
    const items = [first];
    while (this.is(',')) {
      this.index++;
      if (this.is(']')) break;
      items.push(this.expression(0, false));
    }
    this.expect(']');
    return { type: 'array', items };
  }

  private object(): Node {
    const entries: { key: Node; value: Node }[] = [];
    while (!this.is('}')) {
      const token = this.current;
      let key: Node;
      if (this.is('[')) {
        this.index++;
        key = this.expression(0, false);
        this.expect(']');
      } else if (token.kind === 'identifier' || token.kind === 'string' || token.kind === 'number') {
        this.index++;
        key = { type: 'literal', value: token.value };
      } else {
        this.error('expected an object key');
      }
      this.expect(':');
      entries.push({ key, value: this.expression(0, false) });
      if (!this.is(',')) break;
      this.index++;
    }
    this.expect('}');
    return { type: 'object', entries };
  }
}

/** Splits a template body into text and parsed `${...}` parts. */
function templateParts(body: string, offset: number): (string | Node)[] {
  const parts: (string | Node)[] = [];
  let text = '';
  let i = 0;
  while (i < body.length) {
    if (body[i] === '$' && body[i + 1] === '{') {
      let depth = 1;
      let j = i + 2;
      while (j < body.length && depth > 0) {
        if (body[j] === '{') depth++;
        else if (body[j] === '}') depth--;
        if (depth > 0) j++;
      }
      if (depth > 0) throw new ZenSyntaxError(`unterminated '\${' in template at ${offset + i}`, offset + i);
      if (text) parts.push(text);
      text = '';
      parts.push(new Parser(body.slice(i + 2, j)).parseStandard());
      i = j + 1;
      continue;
    }
    text += body[i];
    i++;
  }
  if (text) parts.push(text);
  return parts;
}

const BOOLEAN_FUNCTIONS = new Set(['contains', 'startsWith', 'endsWith', 'matches', 'isNumeric']);
const COLLECTION_FUNCTIONS = new Set(['flatten', 'merge', 'mergeDeep', 'extract', 'split', 'keys', 'values']);

/** How a unary cell's expression meets `$` (zen parser/unary.rs UnaryNodeBehaviour). */
function unaryBehaviour(node: Node): '==' | 'in' | 'bool' {
  switch (node.type) {
    case 'pointer':
      return 'bool';
    case 'array':
    case 'slice':
    case 'interval':
      return 'in';
    case 'unary':
      return unaryBehaviour(node.operand);
    case 'conditional': {
      const a = unaryBehaviour(node.whenTrue);
      return a === unaryBehaviour(node.whenFalse) ? a : '==';
    }
    case 'binary': {
      if (['+', '-', '*', '/', '%', '^'].includes(node.operator)) {
        const a = unaryBehaviour(node.left);
        return a === unaryBehaviour(node.right) ? a : '==';
      }
      return node.operator === '??' ? '==' : 'bool';
    }
    case 'call':
      if (BOOLEAN_FUNCTIONS.has(node.name)) return 'bool';
      return COLLECTION_FUNCTIONS.has(node.name) ? 'in' : '==';
    case 'closure':
      return ['map', 'filter', 'flatMap'].includes(node.name) ? 'in' : node.name === 'count' ? '==' : 'bool';
    case 'method':
      return node.name.startsWith('is') ? 'bool' : '==';
    default:
      return '==';
  }
}

export function parseStandard(source: string): Node {
  return new Parser(source).parseStandard();
}

export function parseUnary(source: string): Node {
  return new Parser(source).parseUnary();
}
