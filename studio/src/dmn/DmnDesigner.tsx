// The `dmn` rule type's designer: dmn-js is large (docs/decisions/studio-dmn.md), so it is a separate chunk the
// browser fetches the first time a DMN rule opens; every other page of the Studio loads without it.
import { lazy, Suspense } from 'react';
import type { DesignerProps } from '../kinds/types.ts';
import { Loading } from '../ui/states.tsx';

const DmnModeler = lazy(() => import('./DmnModeler.tsx'));

export function DmnDesigner(props: DesignerProps) {
  return (
    <Suspense fallback={<Loading label="Opening the DMN editor…" />}>
      <DmnModeler {...props} />
    </Suspense>
  );
}
