// The expression AST shared by the text parser (parser.ts) and the stored-AST reader (stored-ast.ts).
// `pos` is a character offset into the source text (0 for nodes read from a stored AST).
import type { PathSegment } from '../path.ts';

export type BinaryOperator = '+' | '-' | '*' | '/' | '%';

/** A `{path}` reference; `segments` are parsed once here so evaluation never re-parses the path. */
export interface VarRef {
  path: string;
  segments: PathSegment[];
}

export interface LiteralNode {
  kind: 'literal';
  value: null | boolean | number | string;
  pos: number;
}

/** A quoted string in expression context: `{var}` references inside it are replaced by their text. */
export interface InterpolatedNode {
  kind: 'interpolated';
  parts: (string | VarRef)[];
  /** The text as written (between the quotes, escapes resolved), for rendering. */
  text: string;
  pos: number;
}

export interface VarNode extends VarRef {
  kind: 'var';
  pos: number;
}

export interface ArrayNode {
  kind: 'array';
  items: Node[];
  pos: number;
}

export interface ObjectMember {
  key: Node;
  value: Node;
}

export interface ObjectNode {
  kind: 'object';
  members: ObjectMember[];
  pos: number;
}

export interface UnaryNode {
  kind: 'unary';
  op: '-' | '+';
  operand: Node;
  pos: number;
}

export interface BinaryNode {
  kind: 'binary';
  op: BinaryOperator;
  left: Node;
  right: Node;
  pos: number;
}

export interface CallNode {
  kind: 'call';
  /** Upper-cased name as written (aliases are resolved by the compiler). */
  name: string;
  args: Node[];
  pos: number;
}

/** `TEXT(...)`: the raw source text of the argument, never evaluated. */
export interface TextNode {
  kind: 'text';
  raw: string;
  pos: number;
}

export type Node =
  | LiteralNode
  | InterpolatedNode
  | VarNode
  | ArrayNode
  | ObjectNode
  | UnaryNode
  | BinaryNode
  | CallNode
  | TextNode;
