// Failures of management use cases, as entries of the error catalog (service/errors.ts): a missing rule or folder
// is not-found, a clash with what is stored (alias in use, locked version, id taken) is conflict, anything wrong
// with the request itself is bad-request (docs/decisions/management-api-semantics.md).
import type { Problem } from '../../engine/errors.ts';
import { ServiceError } from '../errors.ts';

export function notFound(message: string): ServiceError {
  return new ServiceError('not-found', message);
}

export function conflict(message: string): ServiceError {
  return new ServiceError('conflict', message);
}

export function badRequest(message: string, problems?: Problem[]): ServiceError {
  return new ServiceError('bad-request', message, { problems });
}
