// The typed model of a DMN 1.5 model (definitions): plain JSON data, so it can be kept once read from XML and
// read again synchronously. Expression texts stay FEEL text here; the engine (src/engine/dmn) compiles them.
// Every element carries `path`, a readable location (`decision 'Approval Status'.decisionTable.rule[2]`) that
// problems and evaluation errors name.

/** A reference to a DRG element: its id, and the namespace of the model holding it when it is imported. */
export interface DmnReference {
  /** Namespace of the model holding the element; absent: this model. */
  namespace?: string;
  id: string;
}

export interface DmnImport {
  /** The prefix under which the imported model's elements are named (`myImport.Decision A`). */
  name: string;
  namespace: string;
  importType: string;
  locationURI?: string;
}

export interface DmnFunctionItem {
  parameters: DmnTypedName[];
  outputTypeRef?: string;
}

export interface DmnItemDefinition {
  name: string;
  path: string;
  /** A base type (`number`, `tOther`, `import.tType`); absent with components or a function item. */
  typeRef?: string;
  isCollection: boolean;
  /** Unary tests a value must satisfy (`allowedValues`, DMN 1.5 `typeConstraint`). */
  allowedValues?: string;
  typeConstraint?: string;
  components: DmnItemDefinition[];
  functionItem?: DmnFunctionItem;
}

export interface DmnTypedName {
  name: string;
  typeRef?: string;
}

export interface DmnInputData {
  id: string;
  name: string;
  path: string;
  typeRef?: string;
}

export interface DmnDecision {
  id: string;
  name: string;
  path: string;
  typeRef?: string;
  requiredDecisions: DmnReference[];
  requiredInputs: DmnReference[];
  requiredKnowledge: DmnReference[];
  /** Absent: the decision has no logic (evaluates to null with a warning). */
  logic?: DmnExpression;
}

export interface DmnBusinessKnowledgeModel {
  id: string;
  name: string;
  path: string;
  typeRef?: string;
  requiredKnowledge: DmnReference[];
  logic?: DmnFunctionDefinition;
}

export interface DmnDecisionService {
  id: string;
  name: string;
  path: string;
  typeRef?: string;
  outputDecisions: DmnReference[];
  encapsulatedDecisions: DmnReference[];
  inputDecisions: DmnReference[];
  inputData: DmnReference[];
}

export interface DmnModel {
  name: string;
  namespace: string;
  id?: string;
  imports: DmnImport[];
  itemDefinitions: DmnItemDefinition[];
  inputData: DmnInputData[];
  decisions: DmnDecision[];
  businessKnowledgeModels: DmnBusinessKnowledgeModel[];
  decisionServices: DmnDecisionService[];
}

// ---------------------------------------------------------------------------------------------------------
// Boxed expressions

interface ExpressionBase {
  path: string;
  id?: string;
  typeRef?: string;
}

export interface DmnLiteralExpression extends ExpressionBase {
  kind: 'literal';
  text: string;
}

export const HIT_POLICIES = ['UNIQUE', 'ANY', 'PRIORITY', 'FIRST', 'RULE ORDER', 'OUTPUT ORDER', 'COLLECT'] as const;
export type DmnHitPolicy = (typeof HIT_POLICIES)[number];
export const AGGREGATORS = ['SUM', 'COUNT', 'MIN', 'MAX'] as const;
export type DmnAggregator = (typeof AGGREGATORS)[number];

export interface DmnInputClause {
  path: string;
  expression: string;
  typeRef?: string;
  /** Unary tests the input value must satisfy. */
  inputValues?: string;
}

export interface DmnOutputClause {
  path: string;
  name?: string;
  typeRef?: string;
  /** Unary tests listing the output values, in priority order (P and O hit policies). */
  outputValues?: string;
  defaultOutput?: string;
}

export interface DmnRule {
  path: string;
  /** Unary tests text per input clause. */
  inputEntries: string[];
  /** FEEL expression text per output clause. */
  outputEntries: string[];
}

export interface DmnDecisionTable extends ExpressionBase {
  kind: 'decisionTable';
  hitPolicy: DmnHitPolicy;
  aggregation?: DmnAggregator;
  inputs: DmnInputClause[];
  outputs: DmnOutputClause[];
  rules: DmnRule[];
  outputLabel?: string;
}

export interface DmnContextEntry {
  /** Absent: the entry is the context's result. */
  name?: string;
  typeRef?: string;
  value: DmnExpression;
}

export interface DmnContext extends ExpressionBase {
  kind: 'context';
  entries: DmnContextEntry[];
}

export interface DmnList extends ExpressionBase {
  kind: 'list';
  elements: DmnExpression[];
}

export interface DmnRelation extends ExpressionBase {
  kind: 'relation';
  columns: DmnTypedName[];
  rows: DmnExpression[][];
}

export interface DmnBinding {
  name: string;
  typeRef?: string;
  /** Absent: the parameter is bound to null. */
  value?: DmnExpression;
}

export interface DmnInvocation extends ExpressionBase {
  kind: 'invocation';
  /** FEEL text naming the function (a BKM or decision service name, possibly imported). */
  callee: string;
  bindings: DmnBinding[];
}

export const FUNCTION_KINDS = ['FEEL', 'Java', 'PMML'] as const;
export type DmnFunctionKind = (typeof FUNCTION_KINDS)[number];

export interface DmnFunctionDefinition extends ExpressionBase {
  kind: 'function';
  functionKind: DmnFunctionKind;
  parameters: DmnTypedName[];
  body?: DmnExpression;
}

export interface DmnConditional extends ExpressionBase {
  kind: 'conditional';
  if: DmnExpression;
  then: DmnExpression;
  else: DmnExpression;
}

export interface DmnIterator extends ExpressionBase {
  kind: 'iterator';
  quantifier: 'for' | 'some' | 'every';
  variable: string;
  in: DmnExpression;
  /** `return` of for, `satisfies` of some and every. */
  body: DmnExpression;
}

export interface DmnFilter extends ExpressionBase {
  kind: 'filter';
  in: DmnExpression;
  match: DmnExpression;
}

export type DmnExpression =
  | DmnLiteralExpression
  | DmnDecisionTable
  | DmnContext
  | DmnList
  | DmnRelation
  | DmnInvocation
  | DmnFunctionDefinition
  | DmnConditional
  | DmnIterator
  | DmnFilter;
