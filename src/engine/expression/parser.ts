// Expression text -> AST (spec/rule-format.md §4.1–4.6). Recursive descent over the Scanner; every node keeps
// the offset it starts at so that compile errors can name a line and column.
import type { ArithmeticAssociativity } from './contract.ts';
import type { BinaryOperator, Node, ObjectMember, VarRef } from './ast.ts';
import { parsePath } from '../path.ts';
import { Scanner, isFunctionName, isVariablePath, normaliseVariablePath } from './lexer.ts';

/** Deepest nesting of brackets, calls and literals; deeper input is rejected instead of overflowing the stack. */
export const MAX_NESTING = 200;
/** Deepest AST, counting each operator of a chain (`1+1+…`) as a level: compiling and evaluating recurse on it. */
export const MAX_TREE_DEPTH = 1000;

/** Where a primary stands: decides how bare words end and whether quoted strings interpolate. */
interface Context {
  /** Inside an object literal (not within a nested call or bracket): `:` ends bare words. */
  colonEndsWords: boolean;
  /** A direct member, key or element of a JSON literal: quoted strings are not interpolated (§4.4). */
  jsonMember: boolean;
}

const PLAIN: Context = { colonEndsWords: false, jsonMember: false };
const OBJECT_MEMBER: Context = { colonEndsWords: true, jsonMember: true };
const ARRAY_ELEMENT: Context = { colonEndsWords: false, jsonMember: true };

/** Parses expression text. Throws SyntaxProblem. An empty text is the empty string literal. */
export function parseExpression(source: string, associativity: ArithmeticAssociativity = 'left'): Node {
  return new Parser(source, associativity).parseAll();
}

