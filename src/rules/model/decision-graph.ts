// The model of a GoRules JDM decision graph: the graph's nodes and edges as src/rules/decision-graph.ts types them,
// read from the document's `decisionGraph` (kept as written, unknown JDM fields included, for the round trip).
import type { DecisionGraphContent } from '../decision-graph.ts';
import type { DocumentModel } from './document.ts';

export interface DecisionGraphModel extends DocumentModel<'decision-graph'> {
  readonly graph: DecisionGraphContent;
}
