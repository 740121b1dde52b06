// Decision tables in the Studio shell (studio/src/kinds).
import type { RuleEditor } from '../kinds/types.ts';
import { TableDesigner } from './TableDesigner.tsx';
import { blankTable } from './model/table.ts';
import { CompareView } from '../versions/CompareView.tsx';

export const tableKind: RuleEditor = {
  blank: (name) => blankTable(name),
  Designer: TableDesigner,
  Compare: CompareView,
  extraPanels: ['analysis'],
};