/** `{name}` references inside a quoted string (digits-only braces such as regex `{5}` are left alone). */
const INTERPOLATION = /\{([^{}"']*)\}/g;

export function interpolationParts(text: string): (string | VarRef)[] | undefined {
  if (!text.includes('{')) return undefined;
  const parts: (string | VarRef)[] = [];
  let last = 0;
  let found = false;
  for (const match of text.matchAll(INTERPOLATION)) {
    const inner = match[1]!;
    if (!isVariablePath(inner) || /^\s*\d+\s*$/.test(inner)) continue;
    found = true;
    if (match.index > last) parts.push(text.slice(last, match.index));
    const path = normaliseVariablePath(inner);
    parts.push({ path, segments: parsePath(path) });
    last = match.index + match[0].length;
  }
  if (!found) return undefined;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

function children(node: Node): Node[] {
  switch (node.kind) {
    case 'array':
      return node.items;
    case 'object':
      return node.members.flatMap((m) => [m.key, m.value]);
    case 'unary':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    case 'call':
      return node.args;
    default:
      return [];
  }
}

/** Depth of the AST, without recursion (the tree may be deeper than the stack allows). */
function treeDepth(root: Node): number {
  let deepest = 0;
  const stack: [Node, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_TREE_DEPTH) return deepest;
    for (const child of children(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

class Parser {
  private readonly scanner: Scanner;
  private readonly associativity: ArithmeticAssociativity;
  private depth = 0;

  constructor(source: string, associativity: ArithmeticAssociativity) {
    this.scanner = new Scanner(source);
    this.associativity = associativity;
  }

  parseAll(): Node {
    const s = this.scanner;
    s.skipWhitespace();
    if (s.atEnd) return { kind: 'literal', value: '', pos: 0 };
    const node = this.parseAdditive(PLAIN);
    s.skipWhitespace();
    if (!s.atEnd) this.unexpected();
    if (treeDepth(node) > MAX_TREE_DEPTH) {
      s.fail(`expression is too deep: more than ${MAX_TREE_DEPTH} nested operations (split long operator chains)`, 0);
    }
    return node;
  }

  private unexpected(): never {
    const s = this.scanner;
    const c = s.peek();
    if (c === ')') s.fail("unexpected ')' without a matching '('");
    if (c === '(') s.fail("unexpected '(' (only function names may be followed by '(')");
    return s.fail(`unexpected ${s.describeHere()}`);
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING) this.scanner.fail(`expression nests deeper than ${MAX_NESTING} levels`);
  }

  private leave(): void {
    this.depth--;
  }

  private parseAdditive(cx: Context): Node {
    return this.parseChain(['+', '-'], () => this.parseMultiplicative(cx));
  }

  private parseMultiplicative(cx: Context): Node {
    return this.parseChain(['*', '/', '%'], () => this.parseUnary(cx));
  }

  /** One precedence level: operands and operators collected, then grouped per the associativity option. */
  private parseChain(operators: readonly string[], operand: () => Node): Node {
    const s = this.scanner;
    const first = operand();
    const operands: Node[] = [first];
    const ops: { op: BinaryOperator; pos: number }[] = [];
    for (;;) {
      s.skipWhitespace();
      const c = s.peek();
      if (c === undefined || !operators.includes(c)) break;
      ops.push({ op: c as BinaryOperator, pos: s.pos });
      s.pos++;
      operands.push(operand());
    }
    if (ops.length === 0) return first;
    if (this.associativity === 'right') {
      let node = operands[operands.length - 1]!;
      for (let i = ops.length - 1; i >= 0; i--) {
        node = { kind: 'binary', op: ops[i]!.op, left: operands[i]!, right: node, pos: operands[i]!.pos };
      }
      return node;
    }
    let node = first;
    for (let i = 0; i < ops.length; i++) {
      node = { kind: 'binary', op: ops[i]!.op, left: node, right: operands[i + 1]!, pos: first.pos };
    }
    return node;
  }

  private parseUnary(cx: Context): Node {
    const s = this.scanner;
    s.skipWhitespace();
    const c = s.peek();
    if (c === '-' || c === '+') {
      const pos = s.pos;
      s.pos++;
      this.enter();
      const operand = this.parseUnary(cx);
      this.leave();
      return { kind: 'unary', op: c, operand, pos };
    }
    return this.parsePrimary(cx);
  }

  private parsePrimary(cx: Context): Node {
    const s = this.scanner;
    s.skipWhitespace();
    const pos = s.pos;
    const c = s.peek();
    if (c === undefined) return s.fail('expected a value but found end of expression');
    if (c === '(') {
      s.pos++;
      this.enter();
      const inner = this.parseAdditive(PLAIN);
      this.leave();
      s.skipWhitespace();
      if (s.peek() !== ')') {
        if (s.atEnd) s.fail("missing ')' for the '(' here", pos);
        this.unexpected();
      }
      s.pos++;
      return inner;
    }
    if (c === '"' || c === "'") return this.parseString(cx);
    if (c === '{') return this.textAfterReference(this.parseBrace(), cx);
    if (c === '[') return this.parseArray();
    if (c === ')' || c === ',' || c === '*' || c === '/' || c === '%' || c === '}' || c === ']') this.unexpected();
    if (c === ':' && cx.colonEndsWords) this.unexpected();
    if ((c >= '0' && c <= '9') || c === '.') {
      const n = s.readNumber(cx.colonEndsWords);
      if (n !== undefined) return { kind: 'literal', value: n, pos };
    }
    const word = s.readWord(cx.colonEndsWords);
    if (word === '') this.unexpected();
    if (isFunctionName(word) && s.peekSignificant() === '(') return this.parseCall(word, pos);
    if (word === 'true') return { kind: 'literal', value: true, pos };
    if (word === 'false') return { kind: 'literal', value: false, pos };
    if (word === 'null') return { kind: 'literal', value: null, pos };
    return { kind: 'literal', value: word, pos };
  }

  /**
   * A reference followed by a bare word is text with the reference interpolated, as a bare word holding `{x}`
   * is in DecisionRules: `DATE({input}Z)` reads `"{input}Z"`, `{n} px` is `"{n} px"` (the space kept).
   * Further references and words may follow: `{a}x{b}y`.
   */
  private textAfterReference(node: Node, cx: Context): Node {
    if (node.kind !== 'var' || !this.wordFollows(cx)) return node;
    const s = this.scanner;
    const parts: (string | VarRef)[] = [{ path: node.path, segments: node.segments }];
    let text = `{${node.path}}`;
    let gap = s.pos;
    for (;;) {
      if (this.wordFollows(cx)) {
        s.skipWhitespace();
        const word = s.source.slice(gap, s.pos) + s.readWord(cx.colonEndsWords);
        parts.push(word);
        text += word;
      } else if (s.peek() === '{') {
        const close = s.findClosing('{', '}', s.pos);
        const inner = close < 0 ? '' : s.source.slice(s.pos + 1, close);
        if (!isVariablePath(inner)) break;
        const path = normaliseVariablePath(inner);
        parts.push({ path, segments: parsePath(path) });
        text += `{${path}}`;
        s.pos = close + 1;
      } else break;
      gap = s.pos;
    }
    return { kind: 'interpolated', parts, text, pos: node.pos };
  }

  /** True when the next significant character starts a bare word (not an operator, delimiter or quote). */
  private wordFollows(cx: Context): boolean {
    const c = this.scanner.peekSignificant();
    if (c === undefined || c === '"' || c === "'" || (cx.colonEndsWords && c === ':')) return false;
    return !'*/+-(),%{}[]'.includes(c);
  }

  private parseString(cx: Context): Node {
    const s = this.scanner;
    const pos = s.pos;
    const text = s.readQuoted();
    if (cx.jsonMember) return { kind: 'literal', value: text, pos };
    const parts = interpolationParts(text);
    if (!parts) return { kind: 'literal', value: text, pos };
    return { kind: 'interpolated', parts, text, pos };
  }

  private parseCall(word: string, pos: number): Node {
    const s = this.scanner;
    const name = word.toUpperCase();
    s.skipWhitespace();
    const open = s.pos;
    s.pos++; // the '('
    if (name === 'TEXT') return this.parseText(open, pos);
    this.enter();
    const args: Node[] = [];
    s.skipWhitespace();
    if (s.peek() === ')') {
      s.pos++;
    } else {
      for (;;) {
        args.push(this.parseAdditive(PLAIN));
        s.skipWhitespace();
        const c = s.peek();
        if (c === ',') {
          s.pos++;
          continue;
        }
        if (c === ')') {
          s.pos++;
          break;
        }
        if (c === undefined) s.fail(`missing ')' to close ${name}(`, open);
        s.fail(`expected ',' or ')' in the arguments of ${name} but found ${s.describeHere()}`);
      }
    }
    this.leave();
    return { kind: 'call', name, args, pos };
  }

  /** TEXT(raw): the argument's source text, one pair of outer quotes removed (§4.6). */
  private parseText(open: number, pos: number): Node {
    const s = this.scanner;
    let close = s.findClosing('(', ')', open);
    if (close < 0) close = s.findClosingIgnoringQuotes('(', ')', open);
    if (close < 0) s.fail("missing ')' to close TEXT(", open);
    let raw = s.source.slice(open + 1, close).trim();
    if (raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw[raw.length - 1] === raw[0]) raw = raw.slice(1, -1);
    s.pos = close + 1;
    return { kind: 'text', raw, pos };
  }

  /** `{` starts a variable when its content is a path, otherwise an object literal (§4.3). */
  private parseBrace(): Node {
    const s = this.scanner;
    const open = s.pos;
    const close = s.findClosing('{', '}', open);
    if (close < 0) s.fail("missing '}' for the '{' here", open);
    const inner = s.source.slice(open + 1, close);
    if (isVariablePath(inner)) {
      s.pos = close + 1;
      const path = normaliseVariablePath(inner);
      return { kind: 'var', path, segments: parsePath(path), pos: open };
    }
    s.pos++;
    this.enter();
    const members: ObjectMember[] = [];
    s.skipWhitespace();
    if (s.peek() === '}') {
      s.pos++;
    } else {
      for (;;) {
        s.skipWhitespace();
        const key = this.parseAdditive(OBJECT_MEMBER);
        s.skipWhitespace();
        if (s.peek() !== ':') {
          if (s.atEnd) s.fail("missing '}' for the '{' here", open);
          s.fail(`expected ':' after an object key but found ${s.describeHere()}`);
        }
        s.pos++;
        const value = this.parseAdditive(OBJECT_MEMBER);
        members.push({ key, value });
        s.skipWhitespace();
        const c = s.peek();
        if (c === ',') {
          s.pos++;
          continue;
        }
        if (c === '}') {
          s.pos++;
          break;
        }
        if (c === undefined) s.fail("missing '}' for the '{' here", open);
        s.fail(`expected ',' or '}' in an object but found ${s.describeHere()}`);
      }
    }
    this.leave();
    return { kind: 'object', members, pos: open };
  }

  private parseArray(): Node {
    const s = this.scanner;
    const open = s.pos;
    s.pos++;
    this.enter();
    const items: Node[] = [];
    s.skipWhitespace();
    if (s.peek() === ']') {
      s.pos++;
    } else {
      for (;;) {
        items.push(this.parseAdditive(ARRAY_ELEMENT));
        s.skipWhitespace();
        const c = s.peek();
        if (c === ',') {
          s.pos++;
          continue;
        }
        if (c === ']') {
          s.pos++;
          break;
        }
        if (c === undefined) s.fail("missing ']' for the '[' here", open);
        s.fail(`expected ',' or ']' in an array but found ${s.describeHere()}`);
      }
    }
    this.leave();
    return { kind: 'array', items, pos: open };
  }
}
