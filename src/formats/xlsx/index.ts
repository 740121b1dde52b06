// DecisionRules XLSX v2: decision tables to and from spreadsheets (docs/xlsx.md).
export { writeXlsx, NotATableError, CannotWriteError, MAX_CELL_TEXT } from './write.ts';
export { readXlsx } from './read.ts';
export type { ReadOptions, ReadResult } from './read.ts';
export { XLSX_LIMITS, RefusedFileError, inspectArchive, looksLikeZip } from './zip-guard.ts';
export type { XlsxLimits } from './zip-guard.ts';
export { SHEETS } from './layout.ts';
