// The typed model of a scripting rule (rule-format §5): its JavaScript source.
export interface ScriptModel {
  readonly type: 'complex-rule';
  readonly document: Record<string, unknown>;
  /** The rule's JavaScript source. */
  readonly script: string;
}
