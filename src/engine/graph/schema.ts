// The JSON schema of a graph's input and output nodes, checked when a node is reached (zen checks them with the
// jsonschema crate). Ajv compiles each schema once, at the graph's compile (docs/decisions/jdm-decision-graphs.md).
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Problem } from '../errors.ts';
import { parseJdmSchema } from '../../rules/decision-graph.ts';

// One instance for every graph: Ajv keeps compiled schemas; `strict: false` since JDM schemas carry editor
// keywords Ajv does not know; no schema is fetched (a `$ref` to elsewhere does not compile).
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: true });

/** A compiled schema check: undefined when the value matches, else the reasons. */
export type SchemaCheck = (value: unknown) => string | undefined;

/** Compiles a JDM node's `schema` field; a schema that does not compile is a problem at `path`. */
export function compileSchema(schema: unknown, path: string, problems: Problem[]): SchemaCheck | undefined {
  const parsed = parseJdmSchema(schema);
  if (parsed === undefined) return undefined;
  if (typeof parsed === 'string') {
    problems.push({ path, message: parsed });
    return undefined;
  }
  let validate: ValidateFunction;
  try {
    // Without its `$id`: two graphs may carry the same one, and Ajv refuses a second schema under one id.
    const { $id: _id, ...anonymous } = parsed;
    validate = ajv.compile(anonymous);
  } catch (error) {
    problems.push({ path, message: `is not a usable JSON schema: ${(error as Error).message}` });
    return undefined;
  }
  return (value) => (validate(value) ? undefined : describeErrors(validate.errors ?? []));
}

function describeErrors(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 5)
    .map((e) => `${e.instancePath === '' ? '(the input)' : e.instancePath} ${e.message ?? 'is not valid'}`)
    .join('; ');
}
