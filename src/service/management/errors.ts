// Failures of management use cases. The HTTP adapter maps each kind to a status (see
// docs/decisions/management-api-semantics.md): a missing rule or folder is 404, a clash with what is stored
// (alias in use, locked version, id taken) is 409, anything wrong with the request itself is 400, a write whose
// If-Match no longer matches the version is 412 (docs/decisions/management-etag-if-match.md).
import type { Problem } from '../../engine/errors.ts';

export type ManagementFailure = 'not-found' | 'conflict' | 'bad-request' | 'precondition-failed';

export const MANAGEMENT_STATUS: Record<ManagementFailure, number> = {
  'not-found': 404,
  conflict: 409,
  'bad-request': 400,
  'precondition-failed': 412,
};

export class ManagementError extends Error {
  readonly kind: ManagementFailure;
  /** Every problem, each with its path, when the failure is about a document. */
  readonly problems: Problem[] | undefined;
  constructor(kind: ManagementFailure, message: string, problems?: Problem[]) {
    super(message);
    this.name = 'ManagementError';
    this.kind = kind;
    this.problems = problems;
  }

  get status(): number {
    return MANAGEMENT_STATUS[this.kind];
  }
}

export function notFound(message: string): ManagementError {
  return new ManagementError('not-found', message);
}

export function conflict(message: string): ManagementError {
  return new ManagementError('conflict', message);
}

export function badRequest(message: string): ManagementError {
  return new ManagementError('bad-request', message);
}
