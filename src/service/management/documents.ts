// What every management write does to a rule document before it is stored: fill the fields the server owns,
// validate (every problem at once, each with its path), and compile, so that an expression the compiler cannot
// read is refused at write time rather than at the first solve. Nothing invalid is ever stored.
import { RuleError, ValidationError } from '../../engine/errors.ts';
import type { Problem } from '../../engine/errors.ts';
import type { CompiledRule } from '../../engine/types.ts';
import { cellsOutsideValidValues } from '../../engine/analysis/valid-values.ts';
import { validateRuleDocument } from '../../rules/validate.ts';
import { isSolvableType } from '../../rules/rule-types.ts';
import { badRequest } from './errors.ts';

export type RuleCompiler = (document: Record<string, unknown>) => CompiledRule;

export type RuleDocument = Record<string, unknown>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every problem of a document about to be stored, and the compiled rule when there is none. */
function examine(document: RuleDocument, compile: RuleCompiler): { problems: Problem[]; compiled?: CompiledRule } {
  const problems = validateRuleDocument(document);
  // Types that are stored but never solved (integration flows) are not compiled: their descriptor says so.
  if (problems.length > 0 || !isSolvableType(document.type)) return { problems };
  try {
    // A function cell that does not compile only makes that cell invalid when solving (CompiledRule.warnings,
    // docs/decisions/tables-invalid-cells.md); writes still refuse it, so nothing invalid is stored.
    const compiled = compile(document);
    const warnings = [...(compiled.warnings ?? [])];
    return warnings.length > 0 ? { problems: warnings } : { problems: [], compiled };
  } catch (err) {
    if (err instanceof ValidationError) return { problems: err.problems };
    if (err instanceof RuleError) return { problems: [{ path: '', message: err.message }] };
    throw err;
  }
}

/** Every problem of a document about to be stored; empty when it can be stored. */
export function problemsOf(document: RuleDocument, compile: RuleCompiler): Problem[] {
  return examine(document, compile).problems;
}

/**
 * Throws ValidationError (400, every problem with its path) unless the document can be stored; otherwise answers
 * its warnings: what is stored but worth a look (cells outside their column's valid values,
 * docs/decisions/valid-values.md).
 */
export function checkDocument(document: RuleDocument, compile: RuleCompiler): Problem[] {
  const problems = problemsOf(document, compile);
  if (problems.length > 0) throw new ValidationError(problems);
  return warningsOf(document);
}

/** The warnings of a valid document: they never stop a write. */
export function warningsOf(document: RuleDocument): Problem[] {
  return cellsOutsideValidValues(document).map((cell) => ({ path: cell.path, message: cell.message }));
}

/**
 * The compiled rule of a document that passes exactly the checks a write makes (checkDocument); ValidationError
 * otherwise. A type that is stored but never solved is refused as a problem of `type`.
 */
export function compileChecked(document: RuleDocument, compile: RuleCompiler): CompiledRule {
  const { problems, compiled } = examine(document, compile);
  if (problems.length > 0) throw new ValidationError(problems);
  if (!compiled) throw new ValidationError([{ path: 'type', message: `a rule of type "${String(document.type)}" is stored but never solved` }]);
  return compiled;
}

/** The request body of a write: a JSON object, the rule. */
export function ruleBody(body: unknown): RuleDocument {
  if (!isObject(body)) throw badRequest('Request body must be a rule document (a JSON object)');
  const { _id: _storageId, ...rest } = body;
  return rest;
}

/** The fields that tie a document to its place in the store; the server decides them. */
export function withIdentity(document: RuleDocument, identity: { ruleId: string; version: number; alias: string }): RuleDocument {
  const out: RuleDocument = { ...document, ruleId: identity.ruleId, baseId: identity.ruleId, version: identity.version, ruleAlias: identity.alias };
  if (typeof document.compositionId === 'string') out.compositionId = identity.ruleId;
  return out;
}

/** The alias a document asks for, or undefined when it leaves it to the server (missing or ""). */
export function requestedAlias(document: RuleDocument): string | undefined {
  const alias = document.ruleAlias;
  return typeof alias === 'string' && alias.trim() !== '' ? alias : undefined;
}

const TAG = /^[\p{L}\p{N} ()?!_.:-]{1,100}$/u;

/**
 * Tags from a request: an array of names, of `{tagName, color}` objects (the tag API of DecisionRules), or
 * `{"tags": [...]}`. Colours are not kept: rule documents carry tag names only (rule-format §1.1).
 */
export function readTags(value: unknown, where: string): string[] {
  const list = isObject(value) && Array.isArray(value.tags) ? value.tags : value;
  if (!Array.isArray(list) || list.length === 0) {
    throw badRequest(`${where} must be a non-empty array of tag names (or of {"tagName": ...} objects)`);
  }
  const tags: string[] = [];
  list.forEach((item, index) => {
    const name = isObject(item) ? item.tagName : item;
    if (typeof name !== 'string' || !TAG.test(name.trim())) {
      throw badRequest(`${where}[${index}] must be a tag name of 1-100 letters, digits, spaces or ()?!_.:- characters`);
    }
    if (!tags.includes(name.trim())) tags.push(name.trim());
  });
  return tags;
}

/** `a,b` from a query string; empty entries dropped. */
export function splitTags(value: string | undefined, where: string): string[] {
  const tags = (value ?? '').split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (tags.length === 0) throw badRequest(`${where} must name at least one tag (?tags=a,b)`);
  return tags;
}
