// Finding the rule a management request names: by id (which wins) or alias, then one version or the latest.
// Unlike solving, every status counts: a management key sees pending versions too.
import { MAX_VERSION, VERSION_RANGE, versionFromText } from '../../rules/bounds.ts';
import type { ManagementTransaction, RuleHead, StoredRule } from '../../store/ports.ts';
import { badRequest, conflict, notFound } from './errors.ts';

export interface RuleVersions {
  ruleId: string;
  alias: string;
  /** Ascending by version; never empty. */
  versions: RuleHead[];
}

export function groupByRule(heads: readonly RuleHead[]): Map<string, RuleHead[]> {
  const byId = new Map<string, RuleHead[]>();
  for (const head of heads) {
    let versions = byId.get(head.ruleId);
    if (!versions) byId.set(head.ruleId, (versions = []));
    versions.push(head);
  }
  for (const versions of byId.values()) versions.sort((a, b) => a.version - b.version);
  return byId;
}

function toRule(ruleId: string, versions: RuleHead[]): RuleVersions {
  return { ruleId, alias: versions[versions.length - 1]!.alias, versions };
}

/** The rule whose id, else whose alias, is `idOrAlias`. An alias shared by several rules is refused by name. */
export function findRule(heads: readonly RuleHead[], idOrAlias: string): RuleVersions {
  const byId = groupByRule(heads);
  const direct = byId.get(idOrAlias);
  if (direct) return toRule(idOrAlias, direct);
  const ids = [...byId.entries()].filter(([, versions]) => versions.some((v) => v.alias === idOrAlias));
  if (ids.length === 0) throw notFound(`Rule "${idOrAlias}" not found`);
  if (ids.length > 1) {
    throw badRequest(`Rule alias "${idOrAlias}" is ambiguous: ${ids.length} rules in this space use it (${ids.map(([id]) => id).join(', ')}); use the rule id instead`);
  }
  return toRule(ids[0]![0], ids[0]![1]);
}

/** The version asked for, or the highest version (any status) when none is given. */
export function findVersion(rule: RuleVersions, version: number | undefined): RuleHead {
  if (version === undefined) return rule.versions[rule.versions.length - 1]!;
  const head = rule.versions.find((v) => v.version === version);
  if (!head) throw notFound(`Rule "${rule.ruleId}" has no version ${version}`);
  return head;
}

/** A version path parameter: digits, or `latest` (as the SDKs send) for the highest version. */
export function parseVersion(text: string | undefined): number | undefined {
  if (text === undefined || text === '' || text === 'latest') return undefined;
  const version = versionFromText(text);
  if (version === undefined) throw badRequest(`Version "${text}" must be ${VERSION_RANGE} or "latest"`);
  return version;
}

/** The number after `highest`; refused (409) when the rule has used the last version number there is. */
export function nextVersion(ruleId: string, highest: number): number {
  if (highest >= MAX_VERSION) {
    throw conflict(`Rule "${ruleId}" has used version ${highest}, the highest version number there is (${MAX_VERSION}); create a new rule instead`);
  }
  return highest + 1;
}

export function describeVersion(head: RuleHead): string {
  return `rule "${head.alias || head.ruleId}" version ${head.version}`;
}

/** Locked versions refuse every change but unlocking (rule-format §1.1 `locked`). */
export function assertUnlocked(heads: readonly RuleHead[]): void {
  const locked = heads.filter((h) => h.locked);
  if (locked.length === 0) return;
  const which = locked.map((h) => h.version).join(', ');
  const first = locked[0]!;
  throw conflict(
    `Rule "${first.alias || first.ruleId}" version${locked.length > 1 ? 's' : ''} ${which} ${locked.length > 1 ? 'are' : 'is'} locked; unlock with PATCH /api/rule/lock/${first.ruleId}/{version} and {"locked": false} first`,
  );
}

/** The stored version a head names, with its document. */
export async function documentOf(tx: ManagementTransaction, head: RuleHead): Promise<StoredRule> {
  const stored = (await tx.versions(head.ruleId)).find((v) => v.version === head.version);
  if (!stored) throw notFound(`Rule "${head.ruleId}" has no version ${head.version}`);
  return stored;
}
