// The syntax tree of a FEEL expression or unary-tests text. Every node keeps its start offset for messages.

export type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type FeelNode =
  | { t: 'number'; at: number; text: string }
  | { t: 'string'; at: number; value: string }
  | { t: 'boolean'; at: number; value: boolean }
  | { t: 'null'; at: number }
  | { t: 'temporal'; at: number; text: string }
  | { t: 'name'; at: number; name: string }
  | { t: 'arith'; at: number; op: '+' | '-' | '*' | '/' | '**'; left: FeelNode; right: FeelNode }
  | { t: 'negate'; at: number; operand: FeelNode }
  | { t: 'compare'; at: number; op: Comparator; left: FeelNode; right: FeelNode }
  | { t: 'and' | 'or'; at: number; left: FeelNode; right: FeelNode }
  | { t: 'between'; at: number; value: FeelNode; low: FeelNode; high: FeelNode }
  | { t: 'in'; at: number; value: FeelNode; tests: FeelNode[] }
  | { t: 'instanceOf'; at: number; value: FeelNode; type: string }
  | { t: 'if'; at: number; condition: FeelNode; then: FeelNode; else: FeelNode }
  | { t: 'for'; at: number; iterators: Iterator[]; body: FeelNode }
  | { t: 'some' | 'every'; at: number; iterators: Iterator[]; condition: FeelNode }
  | { t: 'filter'; at: number; list: FeelNode; condition: FeelNode }
  | { t: 'path'; at: number; value: FeelNode; name: string }
  | { t: 'call'; at: number; fn: FeelNode; args: FeelNode[]; named: [string, FeelNode][] | null }
  | { t: 'list'; at: number; items: FeelNode[] }
  | { t: 'context'; at: number; entries: [string, FeelNode][] }
  | { t: 'function'; at: number; params: string[]; types: (string | null)[]; body: FeelNode; external: boolean }
  | { t: 'range'; at: number; startIncluded: boolean; start: FeelNode | null; end: FeelNode | null; endIncluded: boolean }
  /** A simple unary test `< 10` (also inside `in (...)` lists): compares the tested value with `value`. */
  | { t: 'unaryCompare'; at: number; op: Comparator; value: FeelNode }
  /** `-`: any value passes. */
  | { t: 'anyValue'; at: number }
  | { t: 'not'; at: number; tests: FeelNode[] };

export interface Iterator {
  name: string;
  domain: FeelNode;
  /** `for i in 1..3`: the domain is the range from `domain` to `to`. */
  to: FeelNode | null;
}

/** A FEEL text that does not parse: the message names what was expected and the offset where. */
export class FeelSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'FeelSyntaxError';
    this.offset = offset;
  }
}
