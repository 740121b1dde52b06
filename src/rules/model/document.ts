// What every rule model has: its type and the document it was read from (the envelope the compilers read where
// they use it: ids, name, schemas, userVariables).
import type { JsonObject } from '../check.ts';

export interface DocumentModel<T extends string = string> {
  readonly type: T;
  readonly document: JsonObject;
}
