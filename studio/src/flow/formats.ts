// The flow format of a rule document's type.
import type { FlowFormat } from './model/format.ts';
import { compositionFormat } from './model/composition.ts';
import { workflowFormat } from './model/workflow.ts';

export function formatOf(type: string): FlowFormat {
  return type === 'composition' ? compositionFormat : workflowFormat;
}
