// Who may leave a version published. A route names the permission its action needs, but some bodies widen the
// action: a create, a save or an import whose document says "published" publishes as surely as the status route.
// Those writes check the writer's role here (WriteOptions.role; absent for the command line on the server).
import { ServiceError } from '../errors.ts';
import { forbidden, requirePermission, roleAllows } from '../roles.ts';
import type { WriteOptions } from './context.ts';

/** Whether the writer may publish (the command line may). */
export function mayPublish(options: WriteOptions): boolean {
  return options.role === undefined || roleAllows(options.role, 'rules:publish');
}

/** The 403 of a writer who may not publish, with what to do instead. */
function publishRefusal(space: string, options: WriteOptions, instead: string): ServiceError {
  const refusal = forbidden({ role: options.role!, space }, 'rules:publish');
  return new ServiceError(refusal.code, `${refusal.message}: ${instead}`);
}

/** Throws `forbidden` when the write would publish and the writer's role does not allow publishing. */
export function assertMayPublish(space: string, options: WriteOptions, publishes: boolean): void {
  if (!publishes || mayPublish(options)) return;
  throw publishRefusal(space, options, 'save it with "status": "pending" and ask a publisher to publish it');
}

/** Throws `forbidden` when the write deletes rule versions and the writer's role does not allow deleting them. */
export function assertMayDelete(space: string, options: WriteOptions, deletes: boolean): void {
  if (deletes && options.role !== undefined) requirePermission({ role: options.role, space }, 'rules:publish');
}

/**
 * Throws `forbidden` when the write changes a published version (its content, its status or the alias it answers
 * at: what production solves) and the writer's role does not allow publishing. Saving a published version as
 * pending, importing over it or renaming its rule would otherwise let an editor unpublish or rewrite production.
 */
export function assertMayChangePublished(space: string, options: WriteOptions, changed: ReadonlyArray<{ ruleId: string; alias: string; version: number; status: string }>): void {
  const live = changed.find((head) => head.status === 'published');
  if (live === undefined || mayPublish(options)) return;
  throw publishRefusal(space, options, `version ${live.version} of rule ${live.alias || live.ruleId} is published; add a new version (POST /api/rule/{idOrAlias}/new-version) and ask a publisher to publish it`);
}

/** Throws `forbidden` when the write stores a locked version (locking is a publisher's) and the writer may not lock. */
export function assertMayLock(space: string, options: WriteOptions, locks: boolean): void {
  if (!locks || mayPublish(options)) return;
  throw publishRefusal(space, options, 'a document with "locked": true locks its version; leave "locked" out and ask a publisher to lock it');
}
