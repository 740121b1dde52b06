// The `dmn` rule type's designer. dmn-js is large (docs/decisions/studio-dmn.md), so it is a separate chunk the
// browser fetches the first time a DMN model opens; every other page of the Studio loads without it. dmn-js reads
// DMN 1.3, and 1.4 and 1.5 with the server's 1.5 description (moddle.ts); it refuses 1.1 and 1.2, so those open
// as XML text.
import { lazy, Suspense, useMemo } from 'react';
import type { DesignerProps } from '../kinds/types.ts';
import { Loading } from '../ui/states.tsx';
import { DmnXmlDesigner } from './DmnXmlDesigner.tsx';
import { dmnNamespaces, dmnXml } from './model.ts';
import '../designer/designer.css';
import './dmn.css';

const DmnModeler = lazy(() => import('./DmnModeler.tsx'));

export function DmnDesigner(props: DesignerProps) {
  const xml = dmnXml(props.rule);
  const namespaces = useMemo(() => dmnNamespaces(xml), [xml]);
  // Keyed by namespaces: dmn-js is made for one pair of them.
  const key = namespaces ? `${namespaces.model} ${namespaces.diagram ?? ''}` : '';
  if (!namespaces || namespaces.version === '1.1' || namespaces.version === '1.2') {
    const why = !namespaces
      ? 'This XML is not a DMN model the diagram editor can read (its definitions element has no DMN namespace).'
      : `This is a DMN ${namespaces.version} model; the diagram editor (dmn-js) edits DMN 1.3 to 1.5 models. Its XML is edited here as text.`;
    return <DmnXmlDesigner {...props} notice={why} />;
  }
  return (
    <Suspense fallback={<Loading label="Opening the DMN editor…" />}>
      <DmnModeler key={key} {...props} namespaces={namespaces} />
    </Suspense>
  );
}
