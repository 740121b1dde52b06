// Checks for the two value objects shared by tables, trees and flows: `scalarCondition` (a condition cell)
// and `outputScalarValue` (a result, calc or flow expression). Shapes per spec/rule-format.md §2.4, §2.9-2.12.
import { CONDITION_TYPES, OPERATOR_NAMES, operatorSpec } from './operators.ts';
import type { OperatorSpec } from './operators.ts';
import { at, closest, describe, expectObject, isObject, listOf, quote } from './check.ts';
import type { JsonObject, Problems } from './check.ts';

const OUTPUT_VALUE_TYPES = ['common', 'function'] as const;

/** `"{name}"`: a whole-value variable reference, which may hold the set or range at solve time. */
const WHOLE_VARIABLE = /^\s*\{[^{}]+\}\s*$/;

/** Legacy date-cell encoding `{date, time?, timezone?}` (§2.11). */
function isLegacyDate(value: unknown): boolean {
  return isObject(value) && typeof value.date === 'string';
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

export function checkScalarCondition(value: unknown, path: string, out: Problems): void {
  if (!expectObject(value, path, out)) return;
  const operator = value.operator;
  // Paths are built where a problem is reported: a large table has hundreds of thousands of cells, nearly all fine.
  if (operator === undefined || operator === null) {
    out.add(at(path, 'operator'), 'is required');
    return;
  }
  if (typeof operator !== 'string') {
    out.add(at(path, 'operator'), `must be a string (got ${describe(operator)})`);
    return;
  }
  const spec = operatorSpec(operator);
  if (!spec) {
    const suggestion = closest(operator, OPERATOR_NAMES);
    out.add(at(path, 'operator'), `unknown operator ${quote(operator)}${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ''}`);
    return;
  }
  const type = value.type;
  if (type !== undefined && type !== null && !(CONDITION_TYPES as readonly unknown[]).includes(type)) {
    out.add(at(path, 'type'), `unknown condition type ${typeof type === 'string' ? quote(type) : describe(type)} (expected ${listOf(CONDITION_TYPES)})`);
    return;
  }
  if (type === 'function' && spec.value !== 'expression') {
    out.add(at(path, 'type'), `a function condition needs operator "function" (got ${quote(operator)})`);
    return;
  }
  const isDate = type === 'date';
  if (isDate && !spec.date) {
    out.add(at(path, 'operator'), `operator ${quote(operator)} cannot be used in a date condition`);
    return;
  }
  checkStringValue(value, path, out);
  checkConditionValue(spec, value, path, isDate, out);
}

function checkConditionValue(spec: OperatorSpec, cell: JsonObject, path: string, isDate: boolean, out: Problems): void {
  const value = cell.value;
  switch (spec.value) {
    case 'none':
      return;
    case 'scalar':
      if (value !== undefined && !scalarOk(value, isDate)) {
        out.add(at(path, 'value'), `must be a single value for operator ${quote(spec.name)} (got ${describe(value)})`);
      }
      return;
    case 'set':
    case 'text':
      if (value === undefined || (spec.value === 'text' && scalarOk(value, isDate)) || typeof value === 'string') return;
      if (!Array.isArray(value)) {
        out.add(at(path, 'value'), `must be an array of values for operator ${quote(spec.name)} (got ${describe(value)})`);
        return;
      }
      for (let index = 0; index < value.length; index++) {
        const member: unknown = value[index];
        if (!isScalar(member)) out.add(at(at(path, 'value'), index), `must be a single value (got ${describe(member)})`);
      }
      return;
    case 'range':
      if (typeof value === 'string' && WHOLE_VARIABLE.test(value)) return;
      if (!Array.isArray(value)) {
        out.add(at(path, 'value'), `must be a two-element array [from, to] for operator ${quote(spec.name)} (got ${describe(value)})`);
        return;
      }
      if (value.length !== 2) {
        out.add(at(path, 'value'), `must hold exactly two values [from, to] for operator ${quote(spec.name)} (got ${value.length})`);
        return;
      }
      for (let index = 0; index < 2; index++) {
        const bound: unknown = value[index];
        if (!scalarOk(bound, isDate)) out.add(at(at(path, 'value'), index), `must be a single value (got ${describe(bound)})`);
      }
      return;
    case 'expression':
      checkHasExpression(cell, path, 'a function condition', out);
      return;
  }
}

/** A single value; in a date condition also the legacy `{date, time?, timezone?}` object. */
function scalarOk(value: unknown, isDate: boolean): boolean {
  return isScalar(value) || (isDate && isLegacyDate(value));
}

export function checkOutputScalarValue(value: unknown, path: string, out: Problems): void {
  if (!expectObject(value, path, out)) return;
  const type = value.type;
  if (type !== undefined && type !== null && !(OUTPUT_VALUE_TYPES as readonly unknown[]).includes(type)) {
    out.add(at(path, 'type'), `unknown value type ${typeof type === 'string' ? quote(type) : describe(type)} (expected ${listOf(OUTPUT_VALUE_TYPES)})`);
    return;
  }
  checkStringValue(value, path, out);
  if (type === 'function') checkHasExpression(value, path, 'a function value', out);
}

function checkStringValue(cell: JsonObject, path: string, out: Problems): void {
  const stringValue = cell.stringValue;
  if (stringValue !== undefined && stringValue !== null && typeof stringValue !== 'string') {
    out.add(at(path, 'stringValue'), `must be a string or null (got ${describe(stringValue)})`);
  }
}

function checkHasExpression(cell: JsonObject, path: string, what: string, out: Problems): void {
  if (typeof cell.stringValue === 'string' || cell.value !== undefined) return;
  out.add(path, `${what} needs an expression (stringValue or value)`);
}
