// JSON in, JSON out: input data by name as JSON (strings of inputs declared as dates, times and durations read
// as those), decision results as JSON through FEEL's toJson (docs/decisions/feel-values.md).
import type { DmnModel } from '../../rules/dmn/model.ts';
import { fromJson, parseDate, parseDateTime, parseDuration, parseTime, toJson } from '../feel/index.ts';
import type { FeelValue } from '../feel/index.ts';
import type { CompiledDmn, DmnEvaluateOptions } from './compile.ts';

const TEMPORAL: Record<string, (text: string) => FeelValue> = {
  date: parseDate,
  time: parseTime,
  'date and time': parseDateTime,
  dateTime: parseDateTime,
  'days and time duration': parseDuration,
  dayTimeDuration: parseDuration,
  'years and months duration': parseDuration,
  yearMonthDuration: parseDuration,
};

/** The temporal parser of a typeRef, following item definitions of the model to their base type. */
function temporalParser(model: DmnModel, typeRef: string | undefined, depth = 0): ((text: string) => FeelValue) | undefined {
  if (!typeRef || depth > 8) return undefined;
  const name = typeRef.replace(/^feel:/, '').trim();
  if (TEMPORAL[name]) return TEMPORAL[name];
  const definition = model.itemDefinitions.find((candidate) => candidate.name === name);
  return definition && !definition.isCollection ? temporalParser(model, definition.typeRef, depth + 1) : undefined;
}

export interface DmnJsonEvaluation {
  results: Record<string, unknown>;
  warnings: string[];
}

export function evaluateJson(compiled: CompiledDmn, data: Readonly<Record<string, unknown>>, options: DmnEvaluateOptions): DmnJsonEvaluation {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new TypeError(`the input of the DMN model '${compiled.model.name}' must be an object of input data by name, not ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}`);
  }
  const inputs = new Map<string, FeelValue>();
  for (const [name, raw] of Object.entries(data)) {
    const input = compiled.model.inputData.find((candidate) => candidate.name === name);
    const parse = typeof raw === 'string' && input ? temporalParser(compiled.model, input.typeRef) : undefined;
    inputs.set(name, parse ? (parse(raw as string) ?? (raw as string)) : fromJson(raw));
  }
  const evaluation = compiled.evaluate(inputs, options);
  const results: Record<string, unknown> = {};
  for (const [name, value] of evaluation.results) results[name] = toJson(value);
  return { results, warnings: evaluation.warnings };
}
