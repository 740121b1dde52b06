// Tab-separated text as Excel and Google Sheets put it on the clipboard: rows end with \r\n (Excel) or \n
// (Sheets), the last row usually with one more line break; a field holding a tab, a line break or a quote is
// wrapped in double quotes with inner quotes doubled. A quote that does not open a field is literal text.

/** Parses clipboard text into rows of fields. One trailing line break does not make an empty last row. */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const n = text.length;
  let fieldStart = true;
  while (i < n) {
    const c = text[i]!;
    if (fieldStart && c === '"') {
      // a quoted field: runs to the closing quote; "" inside is one quote
      let j = i + 1;
      let value = '';
      let closed = false;
      while (j < n) {
        const d = text[j]!;
        if (d === '"') {
          if (text[j + 1] === '"') {
            value += '"';
            j += 2;
            continue;
          }
          closed = true;
          j++;
          break;
        }
        value += d;
        j++;
      }
      const next = text[j];
      if (closed && (j >= n || next === '\t' || next === '\n' || next === '\r')) {
        field = value;
        i = j;
        fieldStart = false;
        continue;
      }
      // not a well-formed quoted field (e.g. `"5" inch`): read the quote as text
    }
    fieldStart = false;
    if (c === '\t') {
      row.push(field);
      field = '';
      fieldStart = true;
      i++;
    } else if (c === '\r' || c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStart = true;
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (!fieldStart || field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function quoteField(field: string): string {
  if (/[\t\r\n"]/.test(field)) return `"${field.replace(/"/g, '""')}"`;
  return field;
}

/** Serialises rows as Excel does: tab between fields, \r\n after every row (the last one included). */
export function serialiseTsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(quoteField).join('\t') + '\r\n').join('');
}
