// AST -> expression text: the `source` of expressions read from a stored AST, and debug output. Binary
// operations are fully bracketed so the text means the same under either associativity option.
import type { Node } from './ast.ts';

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function printExpression(node: Node): string {
  switch (node.kind) {
    case 'literal':
      return typeof node.value === 'string' ? quote(node.value) : String(node.value);
    case 'interpolated':
      return quote(node.text);
    case 'var':
      return `{${node.path}}`;
    case 'array':
      return `[${node.items.map(printExpression).join(',')}]`;
    case 'object':
      return `{${node.members.map((m) => `${printExpression(m.key)}:${printExpression(m.value)}`).join(',')}}`;
    case 'unary':
      return `${node.op}${printOperand(node.operand)}`;
    case 'binary':
      return `${printOperand(node.left)}${node.op}${printOperand(node.right)}`;
    case 'call':
      return `${node.name}(${node.args.map(printExpression).join(',')})`;
    case 'text':
      return `TEXT(${node.raw})`;
  }
}

function printOperand(node: Node): string {
  const text = printExpression(node);
  return node.kind === 'binary' || node.kind === 'unary' ? `(${text})` : text;
}
