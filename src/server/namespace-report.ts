// At start, one warning per id/alias clash stored before writes refused them (docs/decisions/id-alias-namespace.md):
// such a clash is reported, never rewritten, since renaming a rule's alias or id would break its callers.
import type { Services } from '../service/index.ts';
import { clashWarning } from '../service/rule-namespace.ts';

interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/** Logs every clash of every space; returns how many were found. */
export async function reportNamespaceClashes(services: Services, logger: WarnLogger): Promise<number> {
  let found = 0;
  for (const { name: space } of await services.spaces.list()) {
    for (const clash of await services.management.rules.namespaceClashes(space)) {
      found++;
      logger.warn({ space, text: clash.text, idRule: clash.idRule.ruleId, aliasRule: clash.aliasRule.ruleId }, clashWarning(space, clash));
    }
  }
  return found;
}
