// Lookup tables in the Studio shell (studio/src/kinds): solved with X-Lookup-Method, which the bench offers as
// its strategy choice and sends as the draft solve's `lookupMethod`.
import type { RuleEditor } from '../kinds/types.ts';
import { LookupDesigner } from './LookupDesigner.tsx';
import { blankLookup } from './model.ts';
import { LookupCompare } from './LookupCompare.tsx';

export const lookupKind: RuleEditor = {
  blank: (name) => blankLookup(name),
  Designer: LookupDesigner,
  strategies: ['LOOKUP_VALUE', 'LOOKUP_EXISTS'],
  strategyField: 'lookupMethod',
  Compare: LookupCompare,
};
