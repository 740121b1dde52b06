// FEEL (DMN 1.5 Friendly Enough Expression Language): the public API of the engine's FEEL implementation.
// Parse text (`parseFeel`), compile it to closures (`compileFeel`, `compileUnaryTests`), and the value model.
export {
  FeelNumber,
  FeelDate,
  FeelTime,
  FeelDateTime,
  FeelDaysTimeDuration,
  FeelYearsMonthsDuration,
  FeelContext,
  FeelRange,
  FeelFunction,
  isNumber,
  isTemporal,
  isDuration,
  num,
  type FeelValue,
  type FeelArguments,
  type Zoned,
} from './values.ts';
export type { FeelScope } from './scope.ts';
export { feelEquals, feelCompare, inRange } from './compare.ts';
export { typeOf, conformsTo, parseType, conforms, instanceOf, type FeelType } from './types.ts';
export { fromJson, toJson } from './json.ts';
export { feelString, feelText } from './text.ts';
export { parseDate, parseTime, parseDateTime, parseDuration } from './temporal.ts';
