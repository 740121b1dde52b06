// Cell values in the two forms the designer needs: an edit form for the cell editors (operator + values, or
// kind + text) and one line of text for the grid, the clipboard and TSV paste. The text form is chosen so a
// block copied to a spreadsheet reads naturally and comes back unchanged:
//   condition  ""            anything            result  text            simple value ("common")
//              basic         = basic                     fx SUM(1,{a})   function
//              > 5           > 5                         {"a":1}         simple value holding JSON (cast on solve)
//              IN a|b|c      IN [a, b, c]
//              BTW [0, 15]   between 0 and 15
//              NULL  ELSE    no value
//              fx LT({a},3)  function condition
//              DATE >= 2024-05-15 +00:00   date condition
import { normaliseOperator } from '../../../../src/rules/operators.ts';
import { expressionText } from '../../../../src/engine/expression/stored-text.ts';
import type { ColumnKind } from './table.ts';
import { operatorBySpelling, operatorEntry } from './operators.ts';
import type { ValueEditorKind } from './operators.ts';

export { expressionText };

export type ConditionType = 'general' | 'date' | 'function';

export interface ConditionEdit {
  /** The canonical stored operator (an unknown stored string is kept as it was). */
  operator: string;
  type: ConditionType;
  /** One value (single), two (pair: from, to), or the list members; empty for none. */
  values: string[];
  /** The expression of a function condition. */
  expression: string;
}

export type ResultKind = 'simple' | 'function' | 'json';

export interface ResultEdit {
  kind: ResultKind;
  text: string;
}

const WHOLE_VARIABLE = /^\s*\{[^{}]+\}\s*$/;

function isAst(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'functionName');
}

/** A scalar cell value as text; the legacy date object `{date,time,timezone}` becomes `date time timezone`. */
function scalarText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && !Array.isArray(value) && typeof (value as { date?: unknown }).date === 'string') {
    const d = value as { date: string; time?: unknown; timezone?: unknown };
    return [d.date, d.time, d.timezone].filter((p) => typeof p === 'string' && p !== '').join(' ');
  }
  return JSON.stringify(value);
}

/** Splits typed list text on `|`, else `,`, else `;` (the separators DecisionRules' editor accepts, §2.9). */
export function splitList(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (WHOLE_VARIABLE.test(trimmed)) return [trimmed];
  const separator = trimmed.includes('|') ? '|' : trimmed.includes(',') ? ',' : trimmed.includes(';') ? ';' : undefined;
  if (separator === undefined) return [trimmed];
  return trimmed.split(separator).map((m) => m.trim());
}

/** `[lo, hi]`, `lo, hi`, `(lo; hi)` -> [lo, hi]: the first top-level `,` or `;` separates the bounds. */
export function splitPair(text: string): [string, string] {
  let t = text.trim();
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('(') && t.endsWith(')'))) t = t.slice(1, -1);
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === ',' || c === ';')) return [t.slice(0, i).trim(), t.slice(i + 1).trim()];
  }
  return [t.trim(), ''];
}

export function editorKind(operator: string): ValueEditorKind {
  return operatorEntry(operator)?.editor ?? 'single';
}

// ---- conditions ------------------------------------------------------------------------------------------

export function readCondition(stored: any): ConditionEdit {
  const raw = stored?.operator;
  const operator = normaliseOperator(raw) ?? (typeof raw === 'string' ? raw : 'anything');
  const isFunction = operator === 'function' || stored?.type === 'function';
  const type: ConditionType = isFunction ? 'function' : stored?.type === 'date' ? 'date' : 'general';
  if (isFunction) return { operator: 'function', type, values: [], expression: expressionText(stored) };
  const value = stored?.value;
  let values: string[];
  switch (editorKind(operator)) {
    case 'none':
      values = [];
      break;
    case 'list':
      values = Array.isArray(value) ? value.map(scalarText) : splitList(scalarText(value));
      break;
    case 'pair':
      values = Array.isArray(value) ? [scalarText(value[0]), scalarText(value[1])] : [scalarText(value), ''];
      break;
    default:
      values = [Array.isArray(value) ? value.map(scalarText).join('|') : scalarText(value)];
  }
  return { operator, type, values, expression: '' };
}

