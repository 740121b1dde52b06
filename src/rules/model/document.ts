// What every rule model has: its type and the document it was read from (the envelope: ids, name, schemas,
// userVariables; and, for types whose body is not modelled yet, the body the engine then reads itself).
import type { JsonObject } from '../check.ts';

export interface DocumentModel<T extends string = string> {
  readonly type: T;
  readonly document: JsonObject;
}
