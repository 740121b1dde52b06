// Two versions of a lookup table compared as tables: the table compare, fed the lookup rows as a decision table.
import { useMemo } from 'react';
import type { CompareProps } from '../kinds/types.ts';
import { CompareView } from '../versions/CompareView.tsx';
import { lookupAsTable } from './compare.ts';

export function LookupCompare(props: CompareProps) {
  const left = useMemo(() => lookupAsTable(props.left), [props.left]);
  const right = useMemo(() => lookupAsTable(props.right), [props.right]);
  return <CompareView {...props} left={left} right={right} />;
}
