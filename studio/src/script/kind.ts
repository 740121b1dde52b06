// Scripting rules in the Studio shell (studio/src/kinds).
import type { RuleEditor } from '../kinds/types.ts';
import { ScriptDesigner } from './ScriptDesigner.tsx';
import { ScriptBenchView } from './ScriptBenchView.tsx';
import { ScriptCompare } from './ScriptCompare.tsx';
import './script.css';
import { blankScript, explainScriptError } from './model.ts';

export const scriptKind: RuleEditor = {
  blank: blankScript,
  Designer: ScriptDesigner,
  BenchView: ScriptBenchView,
  Compare: ScriptCompare,
  explainError: explainScriptError,
};
