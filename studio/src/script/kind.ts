// Scripting rules in the Studio shell (studio/src/kinds).
import type { RuleKind } from '../kinds/types.ts';
import { ScriptDesigner } from './ScriptDesigner.tsx';
import { ScriptBenchView } from './ScriptBenchView.tsx';
import { ScriptCompare } from './ScriptCompare.tsx';
import './script.css';
import { blankScript, explainScriptError } from './model.ts';

export const scriptKind: RuleKind = {
  type: 'complex-rule',
  label: 'Scripting rule',
  blank: blankScript,
  Designer: ScriptDesigner,
  // spec/rule-format.md §5: a script supports STANDARD and ARRAY
  strategies: ['STANDARD', 'ARRAY'],
  BenchView: ScriptBenchView,
  Compare: ScriptCompare,
  explainError: explainScriptError,
};
