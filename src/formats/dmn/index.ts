// DMN files (.dmn): XML in a DMN 1.1-1.5 namespace. Told by content, not by name, like the other formats: the
// management import, `verdict import`, `verdict solve`, `verdict test` and `verdict lint` detect them here.
import { DMN_NAMESPACE_PATTERN } from '../../rules/dmn-rule.ts';

/** The head of the text the detection looks at: the root element and its namespaces are near the start. */
const HEAD = 4096;

/** Whether `value` is the text of a DMN model: XML whose start names a DMN namespace. */
export function isDmnXml(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const text = value.replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('<') && DMN_NAMESPACE_PATTERN.test(text.slice(0, HEAD));
}

/** A file name without folders and the .dmn / .xml extension: the name a model without one gets. */
export function baseName(fileName: string): string {
  return fileName.replace(/^.*[\\/]/, '').replace(/\.(dmn|xml)$/i, '');
}
