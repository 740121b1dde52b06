// The two value objects shared by tables, trees and flows, as the validator (scalar-values.ts) accepts them: a
// typed view of the stored JSON, not a copy (a 40,000-row table has hundreds of thousands of them).
import type { ConditionType } from '../operators.ts';

/** A condition cell (`scalarCondition`, rule-format §2.4): an operator and its operand. */
export interface ScalarCondition {
  /** Absent: `general`. The validator accepts only these three. */
  readonly type?: ConditionType | null;
  /** An operator name or alias of the operator table (operators.ts). */
  readonly operator: string;
  /** A single value, a set or range of them, a legacy date object, or a function cell's expression tree. */
  readonly value?: unknown;
  /** What the author typed; a function cell's expression text. */
  readonly stringValue?: string | null;
}

/** A result, calculation or flow value (`outputScalarValue`, rule-format §2.9–2.12). */
export interface OutputScalarValue {
  /** Absent: `common` (a value or a template), unless `value` is an expression tree. */
  readonly type?: 'common' | 'function' | null;
  readonly value?: unknown;
  readonly stringValue?: string | null;
}
