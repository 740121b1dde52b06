// The fields every rule document shares (spec/rule-format.md §1.1, §1.4, §1.5), checked from one table.
// Unknown fields are ignored (tolerant reader, §1.6); `null` counts as absent for optional fields.
import { RULE_TYPES } from './rule-types.ts';
import {
  FirstSeen,
  arrayOf,
  at,
  boolean,
  checkFields,
  describe,
  expectArray,
  expectObject,
  isObject,
  listOf,
  oneOf,
  quote,
  text,
} from './check.ts';
import type { Check, FieldRule, JsonObject, Problems } from './check.ts';
import { AUDIT_TTL_RANGE, VERSION_RANGE, isAuditTtlDays, isVersion } from './bounds.ts';

export const RULE_STATUSES = ['published', 'pending'] as const;

export const MAX_NAME_LENGTH = 100;
export const MAX_ALIAS_LENGTH = 100;
const ALIAS_PATTERN = /^[A-Za-z0-9-]+$/;
/** The rule for a rule alias, as messages state it. */
export const ALIAS_RULE_TEXT = `1-${MAX_ALIAS_LENGTH} letters, digits and "-"`;

/** Whether `value` can be a rule alias (what validation of `ruleAlias` accepts). */
export function isRuleAlias(value: string): boolean {
  return value.length >= 1 && value.length <= MAX_ALIAS_LENGTH && ALIAS_PATTERN.test(value);
}
export const MAX_RULE_ID_LENGTH = 100;
/** Safe in a URL path segment, a Kafka header and a file name; starts with a letter or digit (no "." or ".."). */
const RULE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** The rule for a rule id chosen by a client or an import, as messages state it. */
export const RULE_ID_RULE_TEXT = `1-${MAX_RULE_ID_LENGTH} letters, digits, "-", "_" and ".", starting with a letter or digit`;

/** Whether `value` can be the id of a new rule (docs/decisions/id-alias-namespace.md). */
export function isRuleId(value: string): boolean {
  return value.length >= 1 && value.length <= MAX_RULE_ID_LENGTH && RULE_ID_PATTERN.test(value);
}

/** Longest slug taken from a name, leaving room for a clash suffix within the alias length limit. */
const MAX_SLUG_LENGTH = 80;

/**
 * The alias a name suggests: lowercase letters, digits and hyphens (`Discount tier` -> `discount-tier`), "rule"
 * when the name has none of them. The server generates aliases from it (src/service/rules-io.ts uniqueAlias) and
 * the Studio prefills its Alias field with it; docs/decisions/aliases-chosen-by-users.md.
 */
export function aliasSlug(name: unknown): string {
  const slug = typeof name === 'string'
    ? name.normalize('NFKD').replace(/[^\w\s-]/g, '').toLowerCase().replace(/[\s_]+/g, '-').replace(/-+/g, '-').slice(0, MAX_SLUG_LENGTH).replace(/^-|-$/g, '')
    : '';
  return slug === '' ? 'rule' : slug;
}

/** Deeper models are certainly not hand-written; the bound keeps validation from exhausting the stack. */
const MAX_MODEL_DEPTH = 64;

/** An input/output model: a tree of objects whose leaves are empty objects (§1.3). */
const model: Check = (value, path, out) => checkModel(value, path, out, 0);

function checkModel(value: unknown, path: string, out: Problems, depth: number): void {
  if (!isObject(value)) {
    out.add(path, `must be an object (a model's leaves are empty objects; got ${describe(value)})`);
    return;
  }
  if (depth >= MAX_MODEL_DEPTH) {
    out.add(path, `is nested deeper than ${MAX_MODEL_DEPTH} levels`);
    return;
  }
  for (const [key, child] of Object.entries(value)) checkModel(child, at(path, key), out, depth + 1);
}

const versionNumber: Check = (value, path, out) => {
  if (!isVersion(value)) out.add(path, `must be ${VERSION_RANGE} (got ${typeof value === 'number' ? value : describe(value)})`);
};

const auditLog: Check = (value, path, out) => {
  if (!expectObject(value, path, out)) return;
  checkFields(value, path, AUDIT_LOG_FIELDS, out);
};

const AUDIT_LOG_FIELDS: readonly FieldRule[] = [
  { key: 'active', check: boolean },
  {
    key: 'ttl',
    check: (value, path, out) => {
      if (!isAuditTtlDays(value)) out.add(path, `must be ${AUDIT_TTL_RANGE} (got ${typeof value === 'number' ? value : describe(value)})`);
    },
  },
  {
    key: 'debug',
    // Current form `{active}`; the 2022 form is a bare boolean.
    check: (value, path, out) => {
      if (typeof value === 'boolean') return;
      if (expectObject(value, path, out)) checkFields(value, path, [{ key: 'active', check: boolean }], out);
    },
  },
];

const userVariables: Check = (value, path, out) => {
  if (!expectArray(value, path, out)) return;
  const names = new FirstSeen();
  value.forEach((entry, index) => {
    const entryPath = at(path, index);
    if (!expectObject(entry, entryPath, out)) return;
    // Entries without a name (the trailing `{}` of most exports) are ignored.
    if (entry.name === undefined || entry.name === null || entry.name === '') return;
    const namePath = at(entryPath, 'name');
    if (typeof entry.name !== 'string') {
      out.add(namePath, `must be a string (got ${describe(entry.name)})`);
      return;
    }
    const earlier = names.check(entry.name, namePath);
    if (earlier) out.add(namePath, `duplicate rule variable ${quote(entry.name)} (first defined at ${earlier})`);
  });
};

const ENVELOPE_FIELDS: readonly FieldRule[] = [
  { key: 'type', required: true, hint: `(one of ${listOf(RULE_TYPES)})`, check: oneOf(RULE_TYPES, 'rule type') },
  { key: 'name', required: true, check: text({ max: MAX_NAME_LENGTH, nonEmpty: true }) },
  { key: 'status', required: true, hint: '(published or pending)', check: oneOf(RULE_STATUSES, 'status') },
  { key: 'inputSchema', required: true, hint: '(the input model, e.g. {"age":{}})', check: model },
  { key: 'outputSchema', required: true, hint: '(the output model, e.g. {"result":{}})', check: model },
  {
    key: 'ruleAlias',
    check: text({ max: MAX_ALIAS_LENGTH, pattern: ALIAS_PATTERN, patternText: 'may contain only letters, digits and "-"' }),
  },
  { key: 'ruleId', check: text({ nonEmpty: true }) },
  { key: 'baseId', check: text({ nonEmpty: true }) },
  { key: 'compositionId', check: text({ nonEmpty: true }) },
  { key: 'version', check: versionNumber },
  { key: 'description', check: text() },
  { key: 'tags', check: arrayOf(text()) },
  { key: 'locked', check: boolean },
  { key: 'auditLog', check: auditLog },
  { key: 'userVariables', check: userVariables },
];

export function checkEnvelope(doc: JsonObject, out: Problems): void {
  checkFields(doc, '', ENVELOPE_FIELDS, out);
}