export function writeCondition(edit: ConditionEdit): any {
  if (edit.operator === 'function' || edit.type === 'function') {
    return { operator: 'function', type: 'function', value: edit.expression, stringValue: edit.expression };
  }
  const type = edit.type === 'date' ? 'date' : 'general';
  switch (editorKind(edit.operator)) {
    case 'none':
      return { operator: edit.operator, value: '', type };
    case 'list':
      return { operator: edit.operator, value: edit.values.map((v) => v.trim()).filter((v) => v !== ''), type };
    case 'pair':
      return { operator: edit.operator, value: [edit.values[0] ?? '', edit.values[1] ?? ''], type };
    default:
      return { operator: edit.operator, value: edit.values[0] ?? '', type };
  }
}

/** The edit with another operator, carrying the values over where they fit (one value <-> first bound <-> first member). */
export function withOperator(edit: ConditionEdit, operator: string): ConditionEdit {
  if (operator === 'function') {
    const carried = edit.type === 'function' ? edit.expression : '';
    return { operator, type: 'function', values: [], expression: carried };
  }
  const type: ConditionType = edit.type === 'function' ? 'general' : edit.type;
  const first = edit.values[0] ?? '';
  let values: string[];
  switch (editorKind(operator)) {
    case 'none':
      values = [];
      break;
    case 'list':
      values = editorKind(edit.operator) === 'list' ? edit.values : first === '' ? [] : [first];
      break;
    case 'pair':
      values = editorKind(edit.operator) === 'pair' ? edit.values : [first, ''];
      break;
    default:
      values = [first];
  }
  return { operator, type, values, expression: '' };
}

function labelOf(operator: string): string {
  return operatorEntry(operator)?.label ?? operator;
}

export function conditionText(stored: any): string {
  const edit = readCondition(stored);
  if (edit.type === 'function') return `fx ${edit.expression}`;
  const prefix = edit.type === 'date' ? 'DATE ' : '';
  const label = labelOf(edit.operator);
  switch (editorKind(edit.operator)) {
    case 'none':
      return edit.operator === 'anything' ? (prefix ? 'DATE ANY' : '') : prefix + label;
    case 'list':
      return `${prefix}${label} ${edit.values.join('|')}`.trimEnd();
    case 'pair':
      return `${prefix}${label} [${edit.values[0] ?? ''}, ${edit.values[1] ?? ''}]`;
    default: {
      const value = edit.values[0] ?? '';
      if (edit.operator === '=') {
        // a bare value means "="; write the operator only when the bare text would read differently
        if (value === '') return `${prefix}=`.trimEnd();
        const back = parseConditionText(prefix + value);
        if (back.operator === '=' && back.values[0] === value) return prefix + value;
      }
      return `${prefix}${label} ${value}`;
    }
  }
}

const SYMBOL_OPERATOR = /^(<=|>=|<>|!=|==|=|<|>)/;

