// Decision tables in the Studio shell (studio/src/kinds).
import type { RuleKind } from '../kinds/types.ts';
import { TableDesigner } from './TableDesigner.tsx';
import { blankTable } from './model/table.ts';
import { CompareView } from '../versions/CompareView.tsx';

export const tableKind: RuleKind = {
  type: 'decision-table',
  label: 'Decision table',
  blank: (name) => blankTable(name),
  Designer: TableDesigner,
  strategies: ['STANDARD', 'FIRST_MATCH', 'ARRAY', 'EVALUATE_ALL'],
  Compare: CompareView,
  extraPanels: ['analysis'],
};
