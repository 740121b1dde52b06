// The `dmn` rule type's designer. dmn-js is large (docs/decisions/studio-dmn.md), so it is a separate chunk the
// browser fetches the first time a DMN 1.3 model opens; every other page of the Studio loads without it. dmn-js
// reads DMN 1.3 only: a model of another version opens as XML text (saving it through dmn-js would drop what 1.3
// lacks, such as 1.5's boxed conditionals and iterators).
import { lazy, Suspense, useMemo } from 'react';
import type { DesignerProps } from '../kinds/types.ts';
import { Loading } from '../ui/states.tsx';
import { DmnXmlDesigner } from './DmnXmlDesigner.tsx';
import { dmnVersion, dmnXml } from './model.ts';
import '../designer/designer.css';
import './dmn.css';

const DmnModeler = lazy(() => import('./DmnModeler.tsx'));

export function DmnDesigner(props: DesignerProps) {
  const xml = dmnXml(props.rule);
  const version = useMemo(() => dmnVersion(xml), [xml]);
  if (version !== '1.3') {
    const why = version === undefined
      ? 'This XML is not a DMN model the diagram editor can read (its definitions element has no DMN namespace).'
      : `This is a DMN ${version} model; the diagram editor (dmn-js) edits DMN 1.3 models. Its XML is edited here as text.`;
    return <DmnXmlDesigner {...props} notice={why} />;
  }
  return (
    <Suspense fallback={<Loading label="Opening the DMN editor…" />}>
      <DmnModeler {...props} />
    </Suspense>
  );
}
