// GoRules JDM decision graphs (docs/jdm.md): read a JDM file into a `decision-graph` document, write one back,
// tell a JDM file from a DecisionRules export, and convert decision tables exactly between the two formats.
export { readJdm, baseName, JDM_CONTENT_TYPE } from './read.ts';
export type { JdmTest, ReadJdmOptions, ReadJdmResult } from './read.ts';
export { writeJdm } from './write.ts';
export { detectFormat } from './detect.ts';
export type { RuleFileFormat } from './detect.ts';
export { graphTables, graphToTable, tableToGraph } from './convert.ts';
export type { ConvertedTable, GraphTable } from './convert.ts';
export { CannotConvertError } from './table-spec.ts';
export type { TableSpec, Unsupported } from './table-spec.ts';
