/**
 * CSV as RFC 4180 writes it (CRLF between records; a field with a comma, a double quote, CR or LF
 * is quoted and its quotes doubled), made safe to open in a spreadsheet: a cell starting with
 * `=`, `+`, `-`, `@`, a tab or CR would be read as a formula (OWASP "CSV injection"), so it is
 * prefixed with `'`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvCell = string | number | boolean | null | undefined;

export function csvCell(value: CsvCell): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(cells: readonly CsvCell[]): string {
  return cells.map(csvCell).join(',');
}

/** A header row and the rows, each record ended by CRLF. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((cells) => `${csvRecord(cells)}\r\n`).join('');
}
