// The solve strategies of the DecisionRules format (spec/rule-format.md §3.1), named in documents' tests and in the
// X-Strategy header. Each rule type's descriptor says which of them it applies (src/rules/types/).
export const STRATEGIES = ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'] as const;
export type Strategy = (typeof STRATEGIES)[number];
