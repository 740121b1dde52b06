// Decision trees in the Studio shell (studio/src/kinds). Trees solve STANDARD or ARRAY (spec §6.1); the compare
// is the generic structural one (versions/JsonCompareView.tsx).
import type { RuleEditor } from '../kinds/types.ts';
import { TreeDesigner } from './TreeDesigner.tsx';
import { blankTree, conditionPaths } from './model.ts';

export const treeKind: RuleEditor = {
  blank: (name) => blankTree(name),
  Designer: TreeDesigner,
  inputPaths: conditionPaths,
};
