// The text of a stored expression (a function cell, a flow expression): `stringValue`, else the stored AST
// printed, else the literal. The Studio's editors show it; the XLSX export writes it into function cells.
import { printExpression } from './print.ts';
import { readStoredValue } from './stored-ast.ts';

function isAst(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'functionName');
}

export function expressionText(stored: { stringValue?: unknown; value?: unknown } | undefined): string {
  if (typeof stored?.stringValue === 'string') return stored.stringValue;
  const value = stored?.value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (isAst(value)) {
    try {
      return printExpression(readStoredValue(value, 'value', []));
    } catch {
      return JSON.stringify(value);
    }
  }
  return JSON.stringify(value);
}
