// The condition operators the validator checks against: the engine's own table (src/engine/cells/operators.ts),
// so an operator the validator accepts is always one the engine compiles. Only the condition types are
// validator-specific.
export { OPERATORS, OPERATOR_NAMES, normaliseOperator, operatorSpec } from '../engine/cells/operators.ts';
export type { Operator as OperatorName, OperatorSpec, OperatorValueShape } from '../engine/cells/operators.ts';

/** Condition cell types (`scalarCondition.type`); missing means `general` (or `function` for the function operator). */
export const CONDITION_TYPES = ['general', 'date', 'function'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];
