// Lookup tables (rule-format §7): solved by key with a lookup method (X-Lookup-Method), not a strategy; other
// rules read them through LOOKUP_VALUE / LOOKUP_EXISTS, and they call nothing.
import { readLookupTableModel } from '../lookup-table.ts';
import { ruleTypeDescriptor } from './descriptor.ts';

export const lookupTableType = ruleTypeDescriptor({
  type: 'lookup-table',
  label: 'Lookup table',
  read: readLookupTableModel,
  strategies: ['STANDARD'],
  solvable: true,
  flow: false,
  references: 'none',
});
