// The syntax tree of a ZEN expression (zen core/expression/src/parser/ast.rs, trimmed to what evaluation needs).

export type Node =
  | { type: 'literal'; value: null | boolean | number | string }
  | { type: 'template'; parts: (string | Node)[] }
  | { type: 'identifier'; name: string }
  | { type: 'pointer' }
  | { type: 'root' }
  | { type: 'array'; items: Node[] }
  | { type: 'object'; entries: { key: Node; value: Node }[] }
  | { type: 'interval'; left: Node; right: Node; leftClosed: boolean; rightClosed: boolean }
  | { type: 'member'; object: Node; property: Node }
  | { type: 'slice'; object: Node; from?: Node; to?: Node }
  | { type: 'unary'; operator: 'not' | '-' | '+'; operand: Node }
  | { type: 'binary'; operator: string; left: Node; right: Node }
  | { type: 'conditional'; condition: Node; whenTrue: Node; whenFalse: Node }
  | { type: 'call'; name: string; args: Node[] }
  | { type: 'closure'; name: string; subject: Node; alias?: string; body: Node }
  | { type: 'method'; object: Node; name: string; args: Node[] }
  | { type: 'assignments'; targets: { path: string[]; value: Node }[]; result?: Node };

/** The functions whose second argument is a closure over `#` (or an `as` alias). */
export const CLOSURE_FUNCTIONS = new Set(['map', 'filter', 'some', 'all', 'none', 'one', 'count', 'flatMap']);
