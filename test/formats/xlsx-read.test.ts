// Reading DecisionRules XLSX v2: every cell form comes back as written, operator cells carry a dropdown, each
// problem names its sheet and cell, and hostile files (zip bombs, formulas, external links, macros, oversized
// sheets) are refused with their reason before anything is imported.
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { ValidationError } from '../../src/rules/problems.ts';
import { CannotWriteError, MAX_CELL_TEXT, RefusedFileError, XLSX_LIMITS, readXlsx, writeXlsx } from '../../src/formats/xlsx/index.ts';
import { canonical, edgeTable } from './xlsx-helpers.ts';

async function workbookOf(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  return workbook;
}

async function bytesOf(workbook: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The problems of reading `bytes`, as `path: message` lines. */
async function problemsOf(bytes: Uint8Array): Promise<string[]> {
  try {
    await readXlsx(bytes);
  } catch (err) {
    if (err instanceof ValidationError) return err.problems.map((p) => `${p.path}: ${p.message}`);
    throw err;
  }
  assert.fail('the file was read without problems');
}

async function refusal(bytes: Uint8Array): Promise<string> {
  try {
    await readXlsx(bytes);
  } catch (err) {
    if (err instanceof RefusedFileError || err instanceof ValidationError) return err.message;
    throw err;
  }
  assert.fail('the file was read');
}

async function edited(edit: (workbook: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = await workbookOf(await writeXlsx(edgeTable()));
  edit(workbook);
  return bytesOf(workbook);
}

async function withParts(parts: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = await JSZip.loadAsync(await writeXlsx(edgeTable()));
  for (const [name, data] of Object.entries(parts)) zip.file(name, data);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

describe('XLSX format', () => {
  test('every cell form, variable type, row setting and valid value comes back as written', async () => {
    const table = edgeTable();
    const read = (await readXlsx(await writeXlsx(table))).document;
    assert.deepEqual(canonical(read), canonical(table));
    assert.deepEqual((read as any).decisionTable.rows[1].cells[0].scalarCondition.value, ['a|b', 'c']);
    assert.deepEqual((read as any).userVariables.find((v: any) => v.name === 'Text').value, '30');
  });

  test('the four sheets, a readable list, Yes/No, and operator cells with a dropdown of operators', async () => {
    const workbook = await workbookOf(await writeXlsx(edgeTable()));
    assert.deepEqual(workbook.worksheets.map((s) => s.name), ['Settings', 'Rule Variables', 'Table', 'Valid Values']);
    const sheet = workbook.getWorksheet('Table')!;
    assert.deepEqual([1, 2, 3, 4].map((r) => sheet.getCell(r, 1).value), ['Column Alias', 'Column Type', 'Column Title', 'Column Value']);
    assert.deepEqual([1, 2, 3, 4].map((r) => sheet.getCell(r, 3).value), ['segment', 'condition', 'Segment', 'segment']);
    assert.equal(sheet.getCell('C6').value, 'IN');
    assert.equal(sheet.getCell('D6').value, 'gold|silver');
    assert.equal(sheet.getCell('G6').value, 'DATE >=');
    assert.equal(sheet.getCell('A6').value, 'Yes');
    assert.equal(sheet.getCell('A7').value, 'No');
    const validation = sheet.getCell('C6').dataValidation;
    assert.equal(validation.type, 'list');
    for (const op of ['anything', '=', 'IN', 'between', 'ELSE', 'function']) assert.ok(validation.formulae![0]!.includes(op), op);
    assert.equal(sheet.getCell('I6').dataValidation.formulae![0], '"function"');
    const valid = workbook.getWorksheet('Valid Values')!;
    assert.deepEqual([1, 2, 3, 4].map((r) => valid.getCell(r, 1).value), ['segment', 'Segment', 'gold', 'silver']);
  });

  test('a text longer than a spreadsheet cell holds refuses the export, naming the cell', async () => {
    const table = edgeTable();
    table.description = 'x'.repeat(MAX_CELL_TEXT + 1);
    await assert.rejects(writeXlsx(table), new CannotWriteError(`Settings!B11 would hold ${MAX_CELL_TEXT + 1} characters; a spreadsheet cell holds at most ${MAX_CELL_TEXT}, so this table cannot go to XLSX without loss`));
  });

  test('operators typed as the editor labels them are read too', async () => {
    const bytes = await edited((w) => {
      w.getWorksheet('Table')!.getCell('C6').value = 'NOT IN';
      w.getWorksheet('Table')!.getCell('E6').value = 'BTW';
    });
    const doc = (await readXlsx(bytes)).document as any;
    assert.equal(doc.decisionTable.rows[0].cells[0].scalarCondition.operator, 'NOT IN');
    assert.equal(doc.decisionTable.rows[0].cells[1].scalarCondition.operator, 'between');
  });

  test('each problem names its sheet, cell and what is wrong, and all are reported at once', async () => {
    const bytes = await edited((w) => {
      const table = w.getWorksheet('Table')!;
      table.getCell('C6').value = 'roughly';
      table.getCell('A7').value = 'Maybe';
      table.getCell('B6').value = '{"from":"2025-01-01"}';
      table.getCell('I7').value = '=';
      table.getCell('Q6').value = 'stray';
      w.getWorksheet('Settings')!.getCell('B5').value = 'live';
      w.getWorksheet('Valid Values')!.getCell('B1').value = 'Segment';
    });
    const problems = await problemsOf(bytes);
    const expected = [
      /^Table!C6: unknown operator "roughly"/,
      /^Table!A7: Active must be Yes or No \(got "Maybe"\)/,
      /^Table!B6: Time Validation "from" must read YYYY-MM-DD HH:MM ±HH:MM/,
      /^Table!I7: a calculation cell uses the function operator/,
      /^Table!Q6: a value outside the table/,
      /^Settings!B5: Status must be published or pending \(got "live"\)/,
      /^Valid Values!B1: valid values without a Column Alias|^Valid Values!B1: no column of the Table sheet has the alias "Segment" \(aliases are case-sensitive\)/,
    ];
    for (const pattern of expected) assert.ok(problems.some((p) => pattern.test(p)), `${pattern} in ${JSON.stringify(problems)}`);
  });

  test('a document problem found after reading is placed on its cell', async () => {
    const bytes = await edited((w) => {
      w.getWorksheet('Table')!.getCell('E6').value = 'between';
      w.getWorksheet('Settings')!.getCell('B3').value = 'not an alias!';
    });
    const problems = await problemsOf(bytes);
    assert.ok(problems.some((p) => p.startsWith('Settings!B3: ') && p.includes('ruleAlias')), JSON.stringify(problems));
  });

  test('a file that is not an XLSX v2 export says what it is missing', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Sheet1').getCell('A1').value = 'hello';
    const problems = await problemsOf(await bytesOf(workbook));
    assert.ok(problems.includes('Settings: the workbook has no sheet "Settings" (it has "Sheet1"); is it a DecisionRules XLSX v2 export?'), JSON.stringify(problems));
    const notZip = await refusal(Buffer.from('{"type":"decision-table"}'));
    assert.match(notZip, /not an XLSX workbook \(it does not start like a zip archive\)/);
  });
});

describe('hostile XLSX files are refused', () => {
  test('a formula is refused, never executed, and its cell is named', async () => {
    const bytes = await edited((w) => {
      w.getWorksheet('Table')!.getCell('J6').value = { formula: 'WEBSERVICE("http://example.invalid")', result: 1 } as ExcelJS.CellFormulaValue;
    });
    const problems = await problemsOf(bytes);
    assert.deepEqual(problems, ['Table!J6: holds a formula (=WEBSERVICE("http://example.invalid")); formulas are not executed: replace it with its value (Paste Special > Values)']);
  });

  test('the constants TRUE() and FALSE(), as LibreOffice saves booleans, are read as booleans; NOT(FALSE()) is refused', async () => {
    const bytes = await edited((w) => {
      w.getWorksheet('Rule Variables')!.getCell('B4').value = { formula: 'FALSE()', result: true } as ExcelJS.CellFormulaValue;
    });
    const doc = (await readXlsx(bytes)).document as any;
    assert.equal(doc.userVariables.find((v: any) => v.name === 'Flag').value, false, 'the formula text decides, never the cached result');
    const computed = await edited((w) => {
      w.getWorksheet('Rule Variables')!.getCell('B4').value = { formula: 'NOT(FALSE())', result: true } as ExcelJS.CellFormulaValue;
    });
    assert.deepEqual(await problemsOf(computed), ['Rule Variables!B4: holds a formula (=NOT(FALSE())); formulas are not executed: replace it with its value (Paste Special > Values)']);
  });

  test('a zip bomb is refused from its declared size, before inflating', async () => {
    const bytes = await withParts({ 'xl/media/bomb.xml': Buffer.alloc(48 * 1024 * 1024, 0x61) });
    assert.match(await refusal(bytes), /^Part xl\/media\/bomb\.xml declares 48 MiB, more than the 32 MiB a part may hold: refused as a zip bomb$/);
  });

  test('a zip bomb that lies about its size is stopped while inflating', async () => {
    const bytes = await withParts({ 'xl/media/bomb.xml': Buffer.alloc(40 * 1024 * 1024, 0x61) });
    // Rewrite the central directory's uncompressed size of the bomb to 1000 bytes.
    const name = Buffer.from('xl/media/bomb.xml');
    let at = bytes.length - 22;
    while (bytes.readUInt32LE(at) !== 0x06054b50) at--;
    let entry = bytes.readUInt32LE(at + 16);
    for (;;) {
      const nameLength = bytes.readUInt16LE(entry + 28);
      if (bytes.subarray(entry + 46, entry + 46 + nameLength).equals(name)) break;
      entry += 46 + nameLength + bytes.readUInt16LE(entry + 30) + bytes.readUInt16LE(entry + 32);
    }
    bytes.writeUInt32LE(1000, entry + 24);
    assert.equal(await refusal(bytes), 'Part xl/media/bomb.xml inflates to more than 32 MiB: refused as a zip bomb');
  });

  test('a small part compressed beyond any spreadsheet\'s ratio is refused', async () => {
    const data = Buffer.alloc(20 * 1024 * 1024, 0);
    assert.ok(deflateRawSync(data).length * XLSX_LIMITS.maxRatio < data.length);
    assert.match(await refusal(await withParts({ 'xl/media/zeros.bin': data })), /compressed more than 200 to 1 .*refused as a zip bomb/);
  });

  test('an external link part is refused', async () => {
    const bytes = await withParts({ 'xl/externalLinks/externalLink1.xml': '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>' });
    assert.equal(await refusal(bytes), 'The file links to other workbooks (xl/externalLinks/externalLink1.xml); external links are not followed: paste the linked values into the file and save it again');
  });

  test('macros (vbaProject.bin) are refused', async () => {
    const bytes = await withParts({ 'xl/vbaProject.bin': Buffer.from('not really vba') });
    assert.equal(await refusal(bytes), 'The file contains macros (xl/vbaProject.bin); Verdict never reads macro-enabled workbooks: save it as a plain .xlsx without macros');
  });

  test('a macro-enabled workbook (.xlsm content type) is refused', async () => {
    const zip = await JSZip.loadAsync(await writeXlsx(edgeTable()));
    const types = await zip.file('[Content_Types].xml')!.async('string');
    zip.file('[Content_Types].xml', types.replace('spreadsheetml.sheet.main+xml', 'sheet.macroEnabled.main+xml'));
    const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    assert.equal(await refusal(bytes), 'The file is a macro-enabled workbook (.xlsm); Verdict never reads macros: save it as a plain .xlsx');
  });

  test('a sheet over the row limit is refused, naming the limit', async () => {
    const bytes = await edited((w) => {
      const table = w.getWorksheet('Table')!;
      for (let r = 9; r <= XLSX_LIMITS.maxRows + 1; r++) table.getCell(r, 1).value = 'No';
    });
    assert.equal(await refusal(bytes), `Table: has ${XLSX_LIMITS.maxRows + 1} rows, more than the ${XLSX_LIMITS.maxRows} a sheet may have (docs/xlsx.md "Limits"); nothing was imported`);
  });
});
