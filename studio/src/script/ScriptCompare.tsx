// Two versions of a scripting rule: the script as a line diff (compare/TextCompare.tsx).
import type { CompareProps } from '../kinds/types.ts';
import type { RuleDocument } from '../api/types.ts';
import { TextCompare } from '../compare/TextCompare.tsx';

function scriptOf(rule: RuleDocument): string {
  return typeof rule.script === 'string' ? rule.script : '';
}

export function ScriptCompare(props: CompareProps) {
  return <TextCompare {...props} textOf={scriptOf} what="script" />;
}
