// A DMN rule document (rule type `dmn`) as the Studio edits it: the DMN XML is the source of truth (the server
// re-reads it on every save and on every bench run), so the editor reads and writes that one field and leaves the
// derived model to the server.
import type { RuleDocument } from '../api/types.ts';
import { DMN_MODEL_FIELD, DMN_XML_FIELD } from '../../../src/rules/dmn-rule.ts';

/** The part of the browser's XML DOM read here, typed in this module: the server's tests import it without the DOM lib. */
interface XmlElement {
  localName: string;
  namespaceURI: string | null;
  getAttribute(name: string): string | null;
}
interface XmlDocument {
  documentElement: XmlElement;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
  getElementsByTagNameNS(namespace: string, name: string): ArrayLike<XmlElement>;
}

function parseXml(xml: string): XmlDocument {
  const { DOMParser } = globalThis as unknown as { DOMParser: new () => { parseFromString(text: string, type: string): XmlDocument } };
  return new DOMParser().parseFromString(xml, 'application/xml');
}

export function dmnXml(rule: RuleDocument): string {
  const xml: unknown = rule[DMN_XML_FIELD];
  return typeof xml === 'string' ? xml : '';
}

/** The draft with new XML; the model the server derived from other XML would mislead, so it goes (the server reads
 * the XML again on save and on the bench's solve). */
export function withDmnXml(rule: RuleDocument, xml: string): RuleDocument {
  const { [DMN_MODEL_FIELD]: _stale, ...rest } = rule;
  return { ...rest, [DMN_XML_FIELD]: xml };
}

/** Whether the document carries the model the server derived (a saved version does, an edited draft not). */
export function hasDmnModel(rule: RuleDocument): boolean {
  return rule[DMN_MODEL_FIELD] !== undefined;
}

/**
 * The draft with `origin`'s XML and model again: `origin` itself when nothing else differs, so that undoing every
 * edit leaves no unsaved draft (the rule page tells a draft by identity).
 */
export function withOriginModel(rule: RuleDocument, origin: RuleDocument): RuleDocument {
  const back = withDmnXml(rule, dmnXml(origin));
  const { [DMN_MODEL_FIELD]: _model, ...originRest } = origin;
  if (JSON.stringify(sorted(back)) === JSON.stringify(sorted(originRest))) return origin;
  return origin[DMN_MODEL_FIELD] === undefined ? back : { ...back, [DMN_MODEL_FIELD]: origin[DMN_MODEL_FIELD] };
}

