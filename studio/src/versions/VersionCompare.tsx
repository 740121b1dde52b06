// Two versions of a rule side by side in the compare of its type (RuleKind.Compare), or the generic structural
// JSON compare for types without one (and for two documents of different types).
import type { CompareProps } from '../kinds/types.ts';
import { kindOf } from '../kinds/registry.ts';
import { JsonCompareView } from './JsonCompareView.tsx';

export function VersionCompare(props: CompareProps) {
  const kind = props.left.type === props.right.type ? kindOf(String(props.right.type)) : undefined;
  const Compare = kind?.Compare ?? JsonCompareView;
  return <Compare {...props} />;
}
