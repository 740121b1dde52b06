// The flow format of a rule document's type.
import type { FlowFormat } from './model/format.ts';
import { compositionFormat } from './model/composition.ts';
import { workflowFormat } from './model/workflow.ts';
import { decisionGraphFormat } from '../graph/model/jdm.ts';

export function formatOf(type: string): FlowFormat {
  return type === 'composition' ? compositionFormat : type === 'decision-graph' ? decisionGraphFormat : workflowFormat;
}
