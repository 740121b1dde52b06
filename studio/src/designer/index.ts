// The table designer's public surface, mounted by the Studio shell (studio/src/app).
//
// Problem paths are JSON paths into the rule document as src/rules writes them, e.g.
// `decisionTable.rows[3].cells[1].scalarCondition.value` (cells[j] indexes the row's `cells` array; the designer
// finds the grid column through that cell's `column` id) or `decisionTable.columns[2].columnOutput.outputVariable`.
// A prefix before `decisionTable` (e.g. `rule.`) is ignored; paths outside the table are listed above the grid.
//
// `trace` is the engine's RowTraceEntry list (src/engine/table/evaluate.ts), or a response holding it under
// `trace` / `debugData` (the first element is used for bulk input).
export { TableDesigner } from './TableDesigner.tsx';
export type { TableDesignerProps } from './TableDesigner.tsx';
export { ExpressionEditor } from './ExpressionEditor.tsx';
export type { ExpressionEditorProps } from './ExpressionEditor.tsx';
export type { Problem } from './model/problems.ts';
export { blankTable } from './model/table.ts';
