// The space setting liveEdits (docs/decisions/live-edits.md): replacing a published version's content changes the
// answers of POST /rule/solve at once. A space may forbid it; then content changes go through a new version, which
// starts pending and is published when it is ready. Status changes, lock and delete stay allowed.
import type { LiveEdits, RuleHead } from '../../store/ports.ts';
import { ServiceError } from '../errors.ts';

/** Throws live-edits-forbidden (409) when the version is published and the space forbids editing it in place. */
export function assertEditableInPlace(head: RuleHead, liveEdits: LiveEdits): void {
  if (head.status !== 'published' || liveEdits !== 'forbidden') return;
  throw new ServiceError(
    'live-edits-forbidden',
    `Rule "${head.alias || head.ruleId}" version ${head.version} is published and the space setting liveEdits is "forbidden": its content cannot be replaced in place. ` +
      `Save the content as a new version (POST /api/rule/${head.ruleId}/new-version; it starts pending), then publish that version`,
  );
}
