// Cells: the building blocks shared by decision tables, decision trees and flow Switch / BUSINESS_RULE nodes.
//
//   compileCondition(scalarCondition, where, env, problems) -> CompiledCondition
//       every operator of §2.9 (general cells) and §2.11 (date cells), `{var}` references in values and set
//       members, ELSE (kind 'else': the caller knows whether an earlier row matched), function cells through
//       the expression language. `test(left, scope, ctx)` answers for one left operand; `explain` adds the
//       resolved operand and error for traces; both answer with a promise only when `async` is true (a function
//       cell whose expression waits), see engine/maybe-promise.ts.
//   compileResultValue(outputScalarValue, where, env, problems) -> CompiledValue
//       simple values with the §2.10 cast, function values through the expression language.
//   OutputLayout: dotted output paths nested in outputSchema key order, plus the ARRAY merge.
//   RuleScope: variable resolution calc -> earlier output -> rule variable -> input (§4.4).
//
// A CellEnvironment carries the default time zone and a compile-time resolver for references (use
// staticResolver(ruleVariables, shadowed)); everything it can answer is folded into constants.
export { compileCondition, anythingCondition } from './condition.ts';
export type { CellEnvironment, CompiledCondition, ConditionExplanation, ConditionKind } from './condition.ts';
export { compileResultValue, constantValue } from './result.ts';
export type { CompiledValue } from './result.ts';
export { OutputLayout, assignSlots, cloneJson, frozenJson } from './output-layout.ts';
export type { SlotValues } from './output-layout.ts';
export { RuleScope, ruleVariablesOf, staticResolver, pathsOverlap } from './scope.ts';
export { getBelow } from '../path.ts';
export { compileTemplate, parseTemplate, DYNAMIC } from './references.ts';
export type { Reference, StaticResolver, CompiledTemplate } from './references.ts';
export { OPERATORS, OPERAND_SHAPE, DATE_OPERATORS, normaliseOperator } from '../../rules/operators.ts';
export type { Operator, OperandShape } from '../../rules/operators.ts';
export { compileGeneralTest } from './general.ts';
export { parseDateText, parseDateValue, instantOf, zonedWallToInstant, zoneOffsetMs, isKnownZone } from './dates.ts';
export type { DateParts } from './dates.ts';
export { ValueSet, prepareOperand, equalsPrepared, compareToPrepared, cellText, setMembers, stripQuotes } from './operands.ts';