/** Reads the one-line text form back (typed into a cell or pasted from a spreadsheet). */
export function parseConditionText(text: string): ConditionEdit {
  let rest = text.trim();
  if (rest === '') return { operator: 'anything', type: 'general', values: [], expression: '' };
  const fx = /^(fx|FX|ƒ)(\s+|$)/.exec(rest);
  if (fx) return { operator: 'function', type: 'function', values: [], expression: rest.slice(fx[0].length) };
  let type: ConditionType = 'general';
  const date = /^DATE(\s+|$)/.exec(rest);
  if (date) {
    type = 'date';
    rest = rest.slice(date[0].length);
  }
  let operator: string | undefined;
  const symbol = SYMBOL_OPERATOR.exec(rest);
  if (symbol) {
    operator = normaliseOperator(symbol[1]);
    rest = rest.slice(symbol[0].length).trim();
  } else {
    const words = [...rest.matchAll(/\S+/g)].slice(0, 3);
    for (let n = words.length; n >= 1 && operator === undefined; n--) {
      const spelled = operatorBySpelling(words.slice(0, n).map((m) => m[0]).join(' '));
      if (spelled !== undefined && spelled !== 'function') {
        operator = spelled;
        const last = words[n - 1]!;
        rest = rest.slice(last.index + last[0].length);
      }
    }
  }
  if (operator === undefined) operator = '=';
  if (type === 'date' && operatorEntry(operator)?.date === false) type = 'general';
  switch (editorKind(operator)) {
    case 'none':
      return { operator, type, values: [], expression: '' };
    case 'list':
      return { operator, type, values: splitList(rest), expression: '' };
    case 'pair':
      return { operator, type, values: splitPair(rest), expression: '' };
    default:
      return { operator, type, values: [rest.trim()], expression: '' };
  }
}

// ---- results and calculations ----------------------------------------------------------------------------

function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

export function readResult(stored: any, kind: ColumnKind): ResultEdit {
  const isFunction = kind === 'calc' || stored?.type === 'function' || (stored?.type === undefined && isAst(stored?.value));
  if (isFunction) return { kind: 'function', text: expressionText(stored) };
  const value = stored?.value;
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
  return { kind: looksLikeJson(text) ? 'json' : 'simple', text };
}

export function writeResult(edit: ResultEdit, kind: ColumnKind): any {
  if (kind === 'calc' || edit.kind === 'function') return { type: 'function', value: edit.text, stringValue: edit.text };
  return { type: 'common', value: edit.text };
}

export function resultText(stored: any, kind: ColumnKind): string {
  const edit = readResult(stored, kind);
  return edit.kind === 'function' && kind !== 'calc' ? `fx ${edit.text}` : edit.text;
}

export function parseResultText(text: string, kind: ColumnKind): ResultEdit {
  const fx = /^(fx|FX|ƒ)(\s+|$)/.exec(text);
  if (kind === 'calc') return { kind: 'function', text: fx ? text.slice(fx[0].length) : text };
  if (fx) return { kind: 'function', text: text.slice(fx[0].length) };
  return { kind: looksLikeJson(text) ? 'json' : 'simple', text };
}

// ---- any cell --------------------------------------------------------------------------------------------

/** The one-line text of a cell value of a column of `kind`. */
export function cellText(stored: any, kind: ColumnKind): string {
  return kind === 'input' ? conditionText(stored) : resultText(stored, kind);
}

/** The cell value object for text typed or pasted into a column of `kind`. */
export function cellFromText(text: string, kind: ColumnKind): any {
  return kind === 'input' ? writeCondition(parseConditionText(text)) : writeResult(parseResultText(text, kind), kind);
}

// ---- date values -----------------------------------------------------------------------------------------

const DATE_TEXT = /^(\d{4}-\d{2}-\d{2})?(?:[ T]?(\d{2}:\d{2}(?::\d{2})?))?\s*(Z|[+-]\d{2}:?\d{2})?$/;

export interface DateParts {
  date: string;
  time: string;
  zone: string;
}

/** `2024-05-15 01:25 +00:00` (or any of its partial forms, §2.11) split for the date pickers; undefined for other text such as `{variable}`. */
export function dateParts(text: string): DateParts | undefined {
  const m = DATE_TEXT.exec(text.trim());
  if (!m) return undefined;
  return { date: m[1] ?? '', time: m[2] ?? '', zone: m[3] ?? '' };
}

/** The stored date text: `date time zone`, missing parts left out. */
export function joinDate(parts: DateParts): string {
  return [parts.date, parts.time, parts.zone].filter((p) => p !== '').join(' ');
}
