// exceljs, loaded on first use: it is about 300 modules (jszip, unzipper, archiver...) and 0.15 s of CPU to load, which
// every process that imports the formats layer (each `verdict` command over a store, each server start) paid although
// only an XLSX import or export uses it.
import type ExcelJS from 'exceljs';

let loaded: Promise<typeof ExcelJS> | undefined;

/** The exceljs module, imported once per process. */
export function excelJS(): Promise<typeof ExcelJS> {
  loaded ??= import('exceljs').then((module) => module.default);
  return loaded;
}
