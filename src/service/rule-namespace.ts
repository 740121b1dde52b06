// One namespace for the ids and aliases of a space's rules (docs/decisions/id-alias-namespace.md). Solving and
// management look a name up as an id first, then as an alias: a rule whose id is another rule's alias would take
// over that alias's solves, and an alias equal to another rule's id would never be reached. So every write that
// sets an id or an alias (create, rename, every import) refuses such a clash (409 naming both rules), generated
// aliases step around ids as around aliases, and ids are limited to a safe character set (400 naming the rule).
// Clashes stored before this check are only reported (at start), never rewritten.
import type { Problem } from '../rules/problems.ts';
import { RULE_ID_RULE_TEXT, isRuleId } from '../rules/envelope.ts';
import { ServiceError } from './errors.ts';

/** What the namespace needs of a rule version: a RuleHead, or a document about to be written. */
export interface NamedRule {
  ruleId: string;
  alias: string;
  name: string;
}

/** A text that is the id of one rule and the alias of another. */
export interface NamespaceClash {
  text: string;
  /** The rule whose id it is (it wins lookups). */
  idRule: { ruleId: string; name: string };
  /** The rule whose alias it is (unreachable by it). */
  aliasRule: { ruleId: string; name: string };
}

function described(rule: { ruleId: string; name: string }): string {
  return `${rule.ruleId} (${JSON.stringify(rule.name)})`;
}

/** Every id/alias clash among the given rule versions, one per text and pair of rules, sorted by text. */
export function namespaceClashes(rules: Iterable<NamedRule>): NamespaceClash[] {
  const byId = new Map<string, NamedRule>();
  const all = [...rules];
  for (const rule of all) if (!byId.has(rule.ruleId)) byId.set(rule.ruleId, rule);
  const clashes = new Map<string, NamespaceClash>();
  for (const rule of all) {
    const owner = rule.alias === '' || rule.alias === rule.ruleId ? undefined : byId.get(rule.alias);
    if (owner === undefined) continue;
    const key = `${rule.alias}\u0000${rule.ruleId}`;
    if (!clashes.has(key)) {
      clashes.set(key, { text: rule.alias, idRule: { ruleId: owner.ruleId, name: owner.name }, aliasRule: { ruleId: rule.ruleId, name: rule.name } });
    }
  }
  return [...clashes.values()].sort((a, b) => a.text.localeCompare(b.text) || a.aliasRule.ruleId.localeCompare(b.aliasRule.ruleId));
}

/** The warning logged at start for a clash stored before the check (the id wins; nothing is rewritten). */
export function clashWarning(space: string, clash: NamespaceClash): string {
  return `space "${space}": "${clash.text}" is the id of rule ${described(clash.idRule)} and the alias of rule ${described(clash.aliasRule)}; ` +
    `lookups by "${clash.text}" answer rule ${clash.idRule.ruleId} (an id wins over an alias); rename one of them (PUT /api/rule/{idOrAlias}/alias)`;
}

/** The 409 for a clash a write would make; `written` are the ids of the rules the write sets. */
export function clashConflict(clash: NamespaceClash, written: ReadonlySet<string>): ServiceError {
  if (written.has(clash.idRule.ruleId) && !written.has(clash.aliasRule.ruleId)) {
    return new ServiceError(
      'id-alias-clash',
      `ruleId "${clash.text}" is the alias of rule ${described(clash.aliasRule)} in this space; a rule cannot take another rule's alias as its id (it would answer that alias's solves); choose another ruleId, or leave it out to have one generated`,
    );
  }
  return new ServiceError(
    'id-alias-clash',
    `ruleAlias "${clash.text}" is the id of rule ${described(clash.idRule)} in this space, so it would never reach rule ${described(clash.aliasRule)} (an id wins over an alias); choose another ruleAlias`,
  );
}

/**
 * Refuses a write whose rules would clash: `stored` are the space's versions, `written` the versions the write
 * stores (a written version replaces the stored one with the same id and number). Clashes between rules the write
 * does not touch are older than it and left alone (reported at start).
 */
export function assertNoNewClash(stored: readonly (NamedRule & { version: number })[], written: readonly (NamedRule & { version: number })[]): void {
  const after = new Map<string, NamedRule>();
  for (const v of [...stored, ...written]) after.set(`${v.ruleId}\u0000${v.version}`, v);
  const ids = new Set(written.map((w) => w.ruleId));
  const clash = namespaceClashes(after.values()).find((c) => ids.has(c.idRule.ruleId) || ids.has(c.aliasRule.ruleId));
  if (clash) throw clashConflict(clash, ids);
}

/**
 * The names a generated alias of rule `ownId` must avoid: other rules' aliases and other rules' ids (its own id is
 * fine). For `uniqueAlias` (rules-io.ts).
 */
export function takenNames(aliases: ReadonlySet<string>, ids: ReadonlySet<string>, ownId: string): { has(alias: string): boolean } {
  return { has: (alias) => aliases.has(alias) || (alias !== ownId && ids.has(alias)) };
}

/** The problem of a rule id a client or an import chose, or undefined when it is safe. */
export function ruleIdProblem(ruleId: string, path: string, name: unknown): Problem | undefined {
  if (isRuleId(ruleId)) return undefined;
  const rule = typeof name === 'string' && name !== '' ? `rule ${JSON.stringify(name)}` : 'the rule';
  const shown = ruleId.length > 120 ? `${JSON.stringify(ruleId.slice(0, 120))}... (${ruleId.length} characters)` : JSON.stringify(ruleId);
  return { path, message: `ruleId ${shown} of ${rule} must be ${RULE_ID_RULE_TEXT}` };
}

/** 400 when a rule id chosen by the client is unsafe. */
export function assertRuleId(ruleId: string, name: unknown): void {
  const problem = ruleIdProblem(ruleId, 'ruleId', name);
  if (problem) throw new ServiceError('invalid-rule-id', problem.message, { problems: [problem] });
}
