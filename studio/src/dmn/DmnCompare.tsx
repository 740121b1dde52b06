// Two versions of a DMN model: its XML as a line diff (compare/TextCompare.tsx); dmn-js and the bench show what
// the lines mean.
import type { CompareProps } from '../kinds/types.ts';
import { TextCompare } from '../compare/TextCompare.tsx';
import { dmnXml } from './model.ts';

export function DmnCompare(props: CompareProps) {
  return <TextCompare {...props} textOf={dmnXml} what="DMN XML" />;
}
