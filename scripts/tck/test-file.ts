// The TCK's test files (`*-test-01.xml`, schema TestCases/testCases.xsd): test cases with typed input values and
// expected results (xsd-typed values, lists, components, nil).
import { DOMParser } from '@xmldom/xmldom';
import type { Element } from '@xmldom/xmldom';

export type TckValue =
  | { kind: 'value'; xsdType?: string; text: string }
  | { kind: 'nil' }
  | { kind: 'list'; items: TckValue[] }
  | { kind: 'context'; components: [string, TckValue][] };

export interface TckInput {
  name: string;
  namespace?: string;
  value: TckValue;
}

export interface TckResult {
  name: string;
  errorResult: boolean;
  expected: TckValue;
}

export interface TckTestCase {
  id: string;
  type: 'decision' | 'decisionService';
  invocableName?: string;
  inputs: TckInput[];
  results: TckResult[];
}

export interface TckTestFile {
  modelName: string;
  testCases: TckTestCase[];
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

function children(element: Element, name?: string): Element[] {
  const out: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (name === undefined || (node as Element).localName === name)) out.push(node as Element);
  }
  return out;
}

/** A value element's content: `<value>`, `<list>` of `<item>`, `<component>`s; nil or empty means null. */
function valueOf(holder: Element): TckValue {
  const list = children(holder, 'list')[0];
  if (list) return { kind: 'list', items: children(list, 'item').map(valueOf) };
  const components = children(holder, 'component');
  if (components.length > 0) return { kind: 'context', components: components.map((component) => [component.getAttribute('name') ?? '', valueOf(component)]) };
  const value = children(holder, 'value')[0];
  if (!value || value.getAttributeNS(XSI, 'nil') === 'true') return { kind: 'nil' };
  const xsdType = value.getAttributeNS(XSI, 'type');
  const text = value.textContent ?? '';
  if (!xsdType) {
    // An untyped value holding elements is a context or list written inline.
    const nested = children(value, 'component').length > 0 || children(value, 'list').length > 0;
    if (nested) return valueOf(value);
  }
  return { kind: 'value', ...(xsdType ? { xsdType: xsdType.slice(xsdType.indexOf(':') + 1) } : {}), text };
}

export function readTestFile(xml: string, fileName: string): TckTestFile {
  const errors: string[] = [];
  const document = new DOMParser({ onError: (level, message) => void (level !== 'warning' && errors.push(message)) }).parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (errors.length > 0 || !root || root.localName !== 'testCases') throw new Error(`${fileName}: not a TCK test file${errors.length ? `: ${errors[0]}` : ''}`);
  const modelName = children(root, 'modelName')[0]?.textContent?.trim() ?? '';
  const testCases = children(root, 'testCase').map((testCase): TckTestCase => {
    const invocableName = testCase.getAttribute('invocableName');
    return {
      id: testCase.getAttribute('id') ?? '',
      type: testCase.getAttribute('type') === 'decisionService' ? 'decisionService' : 'decision',
      ...(invocableName ? { invocableName } : {}),
      inputs: children(testCase, 'inputNode').map((input) => {
        const namespace = input.getAttribute('namespace');
        return { name: input.getAttribute('name') ?? '', ...(namespace ? { namespace } : {}), value: valueOf(input) };
      }),
      results: children(testCase, 'resultNode').map((result) => ({
        name: result.getAttribute('name') ?? '',
        errorResult: result.getAttribute('errorResult') === 'true',
        expected: valueOf(children(result, 'expected')[0] ?? result),
      })),
    };
  });
  return { modelName, testCases };
}
