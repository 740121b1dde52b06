// Decision tables (rule-format §2): the only type that applies all four strategies.
import { readDecisionTable } from '../decision-table.ts';
import { STRATEGIES } from '../strategies.ts';
import { ruleTypeDescriptor } from './descriptor.ts';

export const decisionTableType = ruleTypeDescriptor({
  type: 'decision-table',
  label: 'Decision table',
  read: readDecisionTable,
  strategies: STRATEGIES,
  solvable: true,
  flow: false,
  references: 'calls',
});
