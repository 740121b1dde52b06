// expect: no-restricted-imports
// A file format knows no use case.
import { ServiceError } from '../service/errors.ts';

export const wrong = ServiceError;
