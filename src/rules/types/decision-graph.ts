// GoRules JDM decision graphs (docs/jdm.md): nodes joined by edges, solved as zen solves them. Their decision nodes
// call other rules of the space, so they are flows in the dependency graph; they apply STANDARD only.
import { checkDecisionGraph } from '../decision-graph.ts';
import type { DecisionGraphContent } from '../decision-graph.ts';
import type { DecisionGraphModel } from '../model/decision-graph.ts';
import { ruleTypeDescriptor, type BodyReader } from './descriptor.ts';

const readDecisionGraphModel: BodyReader<DecisionGraphModel> = (doc, out) => {
  checkDecisionGraph(doc, out);
  return { type: 'decision-graph', document: doc, graph: doc.decisionGraph as DecisionGraphContent };
};

export const decisionGraphType = ruleTypeDescriptor({
  type: 'decision-graph',
  label: 'Decision graph',
  read: readDecisionGraphModel,
  strategies: ['STANDARD'],
  solvable: true,
  flow: true,
  references: 'nodes',
});