function sorted(document: RuleDocument): [string, unknown][] {
  return Object.entries(document).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The names of the model's elements of one kind (`inputData`, `decision`), in document order, each once. */
function elementNames(rule: RuleDocument, kind: string): string[] {
  const xml = dmnXml(rule);
  if (!xml) return [];
  const doc = parseXml(xml);
  if (doc.getElementsByTagName('parsererror').length > 0) return [];
  const names = Array.from(doc.getElementsByTagNameNS('*', kind)).map((e) => e.getAttribute('name') ?? '').filter((n) => n !== '');
  return [...new Set(names)];
}

/** The model's input data by name: what the bench's form offers (the solve's `data` names input data). */
export function dmnInputNames(rule: RuleDocument): string[] {
  return elementNames(rule, 'inputData');
}

/** The model's decisions by name: what the bench may run alone (the solve option `decisions`). */
export function dmnDecisionNames(rule: RuleDocument): string[] {
  return elementNames(rule, 'decision');
}

export type DmnVersion = '1.1' | '1.2' | '1.3' | '1.4' | '1.5';

/** The model namespace of each DMN version. */
const MODEL_NAMESPACES: Record<DmnVersion, string> = {
  '1.1': 'http://www.omg.org/spec/DMN/20151101/dmn.xsd',
  '1.2': 'http://www.omg.org/spec/DMN/20180521/MODEL/',
  '1.3': 'https://www.omg.org/spec/DMN/20191111/MODEL/',
  '1.4': 'https://www.omg.org/spec/DMN/20211108/MODEL/',
  '1.5': 'https://www.omg.org/spec/DMN/20230324/MODEL/',
};
const DI_NAMESPACES: Partial<Record<DmnVersion, string>> = {
  '1.2': 'http://www.omg.org/spec/DMN/20180521/DMNDI/',
  '1.3': 'https://www.omg.org/spec/DMN/20191111/DMNDI/',
  '1.4': 'https://www.omg.org/spec/DMN/20211108/DMNDI/',
  '1.5': 'https://www.omg.org/spec/DMN/20230324/DMNDI/',
};

// Some tools write the namespaces without the final slash, or with http for https.
const sameNamespace = (a: string, b: string) => a.replace(/^https?:/, '').replace(/\/?$/, '') === b.replace(/^https?:/, '').replace(/\/?$/, '');

export interface DmnNamespaces {
  version: DmnVersion;
  /** The model namespace as the XML writes it. */
  model: string;
  /** The diagram (DMNDI) namespace as the XML writes it, else the version's. */
  diagram?: string;
}

/** A model's DMN version and namespaces, from its definitions element; undefined when the XML is not a DMN model. */
export function dmnNamespaces(xml: string): DmnNamespaces | undefined {
  const root = parseXml(xml).documentElement;
  const model = root.namespaceURI;
  if (root.localName !== 'definitions' || !model) return undefined;
  const version = (Object.keys(MODEL_NAMESPACES) as DmnVersion[]).find((v) => sameNamespace(MODEL_NAMESPACES[v], model));
  if (!version) return undefined;
  const diagram = /["'](https?:\/\/www\.omg\.org\/spec\/DMN\/\d{8}\/DMNDI\/?)["']/.exec(xml)?.[1] ?? DI_NAMESPACES[version];
  return { version, model, ...(diagram ? { diagram } : {}) };
}

/** A new model: one input data feeding one decision table, with its diagram, as dmn-js's own new diagram is. */
export function blankDmnXml(name: string): string {
  const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:dmndi="https://www.omg.org/spec/DMN/20191111/DMNDI/" xmlns:dc="http://www.omg.org/spec/DMN/20180521/DC/" xmlns:di="http://www.omg.org/spec/DMN/20180521/DI/" id="definitions" name="${escaped}" namespace="https://verdict.local/dmn/${encodeURIComponent(name)}">
  <decision id="result" name="Result">
    <informationRequirement id="req-amount">
      <requiredInput href="#amount" />
    </informationRequirement>
    <decisionTable id="result-table" hitPolicy="FIRST">
      <input id="input-amount" label="Amount">
        <inputExpression id="input-amount-expression" typeRef="number">
          <text>Amount</text>
        </inputExpression>
      </input>
      <output id="output-result" name="Result" typeRef="string" />
      <rule id="rule-large">
        <inputEntry id="rule-large-amount"><text>&gt;= 100</text></inputEntry>
        <outputEntry id="rule-large-result"><text>"large"</text></outputEntry>
      </rule>
      <rule id="rule-small">
        <inputEntry id="rule-small-amount"><text>-</text></inputEntry>
        <outputEntry id="rule-small-result"><text>"small"</text></outputEntry>
      </rule>
    </decisionTable>
  </decision>
  <inputData id="amount" name="Amount">
    <variable id="amount-variable" name="Amount" typeRef="number" />
  </inputData>
  <dmndi:DMNDI>
    <dmndi:DMNDiagram id="diagram">
      <dmndi:DMNShape id="result-shape" dmnElementRef="result">
        <dc:Bounds height="80" width="180" x="160" y="100" />
      </dmndi:DMNShape>
      <dmndi:DMNShape id="amount-shape" dmnElementRef="amount">
        <dc:Bounds height="45" width="125" x="187" y="260" />
      </dmndi:DMNShape>
      <dmndi:DMNEdge id="req-amount-edge" dmnElementRef="req-amount">
        <di:waypoint x="250" y="260" />
        <di:waypoint x="250" y="180" />
      </dmndi:DMNEdge>
    </dmndi:DMNDiagram>
  </dmndi:DMNDI>
</definitions>
`;
}

export function blankDmn(name: string): RuleDocument {
  return { type: 'dmn', name, status: 'pending', [DMN_XML_FIELD]: blankDmnXml(name) };
}
