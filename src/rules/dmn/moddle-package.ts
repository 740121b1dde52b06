// dmn-moddle describes DMN 1.3. DMN 1.5 is 1.3 plus the boxed conditional, iterators (for, some, every), filter,
// and item definitions' type constraints; this module adds them to dmn-moddle's own description, under the DMN
// 1.5 namespace. Models of DMN 1.1 to 1.4 are read as 1.5 (each version is a superset of the one before, but for
// DMN 1.1's diagram-less layout, which reads the same).
import DMN13 from 'dmn-moddle/resources/dmn/json/dmn13.json' with { type: 'json' };
import DMNDI13 from 'dmn-moddle/resources/dmn/json/dmndi13.json' with { type: 'json' };

export const DMN15_MODEL_NAMESPACE = 'https://www.omg.org/spec/DMN/20230324/MODEL/';
const DMN15_DI_NAMESPACE = 'https://www.omg.org/spec/DMN/20230324/DMNDI/';

/** Model and diagram namespaces of earlier DMN versions, read as their DMN 1.5 counterparts. */
export const EARLIER_NAMESPACES: Record<string, string> = {
  'http://www.omg.org/spec/DMN/20151101/dmn.xsd': DMN15_MODEL_NAMESPACE,
  'http://www.omg.org/spec/DMN/20180521/MODEL/': DMN15_MODEL_NAMESPACE,
  'https://www.omg.org/spec/DMN/20191111/MODEL/': DMN15_MODEL_NAMESPACE,
  'https://www.omg.org/spec/DMN/20211108/MODEL/': DMN15_MODEL_NAMESPACE,
  'http://www.omg.org/spec/DMN/20180521/DMNDI/': DMN15_DI_NAMESPACE,
  'https://www.omg.org/spec/DMN/20191111/DMNDI/': DMN15_DI_NAMESPACE,
  'https://www.omg.org/spec/DMN/20211108/DMNDI/': DMN15_DI_NAMESPACE,
};

const child = (name: string, type = 'ChildExpression') => ({ name, type, xml: { serialize: 'property' } });

const DMN15_TYPES = [
  {
    name: 'ChildExpression',
    properties: [
      { name: 'id', isAttr: true, type: 'String' },
      { name: 'expression', type: 'Expression' },
    ],
  },
  { name: 'TypedChildExpression', superClass: ['ChildExpression'], properties: [{ name: 'typeRef', isAttr: true, type: 'String' }] },
  {
    name: 'Iterator',
    isAbstract: true,
    superClass: ['Expression'],
    properties: [child('in', 'TypedChildExpression'), { name: 'iteratorVariable', isAttr: true, type: 'String' }],
  },
  { name: 'For', superClass: ['Iterator'], properties: [child('return')] },
  { name: 'Quantified', isAbstract: true, superClass: ['Iterator'], properties: [child('satisfies')] },
  { name: 'Every', superClass: ['Quantified'], properties: [] },
  { name: 'Some', superClass: ['Quantified'], properties: [] },
  { name: 'Conditional', superClass: ['Expression'], properties: [child('if'), child('then'), child('else')] },
  { name: 'Filter', superClass: ['Expression'], properties: [child('in'), child('match')] },
];

function withTypeConstraint(types: readonly { name: string; properties: readonly object[] }[]): object[] {
  return types.map((type) =>
    type.name === 'ItemDefinition'
      ? { ...type, properties: [...type.properties, { name: 'typeConstraint', type: 'UnaryTests', xml: { serialize: 'property' } }] }
      : type,
  );
}

/** The packages to give dmn-moddle: DMN 1.5 models and diagrams. */
export const DMN15_PACKAGES = {
  dmn: { ...DMN13, uri: DMN15_MODEL_NAMESPACE, types: [...withTypeConstraint(DMN13.types), ...DMN15_TYPES] },
  dmndi: { ...DMNDI13, uri: DMN15_DI_NAMESPACE },
};
